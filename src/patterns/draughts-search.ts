import { ProblemException } from '../common/problem-codes.js';
import { BLACK_KINGS, BLACK_MEN, BOARD_MASKS_BYTES, WHITE_KINGS, WHITE_MEN, popcount, squareBit } from '../formats/families/checkers/board-masks.js';

/*
 * Draughts search by squares and material (docs/patterns.md): a pattern of the whole board becomes
 * masks — per kind of piece the squares that must hold it, and the squares that must be empty (the
 * others are "anything") — and each position's four masks (white men, white kings, black men, black
 * kings: `src/formats/families/checkers/board-masks.ts`) are tested with a few ANDs; material is a
 * range of counts per kind, tested by counting bits.
 */

/** The kinds of piece in the masks' order, and the pattern's letter for each. */
const LETTERS: Readonly<Record<string, number>> = { w: WHITE_MEN, W: WHITE_KINGS, b: BLACK_MEN, B: BLACK_KINGS };

/** The most men or kings a side can have. */
export const MAX_PIECES = 12;

/** A pattern and material bounds, compiled. Masks are signed 32-bit integers (as PostgreSQL's `int` and JavaScript's bit operators hold them). */
export interface DraughtsQuery {
  /** Per kind (white men, white kings, black men, black kings): the squares that must hold one. */
  readonly hold: readonly [number, number, number, number];
  /** The squares that must be empty. */
  readonly empty: number;
  /** Per kind: the fewest and the most there may be (0 and 12 where not bounded). */
  readonly fewest: readonly [number, number, number, number];
  readonly most: readonly [number, number, number, number];
  /** The first and the last ply searched (the last: null for the end). */
  readonly plyFrom: number;
  readonly plyTo: number | null;
}

/** Bounds of one side as the body writes them: `[lo, hi]` each, either may be null. */
export interface SideBounds {
  readonly men?: readonly (number | null)[] | null;
  readonly kings?: readonly (number | null)[] | null;
}

export interface MaterialBounds {
  readonly white?: SideBounds | null;
  readonly black?: SideBounds | null;
}

const invalid = (detail: string) => new ProblemException(400, 'pattern.invalid', detail);

/**
 * The masks of a draughts pattern: 8 rows of 8 characters, rank 8 first, files a to h; on a dark
 * square `w` `b` a man, `W` `B` a king, `.` empty, `*` anything; on a light square `-` (`.` and `*`
 * allowed too: a light square is always empty). Anything else is 400 `pattern.invalid`.
 */
export function compilePattern(rows: readonly string[]): { hold: [number, number, number, number]; empty: number } {
  if (rows.length !== 8) throw invalid(`a draughts pattern is 8 rows (rank 8 first), not ${rows.length}`);
  const hold: [number, number, number, number] = [0, 0, 0, 0];
  let empty = 0;
  rows.forEach((row, r) => {
    const cells = [...row];
    if (cells.length !== 8) throw invalid(`row ${r + 1} of the draughts pattern is ${cells.length} characters long: each row is 8 (files a to h)`);
    cells.forEach((cell, c) => {
      const name = `${'abcdefgh'[c]}${8 - r}`;
      const bit = squareBit(r * 8 + c);
      if (bit < 0) {
        if (cell !== '-' && cell !== '.' && cell !== '*') throw invalid(`${name} (row ${r + 1}, column ${c + 1}) is a light square, where no piece stands: write "-" there, not ${JSON.stringify(cell)}`);
        return;
      }
      const flag = 1 << bit;
      if (cell === '.') empty |= flag;
      else if (cell in LETTERS) hold[LETTERS[cell]] |= flag;
      else if (cell !== '*') throw invalid(`${name} (row ${r + 1}, column ${c + 1}) is ${JSON.stringify(cell)}: a dark square is w, b (men), W, B (kings), . (empty) or * (anything)`);
    });
  });
  return { hold, empty };
}

/** One `[lo, hi]` of the material bounds, checked: 0 to 12, lo ≤ hi; absent or null ends are open. */
function bounds(value: unknown, what: string): [number, number] {
  if (value === undefined || value === null) return [0, MAX_PIECES];
  if (!Array.isArray(value) || value.length !== 2) throw new ProblemException(400, 'request.invalid', `material: ${what} is [lo, hi] (either may be null), not ${JSON.stringify(value)}`);
  const [lo, hi] = value.map((end, i) => {
    if (end === null) return i === 0 ? 0 : MAX_PIECES;
    if (typeof end !== 'number' || !Number.isInteger(end) || end < 0 || end > MAX_PIECES) {
      throw new ProblemException(400, 'request.invalid', `material: ${what} holds ${JSON.stringify(end)}: each bound is a whole number from 0 to ${MAX_PIECES}, or null`);
    }
    return end;
  });
  if (lo > hi) throw invalid(`material: ${what} is [${lo}, ${hi}]: its lower bound is above its upper one`);
  return [lo, hi];
}

/** The ranges of counts of material bounds (kinds in the masks' order); unknown keys are 400 `request.invalid`. */
export function compileMaterial(material: MaterialBounds | undefined | null): { fewest: [number, number, number, number]; most: [number, number, number, number] } {
  const fewest: [number, number, number, number] = [0, 0, 0, 0];
  const most: [number, number, number, number] = [MAX_PIECES, MAX_PIECES, MAX_PIECES, MAX_PIECES];
  if (material === undefined || material === null) return { fewest, most };
  const object = (value: unknown, what: string, keys: readonly string[]): Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProblemException(400, 'request.invalid', `material: ${what} is a JSON object`);
    const unknown = Object.keys(value).find((key) => !keys.includes(key));
    if (unknown !== undefined) throw new ProblemException(400, 'request.invalid', `material: ${what} has ${JSON.stringify(unknown)}; it has only ${keys.join(' and ')}`);
    return value as Record<string, unknown>;
  };
  const sides = object(material, 'the material', ['white', 'black']);
  for (const [side, men, kings] of [['white', WHITE_MEN, WHITE_KINGS], ['black', BLACK_MEN, BLACK_KINGS]] as const) {
    if (sides[side] === undefined || sides[side] === null) continue;
    const pieces = object(sides[side], side, ['men', 'kings']);
    [fewest[men], most[men]] = bounds(pieces.men, `${side}.men`);
    [fewest[kings], most[kings]] = bounds(pieces.kings, `${side}.kings`);
  }
  return { fewest, most };
}

/** Whether the query asks anything of material (else counting is skipped). */
export function boundsMaterial(query: DraughtsQuery): boolean {
  return query.fewest.some((n) => n > 0) || query.most.some((n) => n < MAX_PIECES);
}

/**
 * The first ply of `plies` (positions as the family writes them, the first of them ply `first`) at
 * which the query holds, within its ply range; -1 when none does.
 */
export function firstMatchingPly(query: DraughtsQuery, plies: Uint8Array, first = 0): number {
  const view = new DataView(plies.buffer, plies.byteOffset, plies.byteLength);
  const positions = Math.floor(plies.length / BOARD_MASKS_BYTES);
  const [h0, h1, h2, h3] = query.hold;
  const empty = query.empty;
  const material = boundsMaterial(query);
  const { fewest, most } = query;
  const from = Math.max(0, query.plyFrom - first);
  const to = query.plyTo === null ? positions - 1 : Math.min(positions - 1, query.plyTo - first);
  for (let p = from; p <= to; p++) {
    const at = p * BOARD_MASKS_BYTES;
    const m0 = view.getInt32(at);
    if ((m0 & h0) !== h0) continue;
    const m1 = view.getInt32(at + 4);
    if ((m1 & h1) !== h1) continue;
    const m2 = view.getInt32(at + 8);
    if ((m2 & h2) !== h2) continue;
    const m3 = view.getInt32(at + 12);
    if ((m3 & h3) !== h3) continue;
    if (((m0 | m1 | m2 | m3) & empty) !== 0) continue;
    if (material) {
      const c0 = popcount(m0);
      if (c0 < fewest[0] || c0 > most[0]) continue;
      const c1 = popcount(m1);
      if (c1 < fewest[1] || c1 > most[1]) continue;
      const c2 = popcount(m2);
      if (c2 < fewest[2] || c2 > most[2]) continue;
      const c3 = popcount(m3);
      if (c3 < fewest[3] || c3 > most[3]) continue;
    }
    return p + first;
  }
  return -1;
}
