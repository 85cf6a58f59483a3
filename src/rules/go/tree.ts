import { GoPosition } from './position.js';
import type { MoveOutcome, Stone } from './types.js';

/** One move of a game tree. `point` null is a pass; children[0] continues the line, the rest are variations. */
export interface GoMoveNode {
  readonly stone: Stone | null;
  readonly point: { readonly x: number; readonly y: number } | null;
  readonly children: readonly GoMoveNode[];
}

/** What a move did when its line was replayed. Passes are always legal and capture nothing. */
export interface ReplayedMove {
  readonly node: GoMoveNode;
  /** 1-based depth of the move in the tree: its ply within its line. */
  readonly ply: number;
  /** 0 for the main line; each variation gets the next number in depth-first order. */
  readonly line: number;
  readonly outcome: MoveOutcome;
  /** The position after the move; only valid during the callback (it is reused and mutated). */
  readonly position: GoPosition;
}

const PASSED: MoveOutcome = { legal: true, captured: [] };

/**
 * Replays every line of a tree without recursion (a nested game may be thousands of moves deep).
 * The main line goes first, in place; a variation starts from a copy of the position taken where
 * it branches off. An illegal move leaves its line's position unchanged and the line goes on.
 * Returns the position at the end of the main line.
 */
export function replayTree(size: number, roots: readonly GoMoveNode[], visit: (move: ReplayedMove) => void): GoPosition {
  const start = new GoPosition(size);
  let mainEnd = start;
  let lines = 0;
  const pending: { node: GoMoveNode; position: GoPosition; ply: number; line: number }[] = [];
  const branch = (children: readonly GoMoveNode[], position: GoPosition, ply: number, line: number): void => {
    // Alternatives first onto the stack so the continuation of the current line is taken next.
    for (let i = children.length - 1; i >= 1; i--) pending.push({ node: children[i], position: position.clone(), ply, line: -1 });
    if (children.length > 0) pending.push({ node: children[0], position, ply, line });
  };
  branch(roots, start, 1, 0);
  while (pending.length > 0) {
    const task = pending.pop()!;
    const line = task.line >= 0 ? task.line : ++lines;
    const { node, position, ply } = task;
    let outcome: MoveOutcome;
    if (node.point === null || node.stone === null) {
      position.pass();
      outcome = PASSED;
    } else {
      outcome = position.play(node.stone, node.point.x, node.point.y);
    }
    visit({ node, ply, line, outcome, position });
    if (line === 0) mainEnd = position;
    branch(node.children, position, ply + 1, line);
  }
  return mainEnd;
}
