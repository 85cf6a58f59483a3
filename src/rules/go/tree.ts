import { GoPosition } from './position.js';
import type { Cell, MoveOutcome, Stone } from './types.js';

/** A point set up without a move (a handicap stone, a stone removed): its content afterwards. */
export interface GoSetupPoint {
  readonly x: number;
  readonly y: number;
  readonly cell: Cell;
}

/** One move of a game tree. `point` null is a pass; children[0] continues the line, the rest are variations. */
export interface GoMoveNode {
  readonly stone: Stone | null;
  readonly point: { readonly x: number; readonly y: number } | null;
  readonly children: readonly GoMoveNode[];
  /** Points set up just before the move (no captures, no ko); they must be on the board. */
  readonly setup?: readonly GoSetupPoint[];
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
 * Returns the position at the end of the main line. `initial` (not changed) is the position before
 * the first move, e.g. with handicap stones; an empty board when absent.
 */
export function replayTree(size: number, roots: readonly GoMoveNode[], visit: (move: ReplayedMove) => void, initial?: GoPosition): GoPosition {
  const start = initial?.clone() ?? new GoPosition(size);
  let mainEnd = start;
  let lines = 0;
  // Where a variation starts, waiting its turn; a line itself is followed in the loop below.
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
    const position = task.position;
    let node = task.node;
    let ply = task.ply;
    for (;;) {
      if (node.setup) for (const point of node.setup) position.setStone(point.x, point.y, point.cell);
      let outcome: MoveOutcome;
      if (node.point === null || node.stone === null) {
        position.pass();
        outcome = PASSED;
      } else {
        outcome = position.play(node.stone, node.point.x, node.point.y);
      }
      visit({ node, ply, line, outcome, position });
      if (line === 0) mainEnd = position;
      // One way on: the line goes on here, as the stack would take it next anyway.
      if (node.children.length !== 1) {
        branch(node.children, position, ply + 1, line);
        break;
      }
      node = node.children[0];
      ply++;
    }
  }
  return mainEnd;
}
