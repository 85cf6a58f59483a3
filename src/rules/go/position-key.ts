import { Transform, apply, gridSymmetries, pointImages } from '../symmetry.js';
import { CanonicalKey, GO_VALUES, PositionKeys, SymmetricKeys, zobristTable, zobristValue } from '../zobrist.js';
import { BLACK, Cell, EMPTY, Stone, WHITE } from './types.js';

/**
 * Position keys of Go (see `src/rules/zobrist.ts` and docs/positions.md): a position is the stones
 * on the board and the side to move; prisoners and ko are left out, so the same stones reached by
 * another move order, or with other captures on the way, are the same position. Keys are given for
 * each of the board's eight symmetries, and the canonical key is the least of them.
 *
 * Boards are square, of side 1 … {@link MAX_KEYED_SIZE} (SGF's letters reach 52; the rules engine
 * replays up to 25), points `y * size + x` as in {@link GoPosition.cells}.
 *
 * The generator's values for Go, from {@link GO_VALUES} on: a stone of colour c (1 black, 2 white)
 * on (x, y) is value `(y · 52 + x) · 2 + c - 1`; white to move is value 5408; a board of side s
 * adds value 5409 + s (so two boards of different sizes never share a key by their stones alone).
 */
export const MAX_KEYED_SIZE = 52;

const STRIDE = MAX_KEYED_SIZE;
const WHITE_TO_MOVE = MAX_KEYED_SIZE * MAX_KEYED_SIZE * 2;
const SIZE_VALUES = WHITE_TO_MOVE + 1;

let table: { readonly hi: Int32Array; readonly lo: Int32Array } | null = null;

/** The values of stones and of white to move, made on first use (5,409 values, 43 kB). */
function values(): { readonly hi: Int32Array; readonly lo: Int32Array } {
  return (table ??= zobristTable(GO_VALUES, WHITE_TO_MOVE + 1));
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 1 || size > MAX_KEYED_SIZE) throw new RangeError(`a Go board's side must be 1 to ${MAX_KEYED_SIZE}, got ${size}`);
}

/** What a Go position is for its key: a square board of cells (0 empty, 1 black, 2 white), row-major. */
export interface GoBoardView {
  readonly size: number;
  /** `y * size + x` → 0, 1 (black) or 2 (white); a {@link GoPosition} is one. */
  readonly cells: ArrayLike<number>;
}

/**
 * The keys of a position computed from nothing but the position: every stone's value at its image
 * under each symmetry, XORed. Used for positions typed in by hand and by the tests; a replay keeps a
 * {@link GoPositionHasher} instead, which gives the same keys.
 */
export function goPositionKeys(board: GoBoardView, toMove: Stone): PositionKeys {
  const { size, cells } = board;
  checkSize(size);
  if (cells.length !== size * size) throw new RangeError(`a ${size}x${size} board has ${size * size} points, got ${cells.length}`);
  const { hi, lo } = values();
  const keys = new SymmetricKeys(gridSymmetries(size, size));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cell = cells[y * size + x];
      if (cell === EMPTY) continue;
      if (cell !== BLACK && cell !== WHITE) throw new RangeError(`point (${x}, ${y}) holds ${cell}: expected 0, 1 or 2`);
      for (const t of keys.transforms) {
        const [tx, ty] = apply(t, x, y, size, size);
        const value = (ty * STRIDE + tx) * 2 + cell - 1;
        keys.hi[t] ^= hi[value];
        keys.lo[t] ^= lo[value];
      }
    }
  }
  invariants(keys, size, toMove);
  return keys.keys();
}

/** The facts no symmetry moves: the board's size and the side to move. */
function invariants(keys: SymmetricKeys, size: number, toMove: Stone): void {
  const [sizeHi, sizeLo] = zobristValue(GO_VALUES + SIZE_VALUES + size);
  keys.toggleInvariant(sizeHi, sizeLo);
  if (toMove === WHITE) {
    const { hi, lo } = values();
    keys.toggleInvariant(hi[WHITE_TO_MOVE], lo[WHITE_TO_MOVE]);
  }
}

/**
 * The keys of a Go position kept up to date move by move: tell it what changes on the board
 * ({@link set}, or {@link play} with the captures the engine reports) and whose turn it is, and it
 * keeps the keys of all eight turned boards by XOR (tens of nanoseconds per stone). It holds its own
 * copy of the cells, so a point is always told its new content, never the old.
 *
 * Starts as an empty board with black to move.
 */
export class GoPositionHasher {
  readonly size: number;
  /** The board as the hasher knows it: `y * size + x` → 0, 1 or 2. */
  readonly cells: Uint8Array;
  readonly transforms: readonly Transform[];
  /** The position's keys under each of the board's symmetries (read them; the hasher keeps them). */
  readonly keys: SymmetricKeys;
  private readonly images: Int32Array;
  private readonly valueHi: Int32Array;
  private readonly valueLo: Int32Array;
  private side: Stone = BLACK;

  constructor(size: number) {
    checkSize(size);
    this.size = size;
    this.cells = new Uint8Array(size * size);
    this.transforms = gridSymmetries(size, size);
    this.keys = new SymmetricKeys(this.transforms);
    this.images = pointImages(size, size, STRIDE, 2);
    const { hi, lo } = values();
    this.valueHi = hi;
    this.valueLo = lo;
    invariants(this.keys, size, BLACK);
  }

  /** A hasher set to a whole position (a setup, a position typed in by hand). */
  static of(board: GoBoardView, toMove: Stone): GoPositionHasher {
    const hasher = new GoPositionHasher(board.size);
    hasher.load(board, toMove);
    return hasher;
  }

  get toMove(): Stone {
    return this.side;
  }

  /** Whose turn it is; changes the keys only when it changes. */
  setToMove(stone: Stone): void {
    if (stone === this.side) return;
    this.side = stone;
    const { valueHi, valueLo } = this;
    this.keys.toggleInvariant(valueHi[WHITE_TO_MOVE], valueLo[WHITE_TO_MOVE]);
  }

  at(x: number, y: number): Cell {
    return this.cells[y * this.size + x] as Cell;
  }

  /** Point (x, y) now holds `cell` (a stone placed, removed or replaced). */
  set(x: number, y: number, cell: Cell): void {
    this.setPoint(y * this.size + x, cell);
  }

  /** {@link set} by point index `y * size + x`. */
  setPoint(point: number, cell: Cell): void {
    const old = this.cells[point];
    if (old === cell) return;
    if (old !== EMPTY) this.toggle(point, old);
    if (cell !== EMPTY) this.toggle(point, cell);
    this.cells[point] = cell;
  }

  /**
   * A legal move as {@link GoPosition.play} made it: `stone` placed on (x, y), the points of
   * `captured` (indices `y * size + x`, the engine's) emptied, and the opponent to move.
   */
  play(x: number, y: number, stone: Stone, captured: readonly number[]): void {
    this.setPoint(y * this.size + x, stone);
    for (let i = 0; i < captured.length; i++) this.setPoint(captured[i], EMPTY);
    this.setToMove(stone === BLACK ? WHITE : BLACK);
  }

  /** Sets every point and the side to move from a whole position. */
  load(board: GoBoardView, toMove: Stone): void {
    if (board.size !== this.size) throw new RangeError(`a ${board.size}x${board.size} board loaded into a hasher of ${this.size}x${this.size}`);
    for (let p = 0; p < this.cells.length; p++) this.setPoint(p, board.cells[p] as Cell);
    this.setToMove(toMove);
  }

  /** The key of the position turned by `transform` (as it stands by default). */
  key(transform: Transform = 0): bigint {
    return this.keys.key(transform)!;
  }

  canonical(): CanonicalKey {
    return this.keys.canonical();
  }

  /** The transforms that reach the canonical key (several for a symmetric position), lowest id first. */
  leastTransforms(): Transform[] {
    return this.keys.leastTransforms();
  }

  /** The same answer as {@link goPositionKeys} for the position the hasher holds. */
  positionKeys(): PositionKeys {
    return this.keys.keys();
  }

  private toggle(point: number, stone: number): void {
    this.keys.togglePoint(this.images, this.cells.length, point, stone - 1, this.valueHi, this.valueLo);
  }
}
