import type { Refused } from '../refusal.js';
import type { GoIllegal } from './illegal.js';

/** Stone colours as stored on the board; 0 is an empty point. Small integers keep the board a typed array. */
export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export type Stone = typeof BLACK | typeof WHITE;
export type Cell = typeof EMPTY | Stone;

export const MIN_BOARD_SIZE = 2;
export const MAX_BOARD_SIZE = 25;

export function opponent(stone: Stone): Stone {
  return stone === BLACK ? WHITE : BLACK;
}

export function stoneName(stone: Stone): 'black' | 'white' {
  return stone === BLACK ? 'black' : 'white';
}

/** Why a move cannot be played: one of {@link GO_ILLEGAL}. */
export type IllegalReason = GoIllegal;

/**
 * The outcome of one move. Points are indices `y * size + x`; `captured` lists the opponent's
 * stones the move took off the board, in the order they were found.
 */
export type MoveOutcome =
  | { readonly legal: true; readonly captured: readonly number[] }
  | Refused<GoIllegal>;

export interface AreaScore {
  /** Black stones on the board plus empty points reached only by black. */
  readonly black: number;
  readonly white: number;
  /** Empty points reached by both colours or by neither. */
  readonly neutral: number;
}
