import { BLACK, EMPTY, GoPosition, MAX_BOARD_SIZE, WHITE } from '../../../rules/go/index.js';
import type { Stone } from '../../../rules/go/index.js';
import { GoPositionHasher } from '../../../rules/go/position-key.js';
import { BoardChangesWriter } from '../../../rules/patterns.js';
import { IDENTITY, apply, gridSymmetries, pointImages } from '../../../rules/symmetry.js';
import type { Transform } from '../../../rules/symmetry.js';
import { SymmetricKeys } from '../../../rules/zobrist.js';
import { indexLetter } from '../../syntaxes/sgf/index.js';
import { PASS_POINT, PositionTrackWriter, writeUint16 } from '../positions.js';
import type { IdentityOptions, PositionTrack } from '../positions.js';
import type { GoInterchangeGame, GoInterchangeMove, GoInterchangeSetupPoint } from './interchange.js';
import type { GoColor } from './result.js';

const STONE: Readonly<Record<GoColor | 'empty', number>> = { black: BLACK, white: WHITE, empty: EMPTY };

/** What a Go game's positions are made from: its board, its setup and its moves (the first of each move's `next` continues the main line). */
export type GoTrackGame = Pick<GoInterchangeGame, 'boardWidth' | 'boardHeight' | 'setup' | 'moves'>;

/** A move of a main line, as {@link goLineTrack} reads it. */
export interface GoLineMove {
  readonly color: GoColor | null;
  readonly point: { readonly x: number; readonly y: number } | null;
  /** Points set up just before the move; absent when none. */
  readonly setup?: readonly GoInterchangeSetupPoint[];
  /**
   * What the rules engine found the move did when the format's reading replayed the line already:
   * the points it took (`y * size + x`), or null for an illegal move. Given for every move of a line
   * or for none: given, the track puts the stones down as told instead of playing each move again.
   */
  readonly took?: readonly number[] | null;
}

/** What the track is asked for beside the identity and the board's changes, which are always made. */
export interface GoTrackOptions {
  /**
   * Whether the positions' keys are made (the position index's part of the work); false when only
   * the identity and the pattern rows are kept (no index takes the keys: POSITION_INDEX=false, or positions left out of INDEXES): the entries then hold no keys
   * and are not to be stored.
   */
  readonly keys?: boolean;
}

/**
 * The positions of a Go game's main line (see {@link PositionTrack}): the board after the setup
 * (handicap stones) and after each ply, with the side to move the colour of the line's next move —
 * after the last move the other colour than its. The line is followed up to its first illegal move
 * (the positions after it are no game's); null for a board the rules engine does not play (not
 * square, larger than 25).
 */
export function goPositionTrack(game: GoTrackGame, options: GoTrackOptions = {}): PositionTrack | null {
  const line: GoInterchangeMove[] = [];
  for (let move = game.moves[0]; move !== undefined; move = move.next[0]) line.push(move);
  return goLineTrack(game.boardWidth, game.boardHeight, game.setup, line, options);
}

/** Keys that stand still: the entries of a track asked for without keys (one transform, so the writer takes its quick path). */
const NO_KEYS = new SymmetricKeys([IDENTITY]);

/** {@link goPositionTrack} of a main line given as a list: a format's reading gives its line without building the family's tree. */
export function goLineTrack(size: number, height: number, setup: readonly GoInterchangeSetupPoint[], line: readonly GoLineMove[], options: GoTrackOptions = {}): PositionTrack | null {
  if (size !== height || size < 1 || size > MAX_BOARD_SIZE) return null;
  const position = new GoPosition(size);
  // The board's changes, for pattern search: the point of the ply that led to each position (null a pass).
  const board = new BoardChangesWriter(size, size);
  let played: number | null | undefined;
  // The points changed since the last position besides the ply's own: setup stones and captures
  // (a list kept from ply to ply, emptied by its count: emptying an array is a call of the runtime).
  const changed: number[] = [];
  let changes = 0;
  const hasher = options.keys === false ? null : new GoPositionHasher(size);
  const set = (x: number, y: number, cell: number) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    changed[changes++] = y * size + x;
    position.setStone(x, y, cell as Stone);
    hasher?.set(x, y, cell as Stone);
  };
  for (const point of setup) set(point.x, point.y, STONE[point.cell]);
  const colourOf = (move: GoLineMove | undefined, fallback: Stone): Stone =>
    move?.color === 'white' ? WHITE : move?.color === 'black' ? BLACK : fallback;
  const seatOf = (stone: Stone) => (stone === WHITE ? 1 : 0);
  const first = seatOf(colourOf(line[0], BLACK));
  // Setup inside the line is no ply: such a game gets positions, not an identity.
  const identity = line.some((move) => move.setup && move.setup.length > 0) ? undefined : goIdentityStart(setup, size, first);
  const writer = new PositionTrackWriter('go', line.length, identity);
  // A point's index on the board turned by each transform: images[t * points + index].
  const images = pointImages(size, size, size, 1);
  const points = size * size;
  // The line as the format's replay played it (every move says what it took), or to be played here.
  const replayed = line.length > 0 && line.every((move) => move.took !== undefined);
  // The points played, by ply (-1 a pass), for the Dyer signature.
  const plays: number[] = [];
  let index = 0;
  const encodePlay = (t: Transform, into: Uint8Array) => writeUint16(into, 0, images[t * points + index]);
  const encodePass = (_: Transform, into: Uint8Array) => writeUint16(into, 0, PASS_POINT);
  for (let i = 0; ; i++) {
    const move = line[i];
    // Setup inside the line comes before its move, so it belongs to the position the move is played from.
    if (move?.setup) for (const point of move.setup) set(point.x, point.y, STONE[point.cell]);
    // Not read at -1: an index below zero is a property name to the engine, and one such read made
    // this line's every read a slow one.
    const previous = i > 0 ? line[i - 1] : undefined;
    const toMove = colourOf(move, previous ? (colourOf(previous, BLACK) === BLACK ? WHITE : BLACK) : BLACK);
    if (hasher) {
      hasher.setToMove(toMove);
      writer.position(hasher.keys);
    } else {
      writer.position(NO_KEYS);
    }
    board.observe(position.cells, played, changed, changes);
    changes = 0;
    if (!move) break;
    const point = move.point;
    if (point === null) {
      position.pass();
      played = null;
      writer.move(encodePass, seatOf(toMove));
      plays.push(-1);
      continue;
    }
    const stone = toMove;
    let captured: readonly number[];
    if (replayed) {
      const took = move.took;
      if (!took) break;
      position.setStone(point.x, point.y, stone);
      for (let c = 0; c < took.length; c++) position.setStone(took[c] % size, Math.floor(took[c] / size), EMPTY);
      captured = took;
    } else {
      const outcome = position.play(stone, point.x, point.y);
      if (!outcome.legal) break;
      captured = outcome.captured;
    }
    index = point.y * size + point.x;
    played = index;
    writer.move(encodePlay, seatOf(stone));
    plays.push(index);
    hasher?.play(point.x, point.y, stone, captured);
    for (let c = 0; c < captured.length; c++) changed[changes++] = captured[c];
  }
  return {
    ...writer.finish(identity ? { signature: dyerSignature(plays, size), endedByRule: plays.length >= 2 && plays[plays.length - 1] < 0 && plays[plays.length - 2] < 0 } : undefined),
    board: board.finish(),
  };
}

/** The identity's start of a Go game: the board's size, then its setup stones, each `index * 4 + colour` counted from the first mover, in order. */
function goIdentityStart(setup: readonly GoInterchangeSetupPoint[], size: number, first: number): IdentityOptions {
  const stones = setup.filter((point) => point.cell !== 'empty' && point.x >= 0 && point.y >= 0 && point.x < size && point.y < size);
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
 * The Dyer signature of a game's moves (each the point's index `y * size + x`, -1 a pass): the
 * points of moves 20, 31, 40, 51, 60 and 71 in SGF letters, a pass or a move past the end written
 * `__`, the least such string over the board's eight symmetries. Null for a game of fewer than 20 moves.
 */
export function dyerSignature(plays: readonly number[], size: number): string | null {
  if (plays.length < SIGNATURE_MOVES[0]) return null;
  let least: string | null = null;
  for (const t of gridSymmetries(size, size)) {
    const text = SIGNATURE_MOVES.map((n) => {
      const point = plays[n - 1];
      if (point === undefined || point < 0) return '__';
      const [x, y] = apply(t, point % size, Math.floor(point / size), size, size);
      return `${indexLetter(x)}${indexLetter(y)}`;
    }).join('');
    if (least === null || text < least) least = text;
  }
  return least;
}
