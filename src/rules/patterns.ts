/**
 * Patterns on a Go board or a Dots field: a rectangle of cells, each a wanted point state or a
 * wildcard, placed on a board under each symmetry; and a game's main line as the changes of its
 * points' states, ply by ply, so that a placement can be tested at every ply without the rules.
 *
 * Points are `y * width + x` (the row-major index of symmetry.ts's coordinates). A point's state, as
 * patterns see it, is one of:
 *
 * | state | Go | Dots |
 * |---|---|---|
 * | {@link EMPTY} (`.`) | an empty point | an empty point no one has enclosed |
 * | {@link FIRST} (`X`) | a black stone | a live dot of the first player |
 * | {@link SECOND} (`O`) | a white stone | a live dot of the second player |
 * | {@link OTHER} (only `*`) | — | a captured dot, an empty point inside a surround, a third or fourth player's dot |
 *
 * Pure code: no I/O, no notation.
 */
import { apply, gridSymmetries, inverse, transformedSize } from './symmetry.js';
import type { Transform } from './symmetry.js';

export const EMPTY = 0;
export const FIRST = 1;
export const SECOND = 2;
export const OTHER = 3;

/** A pattern cell that matches any state. */
export const ANY = -1;

/** The most points a board of changes may have (13 bits of a change word). */
export const MAX_POINTS = 8192;

/*
 * The changes of a game: 16-bit words, big-endian. A word below 0x8000 is a change, `point << 2 |
 * state`. A word with bit 15 set begins a ply: `0x8000 | point << 2 | state` when the ply put a
 * stone or dot on `point`, {@link PASS_WORD} for a ply that put none (a pass, grounding). The words
 * before the first ply are the start (setup stones); each ply's words after its first are what else
 * changed before the next position (captures, enclosures, setup stones added before the next ply).
 * Position k is the board after the start and the first k plies' words.
 */
const PLY_BIT = 0x8000;
const PASS_WORD = 0xffff;

/** A game's main line as pattern search replays it. */
export interface BoardChanges {
  readonly width: number;
  readonly height: number;
  /** See above. */
  readonly changes: Uint8Array;
}

/**
 * Writes a {@link BoardChanges}: the replay tells it each position's board (every point's state)
 * and the point of the ply that led to it.
 */
export class BoardChangesWriter {
  private readonly board: Uint8Array;
  private words: number[] = [];
  private positions = 0;

  constructor(readonly width: number, readonly height: number) {
    if (width * height > MAX_POINTS) throw new RangeError(`a board of ${width}x${height} has more than ${MAX_POINTS} points`);
    this.board = new Uint8Array(width * height);
  }

  /**
   * The next position: `states` every point's state now; `move` the point of the ply that led here
   * (null for a ply that put nothing on the board; undefined for the start, which no ply led to).
   * `changed`, when given, lists every other point whose state may differ from the last position's
   * (captures, setup stones; repeats and unchanged points allowed): only those are compared. Without
   * it every point is. The words written are the same either way. `count`: how many of `changed`
   * to read (all by default), so a caller may keep one list and refill it.
   */
  observe(states: ArrayLike<number>, move?: number | null, changed?: ArrayLike<number>, count = changed?.length ?? 0): void {
    if (this.positions > 0 && move === undefined) throw new Error('a position after the start needs its ply');
    if (this.positions === 0 && move !== undefined) throw new Error('the start has no ply');
    if (move === null) this.words.push(PASS_WORD);
    else if (move !== undefined) {
      this.words.push(PLY_BIT | (move << 2) | states[move]);
      this.board[move] = states[move];
    }
    if (changed === undefined) {
      for (let p = 0; p < this.board.length; p++) {
        if (this.board[p] !== states[p]) {
          this.words.push((p << 2) | states[p]);
          this.board[p] = states[p];
        }
      }
    } else {
      const from = this.words.length;
      for (let i = 0; i < count; i++) {
        const p = changed[i];
        if (this.board[p] !== states[p]) {
          this.words.push((p << 2) | states[p]);
          this.board[p] = states[p];
        }
      }
      // In the order of the points, as the scan of every point writes them.
      if (this.words.length - from > 1) {
        const written = this.words.splice(from).sort((a, b) => a - b);
        for (const word of written) this.words.push(word);
      }
    }
    this.positions++;
  }

  finish(): BoardChanges {
    const changes = new Uint8Array(this.words.length * 2);
    this.words.forEach((word, i) => {
      changes[2 * i] = word >>> 8;
      changes[2 * i + 1] = word & 0xff;
    });
    return { width: this.width, height: this.height, changes };
  }
}

/**
 * The points each of the two players ever held over the line (a stone or a live dot at some
 * position), as bitmaps: bit `p % 8` of byte `p >> 3`. A pattern's `X` points must all be in the
 * first's, its `O` points in the second's, at any placement where it can match.
 */
export function everHeld(board: BoardChanges): { first: Uint8Array; second: Uint8Array } {
  const bytes = (board.width * board.height + 7) >> 3;
  const first = new Uint8Array(bytes);
  const second = new Uint8Array(bytes);
  const { changes } = board;
  for (let at = 0; at < changes.length; at += 2) {
    const word = (changes[at] << 8) | changes[at + 1];
    if (word === PASS_WORD) continue;
    const point = (word & 0x7fff) >> 2;
    const state = word & 3;
    if (state === FIRST) first[point >> 3] |= 1 << (point & 7);
    else if (state === SECOND) second[point >> 3] |= 1 << (point & 7);
  }
  return { first, second };
}

/** The latest ply {@link firstTaken} tells apart: later plies are written as this. */
export const LATE_PLY = 255;

/**
 * When each point of the line was first taken — the first position (ply; 0 the start) at which it
 * is not {@link EMPTY}, at most {@link LATE_PLY} (which also stands for later, and for never) — and
 * which points were ever {@link EMPTY} again after that (a capture). A pattern's `X` and `O` points
 * are all taken at the ply it matches, so that ply is at least their latest first-taken ply; its
 * `.` points are empty then, so a point never emptied again was first taken after it.
 */
export function firstTaken(board: BoardChanges): { taken: Uint8Array; emptied: Uint8Array } {
  const n = board.width * board.height;
  const taken = new Uint8Array(n).fill(LATE_PLY);
  const seen = new Uint8Array(n);
  const emptied = new Uint8Array((n + 7) >> 3);
  const { changes } = board;
  let ply = 0;
  for (let at = 0; at < changes.length; at += 2) {
    const word = (changes[at] << 8) | changes[at + 1];
    if (word & PLY_BIT) ply++;
    if (word === PASS_WORD) continue;
    const point = (word & 0x7fff) >> 2;
    if ((word & 3) !== EMPTY) {
      if (!seen[point]) {
        seen[point] = 1;
        taken[point] = Math.min(ply, LATE_PLY);
      }
    } else if (seen[point]) emptied[point >> 3] |= 1 << (point & 7);
  }
  return { taken, emptied };
}

/** A pattern as written: `width` × `height` cells, row-major, each a state or {@link ANY}. */
export interface Pattern {
  readonly width: number;
  readonly height: number;
  readonly cells: Int8Array;
}

/** Why a pattern cannot be read: a reason code, and where. */
export interface PatternProblem {
  readonly reason: 'empty' | 'unequal_rows' | 'character' | 'no_stones';
  readonly row?: number;
  readonly column?: number;
}

const CELL: Readonly<Record<string, number>> = { X: FIRST, O: SECOND, '.': EMPTY, '*': ANY };

/** A pattern from its rows (`X`, `O`, `.`, `*`), or what is wrong with them. */
export function readPattern(rows: readonly string[]): Pattern | PatternProblem {
  if (rows.length === 0 || rows[0].length === 0) return { reason: 'empty' };
  const width = rows[0].length;
  const cells = new Int8Array(width * rows.length);
  let stones = 0;
  for (let y = 0; y < rows.length; y++) {
    if (rows[y].length !== width) return { reason: 'unequal_rows', row: y };
    for (let x = 0; x < width; x++) {
      const cell = CELL[rows[y][x]];
      if (cell === undefined) return { reason: 'character', row: y, column: x };
      cells[y * width + x] = cell;
      if (cell === FIRST || cell === SECOND) stones++;
    }
  }
  if (stones === 0) return { reason: 'no_stones' };
  return { width, height: rows.length, cells };
}

export type Anchor = 'anywhere' | 'corner' | 'edge';

/**
 * The pattern placed on a board: turned by `transform` (symmetry.ts: the pattern as written → as it
 * lies on the board), its turned rectangle's top-left cell on the board's point (`left`, `top`),
 * colours exchanged or not. `points[i]` is a board point the pattern fixes and `wants[i]` the state
 * it must hold there (wildcards left out).
 */
export interface Placement {
  readonly transform: Transform;
  readonly left: number;
  readonly top: number;
  /** The turned rectangle's size on the board. */
  readonly width: number;
  readonly height: number;
  readonly swapped: boolean;
  readonly points: Int32Array;
  readonly wants: Uint8Array;
}

/**
 * Every distinct placement of the pattern on a `boardWidth` × `boardHeight` board under the board's
 * symmetries (8 on a square, 4 on a rectangle), with the anchor: `corner` — the pattern's top-left
 * cell on a corner of the board (its first row and column then lie along the two edges);
 * `edge` — its first row along an edge, its rows going inwards; `anywhere` — any offset. With
 * `swapColors`, each placement again with X and O exchanged. Placements that fix the same points to
 * the same states (a symmetric pattern) are listed once, the first in the order transform, top,
 * left, colours (every placement with `distinct` false: the caller tells them apart).
 */
export function placements(pattern: Pattern, boardWidth: number, boardHeight: number, anchor: Anchor, swapColors: boolean, distinct = true): Placement[] {
  const found: Placement[] = [];
  const seen = new Set<string>();
  const { width: pw, height: ph } = pattern;
  const onEdge = (x: number, y: number) => ({ left: x === 0, right: x === boardWidth - 1, top: y === 0, bottom: y === boardHeight - 1 });
  for (const t of gridSymmetries(boardWidth, boardHeight)) {
    const [tw, th] = transformedSize(t, pw, ph);
    if (tw > boardWidth || th > boardHeight) continue;
    const cellAt = (x: number, y: number, left: number, top: number): [number, number] => {
      const [cx, cy] = apply(t, x, y, pw, ph);
      return [left + cx, top + cy];
    };
    for (let top = 0; top + th <= boardHeight; top++) {
      for (let left = 0; left + tw <= boardWidth; left++) {
        if (anchor !== 'anywhere') {
          const [ax, ay] = cellAt(0, 0, left, top);
          const [bx, by] = cellAt(pw - 1, 0, left, top);
          const [cx, cy] = cellAt(0, Math.min(1, ph - 1), left, top);
          const a = onEdge(ax, ay);
          const b = onEdge(bx, by);
          const c = onEdge(cx, cy);
          // The edges the first row lies along (its rows going inwards), and those the first column lies along (its columns going inwards).
          const sides = ['left', 'right', 'top', 'bottom'] as const;
          const rowEdges = sides.filter((side) => a[side] && b[side] && (ph === 1 || !c[side]));
          if (rowEdges.length === 0) continue;
          if (anchor === 'corner') {
            const [dx, dy] = cellAt(0, ph - 1, left, top);
            const [ex, ey] = cellAt(Math.min(1, pw - 1), 0, left, top);
            const d = onEdge(dx, dy);
            const e = onEdge(ex, ey);
            const columnEdges = sides.filter((side) => a[side] && d[side] && (pw === 1 || !e[side]));
            // A corner: one of them a vertical edge, the other a horizontal one.
            const vertical = (side: string) => side === 'left' || side === 'right';
            if (!rowEdges.some((row) => columnEdges.some((column) => vertical(row) !== vertical(column)))) continue;
          }
        }
        for (const swapped of swapColors ? [false, true] : [false]) {
          const points: number[] = [];
          const wants: number[] = [];
          for (let y = 0; y < ph; y++) {
            for (let x = 0; x < pw; x++) {
              let want = pattern.cells[y * pw + x];
              if (want === ANY) continue;
              if (swapped && want !== EMPTY) want = want === FIRST ? SECOND : FIRST;
              const [bx, by] = cellAt(x, y, left, top);
              points.push(by * boardWidth + bx);
              wants.push(want);
            }
          }
          const order = points.map((_, i) => i).sort((i, j) => points[i] - points[j]);
          const key = order.map((i) => `${points[i]}:${wants[i]}`).join(',');
          if (distinct && seen.has(key)) continue;
          seen.add(key);
          found.push({ transform: t, left, top, width: tw, height: th, swapped, points: Int32Array.from(points), wants: Uint8Array.from(wants) });
        }
      }
    }
  }
  return found;
}

/** Where a placement first matched, and the first ply after it that touched its area. */
export interface PatternMatch {
  /** The first position (ply) at which one of the placements matches. */
  readonly ply: number;
  /** Which of the placements given (the first of them in their order when several match then). */
  readonly placement: number;
  /**
   * The first ply after `ply` that put a stone or dot inside the placement's rectangle or next to it
   * (the rectangle grown by one point each way): its point and state; null when none did.
   */
  readonly next: { readonly point: number; readonly state: number } | null;
}

/**
 * What the matchers ({@link firstMatch}, `firstMatchWithin`) work in, kept from call to call and
 * grown when a call needs more (each runs to its end without giving the event loop a turn, so one
 * set serves every call): thousands of candidates are confirmed a search, and a fresh set of arrays
 * for each was a good part of its time.
 */
const scratch = {
  states: new Uint8Array(0),
  head: new Int32Array(0),
  link: new Int32Array(0),
  owner: new Int32Array(0),
  want: new Uint8Array(0),
  wrong: new Int32Array(0),
  fell: new Int32Array(0),
  /** Per placement, the position it last fell to 0 in (+1): each is listed once a position. */
  fellAt: new Int32Array(0),
};

/**
 * The board's states (all empty) for `n` points; per point the (placement, wanted state) pairs that
 * fix it, as linked lists (`head` of a point, `link` to the next pair, its `owner` placement and the
 * state it `want`s); per placement the count of its points in the wrong state on an empty board. In
 * {@link scratch}: valid until the next call.
 */
export function watchedPoints(candidates: readonly Pick<Placement, 'points' | 'wants'>[], n: number) {
  const count = candidates.length;
  let entries = 0;
  for (let i = 0; i < count; i++) entries += candidates[i].points.length;
  if (scratch.states.length < n) {
    scratch.states = new Uint8Array(n);
    scratch.head = new Int32Array(n);
  }
  if (scratch.link.length < entries) {
    scratch.link = new Int32Array(entries);
    scratch.owner = new Int32Array(entries);
    scratch.want = new Uint8Array(entries);
  }
  if (scratch.wrong.length < count) {
    scratch.wrong = new Int32Array(count);
    scratch.fell = new Int32Array(count);
    scratch.fellAt = new Int32Array(count);
  }
  const { states, head, link, owner, want, wrong } = scratch;
  states.fill(EMPTY, 0, n);
  head.fill(-1, 0, n);
  wrong.fill(0, 0, count);
  let e = 0;
  for (let i = 0; i < count; i++) {
    const { points, wants } = candidates[i];
    for (let k = 0; k < points.length; k++, e++) {
      const p = points[k];
      link[e] = head[p];
      owner[e] = i;
      want[e] = wants[k];
      head[p] = e;
      if (wants[k] !== EMPTY) wrong[i]++;
    }
  }
  return scratch;
}

/**
 * The first position of a game's line at which one of the placements matches (each fixed point in
 * the state it wants), or null. The line is followed change by change; a placement is tested again
 * only when one of its points changes, through a count per placement of its points in the wrong state.
 */
export function firstMatch(board: BoardChanges, candidates: readonly Placement[]): PatternMatch | null {
  const { width, height, changes } = board;
  const n = width * height;
  const count = candidates.length;
  const { states, head, link, owner, want, wrong, fell, fellAt } = watchedPoints(candidates, n);
  fellAt.fill(0, 0, count);
  let ply = 0;
  // The placements whose count fell to 0 during the current position's changes (`fallen` of them).
  let fallen = 0;
  const fall = (i: number) => {
    if (fellAt[i] === ply + 1) return;
    fellAt[i] = ply + 1;
    fell[fallen++] = i;
  };
  const matchNow = (): number => {
    let first = -1;
    for (let k = 0; k < fallen; k++) {
      const i = fell[k];
      if (wrong[i] === 0 && (first < 0 || i < first)) first = i;
    }
    fallen = 0;
    return first;
  };
  const set = (point: number, state: number) => {
    const before = states[point];
    if (before === state) return;
    states[point] = state;
    for (let e = head[point]; e >= 0; e = link[e]) {
      if (want[e] === before) wrong[owner[e]]++;
      else if (want[e] === state && --wrong[owner[e]] === 0) fall(owner[e]);
    }
  };
  // A placement that wants only empty points matches the empty board.
  for (let i = 0; i < count; i++) if (wrong[i] === 0) fall(i);
  let at = 0;
  // The start: every word before the first ply.
  for (; at < changes.length; at += 2) {
    const word = (changes[at] << 8) | changes[at + 1];
    if (word & PLY_BIT) break;
    set(word >> 2, word & 3);
  }
  let matched = matchNow();
  while (matched < 0 && at < changes.length) {
    ply++;
    const first = (changes[at] << 8) | changes[at + 1];
    if (first !== PASS_WORD) set((first & 0x7fff) >> 2, first & 3);
    for (at += 2; at < changes.length; at += 2) {
      const word = (changes[at] << 8) | changes[at + 1];
      if (word & PLY_BIT) break;
      set(word >> 2, word & 3);
    }
    matched = matchNow();
  }
  if (matched < 0) return null;
  // The continuation: the next ply with a point in the area or next to it.
  const area = candidates[matched];
  let next: PatternMatch['next'] = null;
  for (; at < changes.length; at += 2) {
    const word = (changes[at] << 8) | changes[at + 1];
    if (!(word & PLY_BIT) || word === PASS_WORD) continue;
    const point = (word & 0x7fff) >> 2;
    const x = point % width;
    const y = Math.floor(point / width);
    if (x >= area.left - 1 && x <= area.left + area.width && y >= area.top - 1 && y <= area.top + area.height) {
      next = { point, state: word & 3 };
      break;
    }
  }
  return { ply, placement: matched, next };
}

/**
 * A board point in the pattern's own frame: the cell of the pattern as written that the placement
 * puts on the point, as (x, y) — from -1 to the pattern's width or height for a point next to it.
 */
export function patternCell(pattern: Pattern, placement: Placement, point: number, boardWidth: number): [number, number] {
  const bx = (point % boardWidth) - placement.left;
  const by = Math.floor(point / boardWidth) - placement.top;
  // Points next to the rectangle: found through the rectangle grown by one on each side.
  const [gw, gh] = [placement.width + 2, placement.height + 2];
  const [x, y] = apply(inverse(placement.transform), bx + 1, by + 1, gw, gh);
  return [x - 1, y - 1];
}

/**
 * A Dots field's points as patterns see them, written into `into`: from each point's owner (0 or
 * seat + 1) and captor (0 or the enclosing seat + 1).
 */
export function patternStatesOfDots(owner: ArrayLike<number>, captor: ArrayLike<number>, into: Uint8Array): Uint8Array {
  for (let p = 0; p < into.length; p++) {
    const o = owner[p];
    into[p] = captor[p] !== 0 ? OTHER : o === 0 ? EMPTY : o === 1 ? FIRST : o === 2 ? SECOND : OTHER;
  }
  return into;
}
