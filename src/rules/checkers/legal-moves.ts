import { captureMoves, hasCapture } from './captures.js';
import type { Move } from './move.js';
import type { Position } from './position.js';
import { hasQuietMove, quietMoves } from './quiet-moves.js';

/** Every legal move of the side to move: the captures when there is one (capturing is mandatory), else the quiet moves. */
export function legalMoves(position: Position): Move[] {
  const captures = captureMoves(position);
  return captures.length > 0 ? captures : quietMoves(position);
}

export function hasLegalMove(position: Position): boolean {
  return hasCapture(position) || hasQuietMove(position);
}
