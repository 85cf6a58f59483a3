import { AreaScore, GoMoveNode, GoPosition, IllegalReason, areaScore, replayTree } from '../../../rules/go/index.js';
import { NO_ITEMS } from '../../text/lists.js';

/** A point of the board: 0-based column and row from the top left. */
export interface GoPoint {
  readonly x: number;
  readonly y: number;
}

/** What replaying one move of a Go game tree gave, whatever the format. */
export interface ReplayedGoMove<N extends GoMoveNode> {
  readonly node: N;
  /** 1-based depth of the move in the tree. */
  readonly ply: number;
  /** 0 = main line, then variations numbered depth-first. */
  readonly line: number;
  readonly illegal: IllegalReason | null;
  /** The stones the move captured, sorted by y then x. */
  readonly captured: readonly GoPoint[];
}

export interface GoGameReplay<N extends GoMoveNode> {
  /** Every move of every line, main line first, then variations depth-first. */
  readonly moves: readonly ReplayedGoMove<N>[];
  readonly mainLine: readonly ReplayedGoMove<N>[];
  /** Lines in the tree (1 without variations; 0 without moves). */
  readonly lines: number;
  readonly finalPosition: GoPosition;
  /** Tromp–Taylor area of the main line's final position, stones as they stand (no dead stones removed). */
  readonly area: AreaScore;
}

/** Replays every line of a Go game tree with the rules engine, from `initial` (empty board when absent). */
export function replayGoGame<N extends GoMoveNode>(size: number, roots: readonly N[], initial?: GoPosition): GoGameReplay<N> {
  const moves: ReplayedGoMove<N>[] = [];
  let lines = 0;
  const finalPosition = replayTree(
    size,
    roots,
    ({ node, ply, line, outcome }) => {
      lines = Math.max(lines, line + 1);
      const captured =
        outcome.legal && outcome.captured.length > 0
          ? outcome.captured.map((index) => ({ x: index % size, y: Math.floor(index / size) })).sort((a, b) => a.y - b.y || a.x - b.x)
          : NO_ITEMS;
      moves.push({ node: node as N, ply, line, illegal: outcome.legal ? null : outcome.reason, captured });
    },
    initial,
  );
  return new Replayed(moves, lines, finalPosition);
}

/**
 * A replay's answer: a class, its `area` counted when first asked for (GoFans regenerates Points
 * from it, SGF never scores a position). It was an object literal with a getter, which V8 builds in
 * its runtime rather than inline, and with it every game's replayed moves ended in the old
 * generation: reading 5,000 TYGEM games took 18 full collections and promoted 400-700 MB, against
 * 2 and 14 MB with this class, and twice the CPU.
 */
class Replayed<N extends GoMoveNode> implements GoGameReplay<N> {
  readonly mainLine: readonly ReplayedGoMove<N>[];
  private counted: AreaScore | undefined;

  constructor(
    readonly moves: readonly ReplayedGoMove<N>[],
    readonly lines: number,
    readonly finalPosition: GoPosition,
  ) {
    this.mainLine = moves.filter((m) => m.line === 0);
  }

  get area(): AreaScore {
    return (this.counted ??= areaScore(this.finalPosition));
  }
}

/** Whether a line ends with two passes in a row (the usual end of a game that was counted). */
export function endsWithTwoPasses(line: readonly { readonly point: GoPoint | null }[]): boolean {
  return line.length >= 2 && line[line.length - 1].point === null && line[line.length - 2].point === null;
}
