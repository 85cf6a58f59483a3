import { Piece, describePiece } from '../../../rules/checkers/pieces.js';
import { Square, columnOf, isDarkSquare, rowOf, squareAt } from '../../../rules/checkers/squares.js';
import { squareName } from '../../families/checkers/notation.js';

/**
 * One number of a BARS move, read as the digits `a b c y x` with leading zeros dropped
 * (156 is 00156): a = captured flag, bc = piece code (1, 2, 11, 12), y x = row and column.
 * Digits are taken arithmetically from the right, never by reading the decimal string from the left.
 */
export interface PieceNumber {
  readonly captured: boolean;
  readonly piece: Piece;
  readonly square: Square;
}

/** The largest valid number is 11276 (a captured black king on g1); 20000 and above have a > 1. */
export const NUMBER_LIMIT = 20000;

/** Why a number is not a BARS number, or null when it is one. */
export function numberProblem(value: number): string | null {
  if (!Number.isSafeInteger(value) || value < 0) return `${value} is not a BARS number`;
  if (value >= NUMBER_LIMIT) return `${value} is too large: a BARS number is below ${NUMBER_LIMIT} (digits a b c y x)`;
  const { b, c, y, x } = digits(value);
  if (b > 1) return `${value}: the king digit b is ${b}, expected 0 (man) or 1 (king)`;
  if (c !== 1 && c !== 2) return `${value}: the colour digit c is ${c}, expected 1 (white) or 2 (black)`;
  if (y > 7 || x > 7) return `${value}: row ${y}, column ${x} is off the 8x8 board`;
  if (!isDarkSquare(y, x)) return `${value}: row ${y}, column ${x} is a light square, where no piece can stand`;
  return null;
}

/** The fields of a number that {@link numberProblem} accepted. */
export function decodeNumber(value: number): PieceNumber {
  const { a, b, c, y, x } = digits(value);
  return { captured: a === 1, piece: (b * 10 + c) as Piece, square: squareAt(y, x) };
}

function digits(value: number): { a: number; b: number; c: number; y: number; x: number } {
  return {
    a: Math.floor(value / 10000),
    b: Math.floor(value / 1000) % 10,
    c: Math.floor(value / 100) % 10,
    y: Math.floor(value / 10) % 10,
    x: value % 10,
  };
}

export function encodeNumber(number: PieceNumber): number {
  return (number.captured ? 10000 : 0) + number.piece * 100 + rowOf(number.square) * 10 + columnOf(number.square);
}

/** `captured white king on d6`. */
export function describeNumber(number: PieceNumber): string {
  return `${number.captured ? 'captured ' : ''}${describePiece(number.piece)} on ${squareName(number.square)}`;
}
