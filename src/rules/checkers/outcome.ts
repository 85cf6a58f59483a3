import { hasLegalMove } from './legal-moves.js';
import { Colour, opponentOf } from './pieces.js';
import type { Position } from './position.js';

/** Why a game is over: the side to move has lost because it has no pieces or cannot move. */
export interface GameOver {
  readonly winner: Colour;
  readonly loser: Colour;
  readonly reason: 'no pieces' | 'no move';
}

/** The game's end in this position, or null while the side to move can play. */
export function gameOver(position: Position): GameOver | null {
  if (hasLegalMove(position)) return null;
  const { men, kings } = position.count(position.toMove);
  return { winner: opponentOf(position.toMove), loser: position.toMove, reason: men + kings === 0 ? 'no pieces' : 'no move' };
}

/** `white wins: black has no pieces`. */
export function describeGameOver(over: GameOver): string {
  return `${over.winner} wins: ${over.loser} has ${over.reason}`;
}
