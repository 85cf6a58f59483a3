import { applyMove } from '../../../rules/checkers/apply-move.js';
import { judgeMove } from '../../../rules/checkers/judge-move.js';
import { CheckersPositionHasher } from '../../../rules/checkers/position-key.js';
import { Position } from '../../../rules/checkers/position.js';
import type { Move } from '../../../rules/checkers/move.js';
import { POSITION_MOVES, PositionTrackWriter } from '../positions.js';
import type { PositionTrack } from '../positions.js';
import { BoardMasksWriter } from './board-masks.js';
import { SEAT } from './ledger.js';
import { setupPosition } from './interchange.js';
import type { CheckersInterchange } from './interchange.js';

/**
 * The positions of a draughts game's main line (see {@link PositionTrack}): the start (the standard
 * one or the record's setup) and the position after each ply, up to the first move the rules do not
 * accept. A move is written as its squares, from and each landing, so a capture's path is kept.
 */
export function checkersPositionTrack(game: CheckersInterchange, options: { readonly board?: boolean } = {}): PositionTrack | null {
  let position: Position;
  try {
    position = game.setup ? setupPosition(game.setup) : Position.initial();
  } catch {
    return null;
  }
  const start = position;
  const moves: Move[] = [];
  for (const source of game.main.moves) {
    const judgement = judgeMove(position, source);
    if (!judgement.legal) break;
    moves.push(judgement.move);
    position = applyMove(position, judgement.move);
  }
  return checkersTrackOf(start, moves, options);
}

/**
 * The positions from `start` through the engine's `moves` (a plugin that replayed them already gives
 * them so); with `board`, each position's squares too (`board-masks.ts`).
 */
export function checkersTrackOf(start: Position, moves: readonly Move[], options: { readonly board?: boolean } = {}): PositionTrack {
  const hasher = CheckersPositionHasher.of(start);
  // The movers take turns from the side to move at the start (white is seat 0, black 1).
  const writer = new PositionTrackWriter('checkers', moves.length, { firstMover: SEAT[start.toMove] });
  const boards = options.board ? new BoardMasksWriter(moves.length + 1) : null;
  writer.position(hasher.keys);
  boards?.position(hasher.cells);
  for (const move of moves) {
    const squares = [move.from, ...move.landings];
    if (squares.length > POSITION_MOVES.checkers - 1) break;
    writer.move((_, into) => {
      into[0] = squares.length | (move.captured.length > 0 ? 0x80 : 0);
      into.set(squares, 1);
    });
    hasher.play(move);
    writer.position(hasher.keys);
    boards?.position(hasher.cells);
  }
  const track = writer.finish();
  return boards ? { ...track, squares: boards.finish() } : track;
}
