import { Position } from '../../../rules/checkers/position.js';
import { BLACK_KING, Colour, WHITE_KING, WHITE_MAN } from '../../../rules/checkers/pieces.js';
import { Square } from '../../../rules/checkers/squares.js';
import { parseSquareName, squareName } from '../../families/checkers/notation.js';
import { NUMBERED_SQUARES, numberOfSquare, positionFromFen, squareOfNumber } from '../../families/checkers/fen.js';

export { NUMBERED_SQUARES, numberOfSquare, positionFromFen, squareOfNumber };

/**
 * PDN notation for Russian draughts (GameType 25): squares by name (`c3`) or by number, the 32 dark
 * squares numbered row by row from black's side, left to right (1 = b8, 4 = h8, 5 = a7, 29 = a1,
 * 32 = g1); moves `from-to` (quiet) or `from:to` / `fromxto` (captures, with any of the landings
 * between); FEN setups `W:W21,22,K30:B1-3`.
 */

export type SquareStyle = 'algebraic' | 'numeric';

export function writeSquare(square: Square, style: SquareStyle): string {
  return style === 'numeric' ? String(numberOfSquare(square)) : squareName(square);
}

/** A move as PDN writes it: its squares in order (start, some or all landings, end) and whether it captures. */
export interface WrittenMove {
  readonly squares: readonly Square[];
  readonly capture: boolean;
  readonly style: SquareStyle;
  /** A strength mark written on the move (`!`, `?!`), or null. */
  readonly strength: string | null;
}

const MOVE = /^((?:[a-h][1-8][-x:])+[a-h][1-8]|(?:[0-9]{1,2}[-x:])+[0-9]{1,2})([!?]{1,2})?$/;

/** The move a token writes, or why it writes none. Numbered squares beyond 32 are not on this board. */
export function readMoveToken(token: string): WrittenMove | { readonly unreadable: string } {
  const match = MOVE.exec(token);
  if (!match) return { unreadable: `"${token}" is not a move` };
  const parts = match[1].split(/[-x:]/);
  const style: SquareStyle = /^[0-9]/.test(parts[0]) ? 'numeric' : 'algebraic';
  const squares: Square[] = [];
  for (const part of parts) {
    const square = style === 'numeric' ? squareOfNumber(Number(part)) : parseSquareName(part);
    if (square === undefined) return { unreadable: `"${token}": square ${part} is not one of the 32 squares of the 8x8 board` };
    squares.push(square);
  }
  return { squares, capture: /[x:]/.test(match[1]), style, strength: match[2] ?? null };
}

/** The largest square number a numeric move token names (0 for other tokens): above 32 means a 10x10 game. */
export function largestSquareNumber(token: string): number {
  if (!/^[0-9]{1,2}[-x:]/.test(token)) return 0;
  return Math.max(...token.replace(/[!?]+$/, '').split(/[-x:]/).map(Number).filter(Number.isFinite));
}

/** The FEN tag value of a position, squares by number in increasing order, kings marked `K`: `W:W21,22,K30:B1,2`. */
export function writeFen(position: Position): string {
  const sides: Record<Colour, string[]> = { white: [], black: [] };
  for (let n = 1; n <= NUMBERED_SQUARES; n++) {
    const cell = position.at(squareOfNumber(n) as Square);
    if (cell === 0) continue;
    const king = cell === WHITE_KING || cell === BLACK_KING;
    sides[cell === WHITE_MAN || cell === WHITE_KING ? 'white' : 'black'].push(`${king ? 'K' : ''}${n}`);
  }
  return `${position.toMove === 'white' ? 'W' : 'B'}:W${sides.white.join(',')}:B${sides.black.join(',')}`;
}
