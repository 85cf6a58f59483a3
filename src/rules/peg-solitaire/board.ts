/**
 * A peg solitaire board as the ViaThinkSoft program sees it: a rectangular matrix of cells, each either
 * locked (no stone can ever stand there) or a slot that holds a coloured stone or nothing.
 * Neighbourhood is matrix neighbourhood; how a row is drawn (half-cell shifts) never changes it.
 */

export type MoveMode = 'normal' | 'diagonal';

export type StoneColour = 'red' | 'yellow' | 'green';

/** Points a stone scores when it is jumped (and, ×100, when it is the last stone on a target). */
export const STONE_VALUES: Readonly<Record<StoneColour, number>> = { red: 30, yellow: 20, green: 10 };

export const STONE_COLOURS: readonly StoneColour[] = ['red', 'yellow', 'green'];

export interface LockedCell {
  readonly kind: 'locked';
  /** Drawn half a cell wide (version 1 `*`, version 2 `.` in the first version-2 program); drawing only. */
  readonly halfWidth: boolean;
}

export interface SlotCell {
  readonly kind: 'slot';
  readonly stone: StoneColour | null;
  /** Where the last stone may end; a board without targets accepts the last stone anywhere. */
  readonly target: boolean;
}

export type Cell = LockedCell | SlotCell;

const LOCKED: LockedCell = Object.freeze({ kind: 'locked', halfWidth: false });
const HALF_LOCKED: LockedCell = Object.freeze({ kind: 'locked', halfWidth: true });
const SLOTS = new Map<string, SlotCell>();
for (const stone of [null, 'red', 'yellow', 'green'] as const) {
  for (const target of [false, true]) SLOTS.set(`${stone}:${target}`, Object.freeze({ kind: 'slot', stone, target }));
}

/**
 * The cell values, shared: a board of millions of cells (uploads may be large) then holds references
 * rather than millions of objects. Cells are never mutated; a changed cell is a different value.
 */
export function lockedCell(halfWidth: boolean): LockedCell {
  return halfWidth ? HALF_LOCKED : LOCKED;
}

export function slotCell(stone: StoneColour | null, target: boolean): SlotCell {
  return SLOTS.get(`${stone}:${target}`)!;
}

export interface Board {
  readonly mode: MoveMode;
  readonly width: number;
  readonly height: number;
  /** Row-major, `width * height` cells. */
  readonly cells: readonly Cell[];
  /**
   * Per row, the drawing shift in half cells (positive = to the right), as version 2 dots give it.
   * Drawing only: it never changes which cells are neighbours.
   */
  readonly rowShifts: readonly number[];
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export function cellAt(board: Board, x: number, y: number): Cell | undefined {
  if (x < 0 || y < 0 || x >= board.width || y >= board.height) return undefined;
  return board.cells[y * board.width + x];
}

export function isSlot(cell: Cell | undefined): cell is SlotCell {
  return cell !== undefined && cell.kind === 'slot';
}

export interface BoardCensus {
  readonly slots: number;
  readonly stones: Readonly<Record<StoneColour, number>>;
  readonly stoneCount: number;
  /** Sum of the values of all stones on the board. */
  readonly stoneValue: number;
  readonly targets: number;
}

/** Counts what the index shows about a board. */
export function census(board: Board): BoardCensus {
  const stones: Record<StoneColour, number> = { red: 0, yellow: 0, green: 0 };
  let slots = 0;
  let targets = 0;
  for (const cell of board.cells) {
    if (cell.kind !== 'slot') continue;
    slots++;
    if (cell.target) targets++;
    if (cell.stone) stones[cell.stone]++;
  }
  const stoneCount = stones.red + stones.yellow + stones.green;
  const stoneValue = STONE_COLOURS.reduce((sum, colour) => sum + stones[colour] * STONE_VALUES[colour], 0);
  return { slots, stones, stoneCount, stoneValue, targets };
}

/**
 * Whether two boards are the same game: mode, size and every cell's kind, stone and target.
 * Half-width flags and row shifts are drawing details and are ignored.
 */
export function sameGame(a: Board, b: Board): boolean {
  if (a.mode !== b.mode || a.width !== b.width || a.height !== b.height) return false;
  return a.cells.every((cell, i) => {
    const other = b.cells[i];
    if (cell.kind !== other.kind) return false;
    if (cell.kind === 'locked' || other.kind === 'locked') return true;
    return cell.stone === other.stone && cell.target === other.target;
  });
}
