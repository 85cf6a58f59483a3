import { BLACK_KING, BLACK_MAN, WHITE_KING, WHITE_MAN } from '../../../rules/checkers/pieces.js';
import { SQUARE_COUNT, columnOf, rowOf } from '../../../rules/checkers/squares.js';
import type { Square } from '../../../rules/checkers/squares.js';
import { NUMBERED_SQUARES, numberOfSquare, squareOfNumber } from './fen.js';

/*
 * A draughts board as four 32-bit masks, one bit a dark square: bit n − 1 is the square PDN numbers
 * n (`fen.ts`: 1 = b8 … 4 = h8, 5 = a7 … 29 = a1 … 32 = g1). The masks are, in this order, the white
 * men, the white kings, the black men and the black kings. A game's positions are written one after
 * the other, ply 0 (the start) first, each mask unsigned and big-endian: 16 bytes a position.
 */

/** Bytes of one position. */
export const BOARD_MASKS_BYTES = 16;

/** The masks' order in a position, and their names. */
export const WHITE_MEN = 0;
export const WHITE_KINGS = 1;
export const BLACK_MEN = 2;
export const BLACK_KINGS = 3;

/** Bits set in a 32-bit mask: the pieces of one kind on a board. */
export function popcount(mask: number): number {
  let v = mask - ((mask >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bit of a dark square (the engine's `row * 8 + column`); -1 for a light square. */
export function squareBit(square: Square): number {
  if (square < 0 || square >= SQUARE_COUNT || ((rowOf(square) + columnOf(square)) & 1) === 0) return -1;
  return numberOfSquare(square) - 1;
}

/** The square of bit `bit` (0–31). */
export function bitSquare(bit: number): Square {
  return squareOfNumber(bit + 1)!;
}

/** The dark squares, by bit. */
const SQUARES: Uint8Array = Uint8Array.from({ length: NUMBERED_SQUARES }, (_, bit) => bitSquare(bit));

/** The four masks of a board given as the engine's cells (64, light squares empty), as unsigned numbers. */
export function masksOfCells(cells: ArrayLike<number>): [number, number, number, number] {
  let whiteMen = 0;
  let whiteKings = 0;
  let blackMen = 0;
  let blackKings = 0;
  for (let bit = 0; bit < NUMBERED_SQUARES; bit++) {
    const flag = 1 << bit;
    switch (cells[SQUARES[bit]]) {
      case WHITE_MAN:
        whiteMen |= flag;
        break;
      case WHITE_KING:
        whiteKings |= flag;
        break;
      case BLACK_MAN:
        blackMen |= flag;
        break;
      case BLACK_KING:
        blackKings |= flag;
        break;
    }
  }
  return [whiteMen >>> 0, whiteKings >>> 0, blackMen >>> 0, blackKings >>> 0];
}

/** Writes a board's masks ({@link masksOfCells}) at `offset` of `into`. */
export function writeBoardMasks(cells: ArrayLike<number>, into: Uint8Array, offset: number): void {
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  const masks = masksOfCells(cells);
  for (let k = 0; k < 4; k++) view.setUint32(offset + 4 * k, masks[k]);
}

/** The board of position `index` of `bytes` back as the engine's 64 cells. */
export function cellsOfMasks(bytes: Uint8Array, index: number): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cells = new Uint8Array(SQUARE_COUNT);
  const pieces = [WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING];
  for (let k = 0; k < 4; k++) {
    const mask = view.getUint32(index * BOARD_MASKS_BYTES + 4 * k);
    for (let bit = 0; bit < NUMBERED_SQUARES; bit++) if (mask & (1 << bit)) cells[SQUARES[bit]] = pieces[k];
  }
  return cells;
}

/** A game's positions as masks: one board after the other, as the replay passes them (see above). */
export class BoardMasksWriter {
  private bytes: Uint8Array;
  private count = 0;

  constructor(expectedPositions = 64) {
    this.bytes = new Uint8Array(BOARD_MASKS_BYTES * Math.max(1, expectedPositions));
  }

  /** The next position's board, as the engine's 64 cells. */
  position(cells: ArrayLike<number>): void {
    if ((this.count + 1) * BOARD_MASKS_BYTES > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    writeBoardMasks(cells, this.bytes, this.count * BOARD_MASKS_BYTES);
    this.count++;
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.count * BOARD_MASKS_BYTES);
  }
}
