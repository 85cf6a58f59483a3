import { neighbourTable } from './neighbours.js';
import { BLACK, Cell, EMPTY, MAX_BOARD_SIZE, MoveOutcome, Stone, WHITE, opponent } from './types.js';

/*
 * Scratch space for flood fills, shared by every position: the engine is synchronous, so one
 * search runs at a time. `visited[i] === epoch` marks a point as seen in the current search,
 * which spares clearing the array before each search.
 */
const visited = new Uint32Array(MAX_BOARD_SIZE * MAX_BOARD_SIZE);
const group = new Int16Array(MAX_BOARD_SIZE * MAX_BOARD_SIZE);
let epoch = 0;

function nextEpoch(): number {
  epoch++;
  if (epoch === 0xffffffff) {
    visited.fill(0);
    epoch = 1;
  }
  return epoch;
}

const NO_PLY = 0;

/** The captures of a move that takes no stone (frozen: shared by every such move). */
const NOTHING_TAKEN: number[] = Object.freeze([]) as never[];

/** The outcome of a legal move that takes no stone (frozen: shared by every such move). */
const TOOK_NOTHING: MoveOutcome = Object.freeze({ legal: true, captured: NOTHING_TAKEN });

/**
 * A Go position that moves are played on: stones, prisoners, and what simple ko needs to know of
 * the previous ply. Mutable on purpose (replaying a game allocates nothing per point); use
 * {@link clone} to branch into variations.
 *
 * Rules: a move on an occupied point is illegal; a move removes every opponent group it leaves
 * without liberties; a move that leaves its own group without liberties (after those removals) is
 * suicide and illegal; a move that recreates the position before the opponent's last move is
 * illegal (simple ko). An illegal move leaves the position unchanged.
 */
export class GoPosition {
  readonly size: number;
  /** `y * size + x` → {@link Cell}. */
  readonly cells: Uint8Array;
  /** Opponent stones each colour has taken off the board, indexed by {@link Stone}. */
  readonly prisoners: [number, number, number] = [0, 0, 0];
  private readonly neighbours: Int16Array;
  /*
   * The previous ply, as far as ko needs it: who played where, and the one stone it captured
   * (-1 unless it captured exactly one). A pass or a start sets `lastStone` to NO_PLY.
   */
  private lastStone: number = NO_PLY;
  private lastPoint = -1;
  private lastSingleCapture = -1;

  constructor(size: number) {
    this.neighbours = neighbourTable(size);
    this.size = size;
    this.cells = new Uint8Array(size * size);
  }

  clone(): GoPosition {
    const copy = new GoPosition(this.size);
    copy.cells.set(this.cells);
    copy.prisoners[BLACK] = this.prisoners[BLACK];
    copy.prisoners[WHITE] = this.prisoners[WHITE];
    copy.lastStone = this.lastStone;
    copy.lastPoint = this.lastPoint;
    copy.lastSingleCapture = this.lastSingleCapture;
    return copy;
  }

  at(x: number, y: number): Cell {
    return this.cells[y * this.size + x] as Cell;
  }

  /** Puts a stone without playing a move (setting up a position): no captures, no ko. */
  setStone(x: number, y: number, cell: Cell): void {
    this.cells[y * this.size + x] = cell;
  }

  isOnBoard(x: number, y: number): boolean {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.size && y < this.size;
  }

  pass(): void {
    this.lastStone = NO_PLY;
    this.lastPoint = -1;
    this.lastSingleCapture = -1;
  }

  play(stone: Stone, x: number, y: number): MoveOutcome {
    if (!this.isOnBoard(x, y)) return { legal: false, reason: 'off_board' };
    const cells = this.cells;
    const point = y * this.size + x;
    if (cells[point] !== EMPTY) return { legal: false, reason: 'occupied' };
    cells[point] = stone;

    const enemy = opponent(stone);
    // Most moves take nothing: they share one empty list (never changed), the others get their own.
    let captured: number[] = NOTHING_TAKEN;
    const base = point * 4;
    for (let k = 0; k < 4; k++) {
      const next = this.neighbours[base + k];
      // A neighbour already taken by an earlier direction of this move is empty by now.
      if (next < 0 || cells[next] !== enemy) continue;
      const length = this.deadGroupLength(next, enemy);
      if (length > 0 && captured === NOTHING_TAKEN) captured = [];
      for (let i = 0; i < length; i++) {
        cells[group[i]] = EMPTY;
        captured.push(group[i]);
      }
    }

    if (captured.length === 0 && this.deadGroupLength(point, stone) > 0) {
      cells[point] = EMPTY;
      return { legal: false, reason: 'suicide' };
    }

    // Recreating the position before the opponent's last move needs exactly this shape: their
    // move took one stone (ours, on this point) and this move takes back only the stone they played.
    if (
      captured.length === 1 &&
      this.lastStone === enemy &&
      this.lastSingleCapture === point &&
      captured[0] === this.lastPoint
    ) {
      cells[captured[0]] = enemy;
      cells[point] = EMPTY;
      return { legal: false, reason: 'ko' };
    }

    this.prisoners[stone] += captured.length;
    this.lastStone = stone;
    this.lastPoint = point;
    this.lastSingleCapture = captured.length === 1 ? captured[0] : -1;
    return captured === NOTHING_TAKEN ? TOOK_NOTHING : { legal: true, captured };
  }

  /**
   * When the group of `colour` at `start` has no liberty, fills `group[0..n)` with its points and
   * returns n; returns 0 as soon as a liberty is found.
   */
  private deadGroupLength(start: number, colour: number): number {
    const cells = this.cells;
    const neighbours = this.neighbours;
    const mark = nextEpoch();
    visited[start] = mark;
    group[0] = start;
    let length = 1;
    for (let i = 0; i < length; i++) {
      const base = group[i] * 4;
      for (let k = 0; k < 4; k++) {
        const next = neighbours[base + k];
        if (next < 0) continue;
        const cell = cells[next];
        if (cell === EMPTY) return 0;
        if (cell === colour && visited[next] !== mark) {
          visited[next] = mark;
          group[length++] = next;
        }
      }
    }
    return length;
  }
}
