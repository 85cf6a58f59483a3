import { Transform, apply, gridSymmetries, pointImages } from '../symmetry.js';
import { CanonicalKey, DOTS_VALUES, PositionKeys, SymmetricKeys, zobristTable, zobristValue } from '../zobrist.js';
import { EMPTY } from './board.js';
import { MAX_SIDE, MIN_SIDE } from './field.js';
import type { DotsGame, PlayOutcome } from './game.js';

/**
 * Position keys of Dots (see `src/rules/zobrist.ts` and docs/positions.md). A position is, for every
 * point of the field, whose dot stands on it (if any) and who has enclosed it (if anyone) — so the
 * live dots of each player, the captured dots and who captured them, the empty points inside a
 * player's surround — and the seat to move; the scores follow from the board and are left out.
 * Fields of W×H points have the symmetries of their grid: 8 when square, 4 otherwise.
 *
 * A point's state is `owner · 5 + captor` with `owner` 0 (no dot) or seat + 1, and `captor` 0 or the
 * enclosing seat + 1, as in {@link DotsBoard}; state 0 (a free empty point) has no value. Points are
 * given by row and column as in the engine: column is the symmetry's x, row its y.
 *
 * The generator's values for Dots, from {@link DOTS_VALUES} on: state s on (row, col) is value
 * `(row · 50 + col) · 24 + s - 1`; seat k to move (k ≥ 1) is value 60000 + k; the field's size and
 * player count add value 60004 + (players · 64 + height) · 64 + width.
 */
const STATES = 24;
const STRIDE = MAX_SIDE;
const TO_MOVE = MAX_SIDE * MAX_SIDE * STATES;
const SIZE_VALUES = TO_MOVE + 4;

let table: { readonly hi: Int32Array; readonly lo: Int32Array } | null = null;

/** The values of point states and of seats to move, made on first use (60,004 values, 480 kB). */
function values(): { readonly hi: Int32Array; readonly lo: Int32Array } {
  return (table ??= zobristTable(DOTS_VALUES, TO_MOVE + 4));
}

/** A Dots position for its key, without the engine: row-major `width · height` points. */
export interface DotsKeyPosition {
  readonly width: number;
  readonly height: number;
  /** 2 to 4. */
  readonly players: number;
  /** Per point: 0, or the seat + 1 whose dot stands there. */
  readonly owner: ArrayLike<number>;
  /** Per point: 0, or the seat + 1 who has enclosed it (a captured dot, an empty point in a surround). */
  readonly captor: ArrayLike<number>;
  /** The seat to move, 0-based. */
  readonly toMove: number;
}

function checkField(width: number, height: number, players: number): void {
  for (const [name, side] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(side) || side < MIN_SIDE || side > MAX_SIDE) throw new RangeError(`a Dots field's ${name} must be ${MIN_SIDE} to ${MAX_SIDE}, got ${side}`);
  }
  if (!Number.isInteger(players) || players < 2 || players > 4) throw new RangeError(`a Dots game has 2 to 4 players, got ${players}`);
}

function stateOf(owner: number, captor: number, players: number): number {
  if (!Number.isInteger(owner) || owner < 0 || owner > players || !Number.isInteger(captor) || captor < 0 || captor > players) {
    throw new RangeError(`a point with owner ${owner} and captor ${captor} in a ${players}-player game`);
  }
  return owner * 5 + captor;
}

/** The board of a game as a {@link DotsKeyPosition} (copies the engine's padded arrays to row-major ones). */
export function dotsGamePosition(game: DotsGame): DotsKeyPosition {
  const { field, board, rules } = game;
  const owner = new Uint8Array(field.width * field.height);
  const captor = new Uint8Array(field.width * field.height);
  for (let row = 0; row < field.height; row++) {
    for (let col = 0; col < field.width; col++) {
      const p = field.point(row, col);
      owner[row * field.width + col] = board.owner[p];
      captor[row * field.width + col] = board.captor[p];
    }
  }
  return { width: field.width, height: field.height, players: rules.players, owner, captor, toMove: game.toMove };
}

/**
 * The keys of a position computed from nothing but the position (each point's value at its image
 * under each symmetry, XORed): for positions typed in by hand and for the tests. A replay keeps a
 * {@link DotsPositionHasher}, which gives the same keys.
 */
export function dotsPositionKeys(position: DotsKeyPosition): PositionKeys {
  const { width, height, players, owner, captor } = position;
  checkField(width, height, players);
  if (owner.length !== width * height || captor.length !== width * height) throw new RangeError(`a ${width}x${height} field has ${width * height} points`);
  const { hi, lo } = values();
  const keys = new SymmetricKeys(gridSymmetries(width, height));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const state = stateOf(owner[row * width + col], captor[row * width + col], players);
      if (state === 0) continue;
      for (const t of keys.transforms) {
        const [x, y] = apply(t, col, row, width, height);
        const value = (y * STRIDE + x) * STATES + state - 1;
        keys.hi[t] ^= hi[value];
        keys.lo[t] ^= lo[value];
      }
    }
  }
  invariants(keys, width, height, players);
  toggleSeat(keys, checkSeat(position.toMove, players));
  return keys.keys();
}

function checkSeat(seat: number, players: number): number {
  if (!Number.isInteger(seat) || seat < 0 || seat >= players) throw new RangeError(`no seat ${seat} in a ${players}-player game`);
  return seat;
}

function invariants(keys: SymmetricKeys, width: number, height: number, players: number): void {
  const [sizeHi, sizeLo] = zobristValue(DOTS_VALUES + SIZE_VALUES + (players * 64 + height) * 64 + width);
  keys.toggleInvariant(sizeHi, sizeLo);
}

/** XORs "seat to move" (nothing for seat 0) into every key. */
function toggleSeat(keys: SymmetricKeys, seat: number): void {
  if (seat === 0) return;
  const { hi, lo } = values();
  keys.toggleInvariant(hi[TO_MOVE + seat], lo[TO_MOVE + seat]);
}

/**
 * The keys of a Dots position kept up to date move by move, by XOR, for all the field's symmetries.
 * It holds its own copy of every point's owner and captor, so it is told a point's new state only.
 * After a move of a {@link DotsGame}, {@link followMove} brings it up to date from the engine's
 * board: the new dot, and for each surround the points inside the surround's chain (the only ones
 * a capture changes).
 *
 * Starts as an empty field with seat 0 to move.
 */
export class DotsPositionHasher {
  readonly width: number;
  readonly height: number;
  readonly players: number;
  readonly transforms: readonly Transform[];
  /** Per point (row-major): 0 or seat + 1, as the hasher knows it. */
  readonly owner: Uint8Array;
  /** Per point (row-major): 0 or the enclosing seat + 1. */
  readonly captor: Uint8Array;
  /** The position's keys under each of the board's symmetries (read them; the hasher keeps them). */
  readonly keys: SymmetricKeys;
  private readonly images: Int32Array;
  private readonly valueHi: Int32Array;
  private readonly valueLo: Int32Array;
  private seat = 0;

  constructor(width: number, height: number, players: number) {
    checkField(width, height, players);
    this.width = width;
    this.height = height;
    this.players = players;
    this.owner = new Uint8Array(width * height);
    this.captor = new Uint8Array(width * height);
    this.transforms = gridSymmetries(width, height);
    this.keys = new SymmetricKeys(this.transforms);
    this.images = pointImages(width, height, STRIDE, STATES);
    const { hi, lo } = values();
    this.valueHi = hi;
    this.valueLo = lo;
    invariants(this.keys, width, height, players);
  }

  /** A hasher set to the position of a game as it stands. */
  static ofGame(game: DotsGame): DotsPositionHasher {
    const hasher = new DotsPositionHasher(game.field.width, game.field.height, game.rules.players);
    hasher.sync(game);
    return hasher;
  }

  get toMove(): number {
    return this.seat;
  }

  setToMove(seat: number): void {
    checkSeat(seat, this.players);
    if (seat === this.seat) return;
    toggleSeat(this.keys, this.seat);
    toggleSeat(this.keys, seat);
    this.seat = seat;
  }

  /** The point (row, col) now has this owner (0 or seat + 1) and captor (0 or seat + 1). */
  set(row: number, col: number, owner: number, captor: number): void {
    const point = row * this.width + col;
    const before = this.owner[point] * 5 + this.captor[point];
    const after = stateOf(owner, captor, this.players);
    if (before === after) return;
    if (before !== 0) this.toggle(point, before);
    if (after !== 0) this.toggle(point, after);
    this.owner[point] = owner;
    this.captor[point] = captor;
  }

  /**
   * Brings the hasher up to date after `game` placed a dot on (row, col) (by `play` or `place`) and
   * answered `outcome`: the dot, the points inside each surround's chain, the seat to move.
   */
  followMove(game: DotsGame, row: number, col: number, outcome: PlayOutcome): void {
    if (outcome.legal) {
      this.syncPoint(game, row, col);
      for (const surround of outcome.surrounds) {
        const chain = surround.chain;
        if (chain.length === 0) {
          this.syncRows(game, 0, this.height - 1, 0, this.width - 1);
          continue;
        }
        let top = chain[0].row;
        let bottom = top;
        let left = chain[0].col;
        let right = left;
        for (const cell of chain) {
          if (cell.row < top) top = cell.row;
          if (cell.row > bottom) bottom = cell.row;
          if (cell.col < left) left = cell.col;
          if (cell.col > right) right = cell.col;
        }
        this.syncRows(game, top, bottom, left, right);
      }
    }
    this.setToMove(game.toMove);
  }

  /** Brings every point and the seat to move up to date from the game's board (a setup, a position built by hand). */
  sync(game: DotsGame): void {
    if (game.field.width !== this.width || game.field.height !== this.height || game.rules.players !== this.players) {
      throw new RangeError(`a ${game.field.width}x${game.field.height} game of ${game.rules.players} followed by a hasher of ${this.width}x${this.height}, ${this.players} players`);
    }
    this.syncRows(game, 0, this.height - 1, 0, this.width - 1);
    this.setToMove(game.toMove);
  }

  /** Sets every point and the seat to move from a whole position. */
  load(position: DotsKeyPosition): void {
    if (position.width !== this.width || position.height !== this.height || position.players !== this.players) {
      throw new RangeError(`a ${position.width}x${position.height} position of ${position.players} players loaded into a hasher of ${this.width}x${this.height}, ${this.players}`);
    }
    for (let row = 0; row < this.height; row++) {
      for (let col = 0; col < this.width; col++) this.set(row, col, position.owner[row * this.width + col], position.captor[row * this.width + col]);
    }
    this.setToMove(position.toMove);
  }

  key(transform: Transform = 0): bigint | null {
    return this.keys.key(transform);
  }

  canonical(): CanonicalKey {
    return this.keys.canonical();
  }

  /** The transforms that reach the canonical key (several for a symmetric position), lowest id first. */
  leastTransforms(): Transform[] {
    return this.keys.leastTransforms();
  }

  /** The same answer as {@link dotsPositionKeys} for the position the hasher holds. */
  positionKeys(): PositionKeys {
    return this.keys.keys();
  }

  private syncRows(game: DotsGame, top: number, bottom: number, left: number, right: number): void {
    for (let row = top; row <= bottom; row++) {
      for (let col = left; col <= right; col++) this.syncPoint(game, row, col);
    }
  }

  private syncPoint(game: DotsGame, row: number, col: number): void {
    const p = game.field.point(row, col);
    const owner = game.board.owner[p];
    this.set(row, col, owner === EMPTY ? 0 : owner, game.board.captor[p]);
  }

  private toggle(point: number, state: number): void {
    this.keys.togglePoint(this.images, this.owner.length, point, state - 1, this.valueHi, this.valueLo);
  }
}
