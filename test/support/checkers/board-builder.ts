import { Position } from '../../../src/rules/checkers/position.js';
import { BLACK_KING, BLACK_MAN, Colour, Piece, WHITE_KING, WHITE_MAN } from '../../../src/rules/checkers/pieces.js';
import type { Square } from '../../../src/rules/checkers/squares.js';
import { parseSquareName } from '../../../src/formats/families/checkers/notation.js';

/**
 * Builds a position from square lists, a king marked with a leading `K`:
 * `boardOf({ white: ['c3', 'Ke1'], black: ['d4'] }, 'white')`.
 */
export function boardOf(pieces: { white?: readonly string[]; black?: readonly string[] }, toMove: Colour): Position {
  const placed: [Square, Piece][] = [];
  for (const [colour, names] of [['white', pieces.white ?? []], ['black', pieces.black ?? []]] as const) {
    for (const name of names) {
      const king = name.startsWith('K');
      const square = sq(king ? name.slice(1) : name);
      const piece = colour === 'white' ? (king ? WHITE_KING : WHITE_MAN) : king ? BLACK_KING : BLACK_MAN;
      placed.push([square, piece]);
    }
  }
  return Position.of(placed, toMove);
}

/** The square of a name such as `g3`; throws on a typo so tests fail loudly. */
export function sq(name: string): Square {
  const square = parseSquareName(name);
  if (square === undefined) throw new Error(`not a square: ${name}`);
  return square;
}
