import { BLACK, EMPTY, GoPosition, MAX_BOARD_SIZE, WHITE } from '../../../rules/go/index.js';
import type { Stone } from '../../../rules/go/index.js';
import { GoPositionHasher } from '../../../rules/go/position-key.js';
import { BoardChangesWriter } from '../../../rules/patterns.js';
import { apply, gridSymmetries } from '../../../rules/symmetry.js';
import { indexLetter } from '../../syntaxes/sgf/index.js';
import { PASS_POINT, PositionTrackWriter, writeUint16 } from '../positions.js';
import type { IdentityOptions, PositionTrack } from '../positions.js';
import type { GoInterchangeGame, GoInterchangeMove } from './interchange.js';
import type { GoColor } from './result.js';

const STONE: Readonly<Record<GoColor | 'empty', number>> = { black: BLACK, white: WHITE, empty: EMPTY };

/**
 * The positions of a Go game's main line (see {@link PositionTrack}): the board after the setup
 * (handicap stones) and after each ply, with the side to move the colour of the line's next move —
 * after the last move the other colour than its. The line is followed up to its first illegal move
 * (the positions after it are no game's); null for a board the rules engine does not play (not
 * square, larger than 25).
 */
export function goPositionTrack(game: GoInterchangeGame): PositionTrack | null {
  const size = game.boardWidth;
  if (size !== game.boardHeight || size < 1 || size > MAX_BOARD_SIZE) return null;
  const line: GoInterchangeMove[] = [];
  for (let move = game.moves[0]; move !== undefined; move = move.next[0]) line.push(move);
  const position = new GoPosition(size);
  // The board's changes, for pattern search: the point of the ply that led to each position (null a pass).
  const board = new BoardChangesWriter(size, size);
  let played: number | null | undefined;
  // The points changed since the last position besides the ply's own: setup stones and captures.
  const changed: number[] = [];
  const hasher = new GoPositionHasher(size);
  const set = (x: number, y: number, cell: number) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    changed.push(y * size + x);
    position.setStone(x, y, cell as Stone);
    hasher.set(x, y, cell as Stone);
  };
  for (const point of game.setup) set(point.x, point.y, STONE[point.cell]);
  const colourOf = (move: GoInterchangeMove | undefined, fallback: Stone): Stone =>
    move?.color === 'white' ? WHITE : move?.color === 'black' ? BLACK : fallback;
  const seatOf = (stone: Stone) => (stone === WHITE ? 1 : 0);
  const first = seatOf(colourOf(line[0], BLACK));
  // Setup inside the line is no ply: such a game gets positions, not an identity.
  const identity = line.some((move) => move.setup && move.setup.length > 0) ? undefined : goIdentityStart(game, size, first);
  const writer = new PositionTrackWriter('go', line.length, identity);
  const points: (readonly [number, number] | null)[] = [];
  for (let i = 0; ; i++) {
    const move = line[i];
    // Setup inside the line comes before its move, so it belongs to the position the move is played from.
    if (move?.setup) for (const point of move.setup) set(point.x, point.y, STONE[point.cell]);
    const previous = line[i - 1];
    const toMove = colourOf(move, previous ? (colourOf(previous, BLACK) === BLACK ? WHITE : BLACK) : BLACK);
    hasher.setToMove(toMove);
    writer.position(hasher.keys);
    board.observe(position.cells, played, changed);
    changed.length = 0;
    if (!move) break;
    const point = move.point;
    if (point === null) {
      position.pass();
      played = null;
      writer.move((_, into) => writeUint16(into, 0, PASS_POINT), seatOf(toMove));
      points.push(null);
      continue;
    }
    const stone = colourOf(move, toMove);
    const outcome = position.play(stone, point.x, point.y);
    if (!outcome.legal) break;
    played = point.y * size + point.x;
    writer.move((t, into) => {
      const [x, y] = apply(t, point.x, point.y, size, size);
      writeUint16(into, 0, y * size + x);
    }, seatOf(stone));
    points.push([point.x, point.y]);
    hasher.play(point.x, point.y, stone, outcome.captured);
    for (let c = 0; c < outcome.captured.length; c++) changed.push(outcome.captured[c]);
  }
  return { ...writer.finish(identity ? { signature: dyerSignature(points, size), endedByRule: points.length >= 2 && points[points.length - 1] === null && points[points.length - 2] === null } : undefined), board: board.finish() };
}

/** The identity's start of a Go game: the board's size, then its setup stones, each `index * 4 + colour` counted from the first mover, in order. */
function goIdentityStart(game: GoInterchangeGame, size: number, first: number): IdentityOptions {
  const stones = game.setup.filter((point) => point.cell !== 'empty' && point.x >= 0 && point.y >= 0 && point.x < size && point.y < size);
  return {
    transforms: gridSymmetries(size, size),
    seats: { first, count: 2 },
    start: (t) => {
      const codes = stones
        .map((point) => {
          const [x, y] = apply(t, point.x, point.y, size, size);
          return ((y * size + x) << 2) | ((point.cell === 'white' ? 1 : 0) === first ? 0 : 1);
        })
        .sort((a, b) => a - b);
      const bytes = new Uint8Array(3 + codes.length * 2);
      bytes[0] = size;
      writeUint16(bytes, 1, codes.length);
      codes.forEach((code, i) => writeUint16(bytes, 3 + i * 2, code));
      return bytes;
    },
  };
}

/** The moves a Dyer signature is made of (counted from 1, passes included). */
const SIGNATURE_MOVES = [20, 31, 40, 51, 60, 71];

/**
 * The Dyer signature of a game's moves (`null` a pass): the points of moves 20, 31, 40, 51, 60 and
 * 71 in SGF letters, a pass or a move past the end written `__`, the least such string over the
 * board's eight symmetries. Null for a game of fewer than 20 moves.
 */
export function dyerSignature(points: readonly (readonly [number, number] | null)[], size: number): string | null {
  if (points.length < SIGNATURE_MOVES[0]) return null;
  let least: string | null = null;
  for (const t of gridSymmetries(size, size)) {
    const text = SIGNATURE_MOVES.map((n) => {
      const point = points[n - 1];
      if (!point) return '__';
      const [x, y] = apply(t, point[0], point[1], size, size);
      return `${indexLetter(x)}${indexLetter(y)}`;
    }).join('');
    if (least === null || text < least) least = text;
  }
  return least;
}
