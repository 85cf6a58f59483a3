import { FormatError } from '../../../core/errors.js';
import { locate } from '../../text/decode.js';
import { Position } from '../../../rules/checkers/position.js';
import { BLACK_KING, BLACK_MAN, Colour, Piece, WHITE_KING, WHITE_MAN } from '../../../rules/checkers/pieces.js';
import { BOARD_SIZE, Square, columnOf, rowOf, squareAt } from '../../../rules/checkers/squares.js';
import { parseSquareName, squareName } from './notation.js';

/**
 * Russian-draughts positions written as PDN writes them: the 32 dark squares numbered row by row
 * from black's side, left to right (1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1), and FEN setups
 * `W:W21,22,K30:B1-3` (squares by number or by name). The PDN plugin reads FEN tags with it, and a
 * search by position reads the FEN a client writes.
 */

export const NUMBERED_SQUARES = 32;

export function squareOfNumber(n: number): Square | undefined {
  if (!Number.isInteger(n) || n < 1 || n > NUMBERED_SQUARES) return undefined;
  const row = Math.floor((n - 1) / 4);
  const column = 2 * ((n - 1) % 4) + (row % 2 === 0 ? 1 : 0);
  return squareAt(row, column);
}

export function numberOfSquare(square: Square): number {
  return rowOf(square) * 4 + Math.floor(columnOf(square) / 2) + 1;
}

/**
 * The position of a FEN tag value: the side to move (`W`/`B`), then each colour's squares after its
 * letter, comma-separated, a king marked `K`, numbers or names, number ranges `1-12`; an optional
 * final `.`. `valueOffset` is where the value starts in the text, for errors.
 */
export function positionFromFen(fen: string, text: string, valueOffset: number): Position {
  const fail = (message: string, at: number) => FormatError.at(`FEN "${fen}": ${message}`, locate(text, valueOffset + at));
  const body = fen.replace(/\.\s*$/, '');
  const fields = body.split(':');
  const turn = fields[0].trim().toUpperCase();
  if (turn !== 'W' && turn !== 'B') throw fail('expected W or B (the side to move) first', 0);
  const cells = new Map<Square, Piece>();
  let at = fields[0].length + 1;
  for (const field of fields.slice(1)) {
    const colourLetter = field.trim()[0]?.toUpperCase();
    if (colourLetter !== 'W' && colourLetter !== 'B') throw fail('each side starts with W or B', at);
    const colour: Colour = colourLetter === 'W' ? 'white' : 'black';
    let entryAt = at + field.indexOf(field.trim()) + 1;
    for (const entry of field.trim().slice(1).split(',')) {
      const trimmed = entry.trim();
      if (trimmed !== '') {
        for (const [square, king] of fenSquares(trimmed, (message) => fail(message, entryAt))) {
          if (cells.has(square)) throw fail(`${squareName(square)} is given twice`, entryAt);
          const man = colour === 'white' ? WHITE_MAN : BLACK_MAN;
          if (!king && rowOf(square) === (colour === 'white' ? 0 : BOARD_SIZE - 1)) {
            throw fail(`a ${colour} man on ${squareName(square)} would already be a king`, entryAt);
          }
          cells.set(square, king ? (colour === 'white' ? WHITE_KING : BLACK_KING) : man);
        }
      }
      entryAt += entry.length + 1;
    }
    at += field.length + 1;
  }
  return Position.of(cells, turn === 'W' ? 'white' : 'black');
}

function fenSquares(entry: string, fail: (message: string) => FormatError): [Square, boolean][] {
  const king = /^K/i.test(entry);
  const name = king ? entry.slice(1).trim() : entry;
  const range = /^([0-9]{1,2})-([0-9]{1,2})$/.exec(name);
  if (range) {
    const [low, high] = [Number(range[1]), Number(range[2])];
    if (low > high || squareOfNumber(low) === undefined || squareOfNumber(high) === undefined) throw fail(`"${entry}" is not a range of squares 1-32`);
    return Array.from({ length: high - low + 1 }, (_, i) => [squareOfNumber(low + i) as Square, king]);
  }
  const square = /^[0-9]{1,2}$/.test(name) ? squareOfNumber(Number(name)) : parseSquareName(name.toLowerCase());
  if (square === undefined) throw fail(`"${entry}" is not a square of the 8x8 board (1-32 or a1-h8 dark)`);
  if (((rowOf(square) + columnOf(square)) & 1) === 0) throw fail(`${name} is a light square`);
  return [[square, king]];
}

