import { DotsGame, PlayOutcome } from '../../../src/rules/dots/index.js';
import type { DotsSgfGame, SgfMove } from './dots-sgf.js';

export interface SgfReplayedMove {
  /** 1-based, counting moves only (setup dots are not moves). */
  readonly ply: number;
  readonly move: SgfMove;
  readonly outcome: PlayOutcome;
}

export interface SgfReplay {
  readonly game: DotsGame;
  readonly moves: SgfReplayedMove[];
}

/**
 * Replays an SGF Dots game with the engine on its own field: Black is seat 0, White seat 1, every
 * dot placed for the colour the file gives it (so games with extra moves replay too). Setup dots
 * are placed first.
 */
export function replaySgf(sgf: DotsSgfGame): SgfReplay {
  const game = new DotsGame({ width: sgf.width, height: sgf.height, players: 2, extraMove: false });
  for (const dot of sgf.setup) game.place(dot.colour, dot.row, dot.col);
  const moves = sgf.moves.map((move, i) => ({ ply: i + 1, move, outcome: game.place(move.colour, move.row, move.col) }));
  return { game, moves };
}
