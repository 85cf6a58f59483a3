import { DotsGame, IllegalReason, Surround } from '../../../rules/dots/index.js';
import type { Cell } from '../../../rules/dots/index.js';
import { scoresAfterGrounding, ungroundedDots } from '../../families/dots/index.js';
import { insideChain } from './chains.js';
import type { SgfDotsMove, SgfDotsNode } from './model.js';

/** One ply of a replayed line: a dot, or a move without a dot. */
export interface SgfReplayedPly {
  /** 1-based along the line (setup dots are not plies). */
  readonly ply: number;
  readonly move: SgfDotsMove;
  readonly illegal?: IllegalReason;
  readonly surrounds: readonly Surround[];
  readonly scores: readonly number[];
  /**
   * For a dot the file writes chains after: the enemy dots inside those chains that were live
   * before the move (what the file says the move captured).
   */
  readonly writtenCaptures?: readonly Cell[];
}

export interface SgfGrounding {
  readonly seat: number;
  /** The grounding player's dots cut off from the edge, which the opponent gains. */
  readonly given: readonly Cell[];
}

export interface SgfReplay {
  readonly plies: readonly SgfReplayedPly[];
  /** Set when the line ends with an empty move: that player grounded. */
  readonly grounding: SgfGrounding | null;
  /** Final scores, the grounding included. */
  readonly scores: readonly number[];
  /** Empty moves before the last ply (no dot, no grounding): passes. */
  readonly passes: number;
  readonly game: DotsGame;
}

/**
 * Replays a line of nodes on the game's field. Every dot is placed for the colour the file gives
 * it (SGF names the player of each move, so extra moves and several dots in one node replay as
 * written); setup dots (`AB`/`AW`) are placed first in their node and are not plies. A line that
 * ends with an empty move ends by grounding: the mover's dots cut off from the edge go to the
 * opponent. An empty move elsewhere is a pass.
 */
export function replayLine(nodes: readonly SgfDotsNode[], width: number, height: number): SgfReplay {
  const game = new DotsGame({ width, height, players: 2, extraMove: false });
  const plies: SgfReplayedPly[] = [];
  let last: SgfDotsMove | null = null;
  for (const node of nodes) {
    for (const dot of node.setup) game.place(dot.seat, dot.cell.row, dot.cell.col);
    for (const move of node.moves) {
      last = move;
      const ply = plies.length + 1;
      if (move.dot === null) {
        plies.push({ ply, move, surrounds: [], scores: game.scores });
        continue;
      }
      const outcome = game.place(move.seat, move.dot.row, move.dot.col);
      if (!outcome.legal) plies.push({ ply, move, illegal: outcome.reason, surrounds: [], scores: outcome.scores });
      else {
        const writtenCaptures = move.chains.length === 0 ? undefined : capturesInside(game, move.seat, move.chains, outcome.surrounds);
        plies.push({ ply, move, surrounds: outcome.surrounds, scores: outcome.scores, writtenCaptures });
      }
    }
  }
  const empties = plies.filter((p) => p.move.dot === null).length;
  if (last === null || last.dot !== null) return { plies, grounding: null, scores: game.scores, passes: empties, game };
  const given = ungroundedDots(game.board, last.seat);
  const scores = scoresAfterGrounding(game.scores, last.seat, given.length);
  const final = plies[plies.length - 1];
  plies[plies.length - 1] = { ...final, scores };
  return { plies, grounding: { seat: last.seat, given }, scores, passes: empties - 1, game };
}

/** Enemy dots inside written chains that were live before the move: live now, or captured by it. */
function capturesInside(game: DotsGame, seat: number, chains: readonly (readonly Cell[])[], surrounds: readonly Surround[]): Cell[] {
  const { board, field } = game;
  const capturedNow = new Set(surrounds.flatMap((s) => s.captured.map((c) => field.point(c.row, c.col))));
  const seen = new Set<number>();
  const found: Cell[] = [];
  for (const chain of chains) {
    for (const cell of insideChain(chain)) {
      if (!field.contains(cell.row, cell.col)) continue;
      const p = field.point(cell.row, cell.col);
      if (seen.has(p)) continue;
      seen.add(p);
      if (board.isLiveEnemyDot(p, seat) || capturedNow.has(p)) found.push(cell);
    }
  }
  return found;
}
