import { apply } from '../../rules/symmetry.js';
import type { Transform } from '../../rules/symmetry.js';
import type { Family, InterchangeGame, PositionTrack } from '../plugin.js';
import { indexLetter } from '../syntaxes/sgf/index.js';
import { squareName } from './checkers/notation.js';
import { goCoordinate } from './go/index.js';
import { PASS_POINT, POSITION_MOVES } from './positions.js';
import { checkersPositionTrack } from './checkers/positions.js';
import type { CheckersInterchange } from './checkers/interchange.js';
import { dotsPositionTrack } from './dots/positions.js';
import type { DotsInterchangeGame } from './dots/interchange.js';
import { goPositionTrack } from './go/positions.js';
import type { GoTrackOptions } from './go/positions.js';
import type { GoInterchangeGame } from './go/interchange.js';

/**
 * The positions of a game of the family's plain model (see each family's `positions.ts`); null where
 * the family keeps none. `keys: false` spares Go its keys; the other families make them anyway (Dots'
 * pattern rows read the hasher's board, a draughts identity starts with the first position's key).
 * `board` asks draughts for its squares too (`checkers/board-masks.ts`).
 */
export function positionTrackOf(game: InterchangeGame, options: GoTrackOptions & { readonly board?: boolean } = {}): PositionTrack | null {
  switch (game.family) {
    case 'go':
      return goPositionTrack(game as GoInterchangeGame, options);
    case 'checkers':
      return checkersPositionTrack(game as CheckersInterchange, { board: options.board });
    case 'dots':
      return dotsPositionTrack(game as DotsInterchangeGame);
    default:
      return null;
  }
}

/**
 * A move of an entry (its bytes after the key and the transform byte, in the canonical orientation)
 * read back, turned by `back` onto a board of `width` × `height`: `move` as machines write it (SGF
 * letters, `""` a pass; PDN squares `c3-d4`, `c3:e5:g3`; peg `x,y-x,y`), `notation` as players do
 * (`Q16`, `pass`). Peg jumps are in the slots' bounding box, which `width` and `height` then are.
 */
export function readPositionMove(family: Family, bytes: Uint8Array, back: Transform, width: number, height: number): { move: string; notation: string } {
  const point = (x: number, y: number) => apply(back, x, y, width, height);
  const uint16 = (at: number) => (bytes[at] << 8) | bytes[at + 1];
  switch (family) {
    case 'go':
    case 'dots': {
      const index = uint16(0);
      if (index === PASS_POINT) return { move: '', notation: family === 'go' ? 'pass' : 'pass or grounding' };
      const [x, y] = point(index % width, Math.floor(index / width));
      const letters = `${indexLetter(x)}${indexLetter(y)}`;
      return { move: letters, notation: family === 'go' ? (goCoordinate({ x, y }, height) ?? letters) : letters };
    }
    case 'checkers': {
      const count = bytes[0] & 0x7f;
      const squares = [...bytes.subarray(1, 1 + Math.min(count, POSITION_MOVES.checkers - 1))].map(squareName);
      const text = squares.join(bytes[0] & 0x80 ? ':' : '-');
      return { move: text, notation: text };
    }
    case 'peg-solitaire': {
      const [x1, y1, x2, y2] = [0, 2, 4, 6].map(uint16);
      const text = `${point(x1, y1).join(',')}-${point(x2, y2).join(',')}`;
      return { move: text, notation: text };
    }
  }
}
