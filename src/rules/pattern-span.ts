/**
 * Pattern search within a span of plies, with the side to move and a numbered sequence (Kombilo's
 * "before move N", "next move" and numbered stones), on a game's line as src/rules/patterns.ts writes it.
 *
 * - The span: the pattern counts only at a position `p` with `from <= p <= to`.
 * - The side to move after `p`: the colour of the stone or dot of ply `p + 1`; when that ply puts
 *   none (a pass, grounding) or there is none (the line's end), the other side than the mover of
 *   ply `p`. A ply's mover is the colour of its stone; a ply without one takes the other side than
 *   the ply before it, and a line that begins with such plies counts back from its first stone
 *   (with no stone at all, the first player moves first). A stone of neither player (a Dots third
 *   player's dot) is no side, nor is the side after it.
 * - The sequence: cells of the pattern numbered 1, 2, …, n (rows beside the pattern's, digits over
 *   its `X` and `O` cells). The numbered cells are empty at `p`; the k-th numbered move is a ply
 *   after `p` that puts a stone of its cell's colour on its point, each after the one before
 *   (strict: at plies `p + 1`, `p + 2`, …, one after another).
 *
 * Pure code: no I/O, no notation.
 */
import { EMPTY, FIRST, SECOND, placements, watchedPoints } from './patterns.js';
import type { Anchor, BoardChanges, Pattern, PatternMatch, Placement } from './patterns.js';
import { apply } from './symmetry.js';

const PLY_BIT = 0x8000;
const PASS_WORD = 0xffff;

/** The numbered moves of a pattern: the cell (row-major index in the pattern as written) of each, in order, and its colour as written. */
export interface PatternSequence {
  readonly cells: Int32Array;
  readonly states: Uint8Array;
}

/** Why a sequence cannot be read: a reason code, and where (rows and columns from 0). */
export interface SequenceProblem {
  readonly reason: 'size' | 'character' | 'repeated' | 'gap' | 'cell';
  readonly row?: number;
  readonly column?: number;
  /** The digit repeated, or the first one missing. */
  readonly digit?: number;
}

/**
 * The sequence of rows beside a pattern's: as many rows, as long, of `1`–`9` and `.` (no move);
 * each digit once, from 1 without a gap, on an `X` or `O` cell of the pattern (the move's colour).
 */
export function readSequence(pattern: Pattern, rows: readonly string[]): PatternSequence | SequenceProblem {
  const { width, height } = pattern;
  if (rows.length !== height) return { reason: 'size', row: Math.min(rows.length, height) };
  const at = new Int32Array(10).fill(-1);
  for (let y = 0; y < height; y++) {
    if (rows[y].length !== width) return { reason: 'size', row: y };
    for (let x = 0; x < width; x++) {
      const c = rows[y][x];
      if (c === '.') continue;
      if (c < '1' || c > '9') return { reason: 'character', row: y, column: x };
      const digit = c.charCodeAt(0) - 48;
      if (at[digit] >= 0) return { reason: 'repeated', row: y, column: x, digit };
      const cell = pattern.cells[y * width + x];
      if (cell !== FIRST && cell !== SECOND) return { reason: 'cell', row: y, column: x, digit };
      at[digit] = y * width + x;
    }
  }
  let n = 0;
  while (n < 9 && at[n + 1] >= 0) n++;
  for (let digit = n + 2; digit <= 9; digit++) if (at[digit] >= 0) return { reason: 'gap', digit: n + 1 };
  const cells = Int32Array.from({ length: n }, (_, k) => at[k + 1]);
  return { cells, states: Uint8Array.from(cells, (cell) => pattern.cells[cell]) };
}

/** A sequence as a placement puts it on the board: each move's point and the colour it wants there. */
export interface PlacedSequence {
  readonly points: Int32Array;
  readonly states: Uint8Array;
}

/** A placement with the numbered moves it wants after the position (none: an empty sequence). */
export type SequencePlacement = Placement & { readonly sequence?: PlacedSequence };

/**
 * Every distinct placement of a pattern with a sequence ({@link placements}): the numbered cells
 * are wanted empty at the position, and each placement carries its numbered moves on the board,
 * turned and (with the colours exchanged) recoloured as the pattern is. Placements that fix the same
 * points to the same states and want the same moves are listed once — and, when `sideMatters` (a side
 * to move is asked: a placement with the colours exchanged wants the other side), have the same colours.
 */
export function sequencePlacements(
  pattern: Pattern,
  sequence: PatternSequence | null,
  boardWidth: number,
  boardHeight: number,
  anchor: Anchor,
  swapColors: boolean,
  sideMatters = false,
): SequencePlacement[] {
  const moves = sequence?.cells.length ?? 0;
  if (moves === 0 && !(sideMatters && swapColors)) return placements(pattern, boardWidth, boardHeight, anchor, swapColors);
  const { width: pw, height: ph } = pattern;
  const found: SequencePlacement[] = [];
  const seen = new Set<string>();
  for (const placed of placements(pattern, boardWidth, boardHeight, anchor, swapColors, false)) {
    const wants = placed.wants.slice();
    const points = new Int32Array(moves);
    const states = new Uint8Array(moves);
    for (let k = 0; k < moves; k++) {
      const cell = sequence!.cells[k];
      const [cx, cy] = apply(placed.transform, cell % pw, Math.floor(cell / pw), pw, ph);
      const point = (placed.top + cy) * boardWidth + placed.left + cx;
      const i = placed.points.indexOf(point);
      points[k] = point;
      states[k] = placed.wants[i];
      wants[i] = EMPTY;
    }
    const order = Array.from(placed.points, (_, i) => i).sort((i, j) => placed.points[i] - placed.points[j]);
    const side = sideMatters && placed.swapped ? 'swapped' : '';
    const key = `${order.map((i) => `${placed.points[i]}:${wants[i]}`).join(',')}|${Array.from(points, (p, k) => `${p}:${states[k]}`).join(',')}|${side}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(moves === 0 ? placed : { ...placed, wants, sequence: { points, states } });
  }
  return found;
}

/** What a match must hold besides the pattern: the span of plies, the side to move as written (X's side: {@link FIRST}), strictness of the sequence. */
export interface MatchConditions {
  /** The first and the last position (ply) at which a match counts; `to` may be Infinity. */
  readonly from: number;
  readonly to: number;
  /** {@link FIRST} or {@link SECOND} (of the pattern as written: a placement with the colours exchanged wants the other), or null for either. */
  readonly toMove: number | null;
  /** The numbered moves at the plies right after the position, one after another. */
  readonly strict: boolean;
}

const otherSide = (side: number): number => (side === FIRST ? SECOND : side === SECOND ? FIRST : 0);

/**
 * {@link firstMatch} within conditions: the first position `p` in the span at which one of the
 * placements matches, the side to move then is the one wanted, and its numbered moves follow. The
 * line is followed no further than `to`; the placements matching at each position are kept in a
 * set (a count per placement of its points in the wrong state, as firstMatch does), and only they
 * are tested on the other conditions. `next` is the first ply in or next to the placement's area
 * after the position — after the last numbered move when there is a sequence.
 */
export function firstMatchWithin(board: BoardChanges, candidates: readonly SequencePlacement[], when: MatchConditions): PatternMatch | null {
  const { width, height, changes } = board;
  const n = width * height;
  const length = changes.length;
  const word = (at: number) => (changes[at] << 8) | changes[at + 1];
  const { states, head, link, owner, want, wrong } = watchedPoints(candidates, n);
  // The placements matching the current position, and where each stands in the list (-1 none).
  const matching: number[] = [];
  const slot = new Int32Array(candidates.length).fill(-1);
  const enter = (i: number) => {
    slot[i] = matching.length;
    matching.push(i);
  };
  const leave = (i: number) => {
    const last = matching.pop()!;
    if (last !== i) {
      matching[slot[i]] = last;
      slot[last] = slot[i];
    }
    slot[i] = -1;
  };
  const set = (point: number, state: number) => {
    const before = states[point];
    if (before === state) return;
    states[point] = state;
    for (let e = head[point]; e >= 0; e = link[e]) {
      if (want[e] === before) {
        if (wrong[owner[e]]++ === 0) leave(owner[e]);
      } else if (want[e] === state && --wrong[owner[e]] === 0) enter(owner[e]);
    }
  };
  for (let i = 0; i < candidates.length; i++) if (wrong[i] === 0) enter(i);
  const moverWanted = candidates.map((placement) => (when.toMove === null ? -1 : placement.swapped ? otherSide(when.toMove) : when.toMove));
  // Placements whose sequence can no longer follow (not strict: none after a position means none after a later one).
  const dead = new Uint8Array(candidates.length);

  // The plies, read once when a sequence is first tested: each ply's first word, and per point the plies that put a stone there.
  const plies = { read: false, word: new Int32Array(0), offset: new Int32Array(0), pointHead: new Int32Array(0), pointNext: new Int32Array(0) };
  const index = () => {
    const words: number[] = [0];
    const offsets: number[] = [0];
    for (let at = 0; at < length; at += 2) {
      const w = word(at);
      if (w & PLY_BIT) {
        words.push(w);
        offsets.push(at);
      }
    }
    offsets.push(length);
    plies.word = Int32Array.from(words);
    plies.offset = Int32Array.from(offsets);
    plies.pointHead = new Int32Array(n).fill(-1);
    plies.pointNext = new Int32Array(words.length).fill(-1);
    const tail = new Int32Array(n).fill(-1);
    for (let q = 1; q < words.length; q++) {
      if (words[q] === PASS_WORD) continue;
      const point = (words[q] & 0x7fff) >> 2;
      if (tail[point] < 0) plies.pointHead[point] = q;
      else plies.pointNext[tail[point]] = q;
      tail[point] = q;
    }
    plies.read = true;
  };
  /** The ply of the last numbered move when the placement's sequence follows position `p`, else -1. */
  const follows = (i: number, p: number): number => {
    const sequence = candidates[i].sequence!;
    if (!plies.read) index();
    const words = plies.word;
    const count = words.length - 1;
    let q = p;
    for (let k = 0; k < sequence.points.length; k++) {
      const point = sequence.points[k];
      const state = sequence.states[k];
      if (when.strict) {
        q++;
        if (q > count) {
          dead[i] = 1;
          return -1;
        }
        const w = words[q];
        if (w === PASS_WORD || (w & 0x7fff) >> 2 !== point || (w & 3) !== state) return -1;
      } else {
        let r = plies.pointHead[point];
        while (r >= 0 && (r <= q || (words[r] & 3) !== state)) r = plies.pointNext[r];
        if (r < 0) {
          dead[i] = 1;
          return -1;
        }
        q = r;
      }
    }
    return q;
  };

  // The mover before the first ply, so that the plies before the first stone alternate up to it.
  let mover = SECOND;
  if (when.toMove !== null) {
    let ply = 0;
    for (let at = 0; at < length; at += 2) {
      const w = word(at);
      if (!(w & PLY_BIT)) continue;
      ply++;
      if (w === PASS_WORD) continue;
      mover = ply % 2 === 0 ? w & 3 : otherSide(w & 3);
      break;
    }
  }

  let ply = 0;
  let at = 0;
  for (; at < length; at += 2) {
    const w = word(at);
    if (w & PLY_BIT) break;
    set(w >> 2, w & 3);
  }
  let matched = -1;
  let last = -1;
  for (;;) {
    if (ply >= when.from && matching.length > 0) {
      const next = at < length ? word(at) : PASS_WORD;
      const toMove = next !== PASS_WORD ? next & 3 : otherSide(mover);
      for (const i of matching) {
        if (dead[i] || (matched >= 0 && i > matched)) continue;
        if (moverWanted[i] >= 0 && moverWanted[i] !== toMove) continue;
        const end = candidates[i].sequence ? follows(i, ply) : ply;
        if (end < 0) continue;
        matched = i;
        last = end;
      }
      if (matched >= 0) break;
    }
    if (ply >= when.to || at >= length) break;
    ply++;
    const first = word(at);
    if (first === PASS_WORD) mover = otherSide(mover);
    else {
      mover = first & 3;
      set((first & 0x7fff) >> 2, first & 3);
    }
    for (at += 2; at < length; at += 2) {
      const w = word(at);
      if (w & PLY_BIT) break;
      set(w >> 2, w & 3);
    }
  }
  if (matched < 0) return null;
  // The continuation: the next ply with a point in the area or next to it, after the sequence when there is one.
  if (last > ply) at = plies.offset[last + 1];
  const area = candidates[matched];
  let next: PatternMatch['next'] = null;
  for (; at < length; at += 2) {
    const w = word(at);
    if (!(w & PLY_BIT) || w === PASS_WORD) continue;
    const point = (w & 0x7fff) >> 2;
    const x = point % width;
    const y = Math.floor(point / width);
    if (x >= area.left - 1 && x <= area.left + area.width && y >= area.top - 1 && y <= area.top + area.height) {
      next = { point, state: w & 3 };
      break;
    }
  }
  return { ply, placement: matched, next };
}
