import { IDENTITY, Transform, apply, gridSymmetries } from '../symmetry.js';
import { CanonicalKey, PEG_VALUES, PositionKeys, SymmetricKeys, zobristValue } from '../zobrist.js';
import { Board, Point, STONE_COLOURS, StoneColour } from './board.js';

/**
 * Position keys of peg solitaire (see `src/rules/zobrist.ts` and docs/positions.md). A position is the
 * board: its layout (which cells are slots, which slots are targets, the move mode) and which slots
 * hold a stone of which colour. There is no side to move. The layout is part of the key, so the same
 * stones on two different boards are two positions.
 *
 * Coordinates are taken from the slots' bounding box (its top-left slot column and row are 0), so
 * locked margins around a board change nothing. The board's symmetries are those of the eight grid
 * transforms (four when the box is not square) that map the slots onto the slots and the targets
 * onto the targets: all eight for the English cross, maybe only the identity for an irregular board.
 * Such a transform maps jumps to jumps in both modes (see `symmetry.ts` beside this file).
 *
 * The generator's values, made one at a time from {@link PEG_VALUES} on (boards may hold millions
 * of cells, so there is no table): on box point (x, y), value `(y · 65536 + x) · 8 + s` with s 0 for
 * a slot, 1 for a target slot, 2 red, 3 yellow, 4 green stone; the box's size and the mode add value
 * 2^35 + (height · 65536 + width) · 2 + (1 in diagonal mode). Sides up to 65,535 cells.
 */
const MAX_BOX_SIDE = 0xffff;
const ROW = 65536;
const STATES = 8;
const SLOT = 0;
const TARGET = 1;
const STONE_STATE: Readonly<Record<StoneColour, number>> = { red: 2, yellow: 3, green: 4 };
const SIZE_VALUES = 2 ** 35;

/** The slots' bounding box of a board: its top-left cell and its size (0 × 0 without slots). */
interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

function boxOf(board: Board): Box {
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < board.height; y++) {
    for (let x = 0; x < board.width; x++) {
      if (board.cells[y * board.width + x].kind !== 'slot') continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return { left: 0, top: 0, width: 0, height: 0 };
  const box = { left, top, width: right - left + 1, height: bottom - top + 1 };
  if (box.width > MAX_BOX_SIDE || box.height > MAX_BOX_SIDE) throw new RangeError(`a board whose slots span ${box.width}x${box.height} cells: sides up to ${MAX_BOX_SIDE} are keyed`);
  return box;
}

/** 0 locked (or off the box), 1 slot, 2 target slot: the layout at box point (x, y). */
function layoutAt(board: Board, box: Box, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= box.width || y >= box.height) return 0;
  const cell = board.cells[(y + box.top) * board.width + x + box.left];
  return cell.kind !== 'slot' ? 0 : cell.target ? 2 : 1;
}

/**
 * The board's symmetries: the transforms of its slots' bounding box that keep every slot a slot and
 * every target a target (the identity first, always there).
 */
export function pegBoardSymmetries(board: Board): readonly Transform[] {
  return symmetriesIn(board, boxOf(board));
}

function symmetriesIn(board: Board, box: Box): Transform[] {
  if (box.width === 0) return [IDENTITY];
  return gridSymmetries(box.width, box.height).filter((t) => {
    for (let y = 0; y < box.height; y++) {
      for (let x = 0; x < box.width; x++) {
        const here = layoutAt(board, box, x, y);
        if (here === 0) continue;
        const [tx, ty] = apply(t, x, y, box.width, box.height);
        if (layoutAt(board, box, tx, ty) !== here) return false;
      }
    }
    return true;
  });
}

/** The generator's index of a state on box point (x, y). */
const valueIndex = (x: number, y: number, state: number): number => PEG_VALUES + (y * ROW + x) * STATES + state;

function invariants(keys: SymmetricKeys, board: Board, box: Box): void {
  const [hi, lo] = zobristValue(PEG_VALUES + SIZE_VALUES + (box.height * ROW + box.width) * 2 + (board.mode === 'diagonal' ? 1 : 0));
  keys.toggleInvariant(hi, lo);
}

/** The keys of a board as it stands, from nothing but the board (every slot and stone at its image under each symmetry). */
export function pegPositionKeys(board: Board): PositionKeys {
  const box = boxOf(board);
  const keys = new SymmetricKeys(symmetriesIn(board, box));
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const cell = board.cells[(y + box.top) * board.width + x + box.left];
      if (cell.kind !== 'slot') continue;
      for (const t of keys.transforms) {
        const [tx, ty] = apply(t, x, y, box.width, box.height);
        keys.toggleValue(t, valueIndex(tx, ty, cell.target ? TARGET : SLOT));
        if (cell.stone !== null) keys.toggleValue(t, valueIndex(tx, ty, STONE_STATE[cell.stone]));
      }
    }
  }
  invariants(keys, board, box);
  return keys.keys();
}

/**
 * The keys of a board kept up to date jump by jump. The layout stays as the board was given; only
 * stones change, each change two XORs per symmetry. Holds its own copy of the stones.
 */
export class PegPositionHasher {
  readonly transforms: readonly Transform[];
  /** The position's keys under each of the board's symmetries (read them; the hasher keeps them). */
  readonly keys: SymmetricKeys;
  private readonly box: Box;
  private readonly width: number;
  private readonly height: number;
  /** Slot number of each matrix cell, -1 for locked cells. */
  private readonly slotOfCell: Int32Array;
  /** Per slot: 0 no stone, else the stone's state (2 red, 3 yellow, 4 green). */
  private readonly stones: Uint8Array;
  /** `bases[slot * 8 + t]`: the value index of the slot's image under t, for state 0. */
  private readonly bases: Float64Array;

  constructor(board: Board) {
    this.box = boxOf(board);
    this.width = board.width;
    this.height = board.height;
    this.transforms = symmetriesIn(board, this.box);
    this.keys = new SymmetricKeys(this.transforms);
    this.slotOfCell = new Int32Array(board.width * board.height).fill(-1);
    let slots = 0;
    board.cells.forEach((cell, i) => {
      if (cell.kind === 'slot') this.slotOfCell[i] = slots++;
    });
    this.stones = new Uint8Array(slots);
    this.bases = new Float64Array(slots * 8);
    const { box } = this;
    board.cells.forEach((cell, i) => {
      if (cell.kind !== 'slot') return;
      const slot = this.slotOfCell[i];
      const x = (i % board.width) - box.left;
      const y = Math.floor(i / board.width) - box.top;
      for (const t of this.transforms) {
        const [tx, ty] = apply(t, x, y, box.width, box.height);
        const base = valueIndex(tx, ty, 0);
        this.bases[slot * 8 + t] = base;
        this.keys.toggleValue(t, base + (cell.target ? TARGET : SLOT));
      }
      if (cell.stone !== null) this.toggle(slot, STONE_STATE[cell.stone]);
      this.stones[slot] = cell.stone === null ? 0 : STONE_STATE[cell.stone];
    });
    invariants(this.keys, board, box);
  }

  /** The stone on matrix cell (x, y), null when the slot is empty; undefined off the board or on a locked cell. */
  stoneAt(x: number, y: number): StoneColour | null | undefined {
    const slot = this.slotAt(x, y);
    if (slot < 0) return undefined;
    const state = this.stones[slot];
    return state === 0 ? null : STONE_COLOURS[state - 2];
  }

  /** The slot on matrix cell (x, y) now holds `stone` (null: nothing). */
  set(x: number, y: number, stone: StoneColour | null): void {
    const slot = this.slotAt(x, y);
    if (slot < 0) throw new RangeError(`(${x}, ${y}) is not a slot of the board`);
    const before = this.stones[slot];
    const after = stone === null ? 0 : STONE_STATE[stone];
    if (after === undefined) throw new RangeError(`no stone colour ${stone}`);
    if (before === after) return;
    if (before !== 0) this.toggle(slot, before);
    if (after !== 0) this.toggle(slot, after);
    this.stones[slot] = after;
  }

  /** A legal jump (see judgeJump): the stone on `from` lands on `to`, the stone between them leaves. */
  jump(from: Point, to: Point): void {
    const stone = this.stoneAt(from.x, from.y);
    if (!stone) throw new RangeError(`no stone on (${from.x}, ${from.y}) to jump`);
    this.set(from.x, from.y, null);
    this.set((from.x + to.x) / 2, (from.y + to.y) / 2, null);
    this.set(to.x, to.y, stone);
  }

  key(transform: Transform = IDENTITY): bigint | null {
    return this.keys.key(transform);
  }

  canonical(): CanonicalKey {
    return this.keys.canonical();
  }

  /** The transforms that reach the canonical key (several for a symmetric position), lowest id first. */
  leastTransforms(): Transform[] {
    return this.keys.leastTransforms();
  }

  /** The same answer as {@link pegPositionKeys} for the board the hasher holds. */
  positionKeys(): PositionKeys {
    return this.keys.keys();
  }

  private slotAt(x: number, y: number): number {
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= this.width || y >= this.height) return -1;
    return this.slotOfCell[y * this.width + x];
  }

  private toggle(slot: number, state: number): void {
    const { transforms, bases, keys } = this;
    for (let i = 0; i < transforms.length; i++) {
      const t = transforms[i];
      keys.toggleValue(t, bases[slot * 8 + t] + state);
    }
  }
}
