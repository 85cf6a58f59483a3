import { FormatError } from '../../../core/errors.js';
import { locate } from '../../text/decode.js';
import { Position } from '../../../rules/checkers/position.js';
import { BLACK_KING, BLACK_MAN, Colour, Piece, WHITE_KING, WHITE_MAN } from '../../../rules/checkers/pieces.js';
import { BOARD_SIZE, Square, columnOf, rowOf, squareAt } from '../../../rules/checkers/squares.js';
import { parseSquareName, squareName } from '../../families/checkers/notation.js';

/**
 * PDN notation for Russian draughts (GameType 25): squares by name (`c3`) or by number, the 32 dark
 * squares numbered row by row from black's side, left to right (1 = b8, 4 = h8, 5 = a7, 29 = a1,
 * 32 = g1); moves `from-to` (quiet) or `from:to` / `fromxto` (captures, with any of the landings
 * between); FEN setups `W:W21,22,K30:B1-3`.
 */

export const NUMBERED_SQUARES = 32;

export type SquareStyle = 'algebraic' | 'numeric';

export function squareOfNumber(n: number): Square | undefined {
  if (!Number.isInteger(n) || n < 1 || n > NUMBERED_SQUARES) return undefined;
  const row = Math.floor((n - 1) / 4);
  const column = 2 * ((n - 1) % 4) + (row % 2 === 0 ? 1 : 0);
  return squareAt(row, column);
}

export function numberOfSquare(square: Square): number {
  return rowOf(square) * 4 + Math.floor(columnOf(square) / 2) + 1;
}

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
