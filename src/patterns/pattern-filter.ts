import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { EMPTY, FIRST, LATE_PLY, firstTaken } from '../formats/families/patterns.js';
import type { SequencePlacement } from '../formats/families/patterns.js';

/** A `game_patterns` row as the filter reads it. */
export interface FilterRow {
  readonly gameId: number;
  readonly family: string;
  readonly width: number;
  readonly height: number;
  /** Bitmaps of the points the first and the second player ever held (bit p % 8 of byte p >> 3). */
  readonly first: Uint8Array;
  readonly second: Uint8Array;
  /** The writing transaction, as text. */
  readonly written: string;
  /** Whether the row holds how the game ended and the day played (rows written before they were kept hold neither). */
  readonly facts: boolean;
  /** The winner's colour, `draw`, or null when unknown. */
  readonly result: string | null;
  /** The day played (`YYYY-MM-DD`), or null. */
  readonly played: string | null;
}

/** The games of one family and board size, their bitmaps sliced by point: one bit per game in each point's words. */
export interface FilterGroup {
  readonly family: string;
  readonly width: number;
  readonly height: number;
  /** Game id by slot. */
  ids: number[];
  /** Per point, per player: a bit per slot, set when that game's player ever held the point. */
  first: Uint32Array[];
  second: Uint32Array[];
  /** Per point, per player: how many slots have the bit set (the rows' order when ANDed). */
  readonly firstCount: Uint32Array;
  readonly secondCount: Uint32Array;
  /** Per point, a byte per slot: the ply that game first took the point ({@link firstTaken}; 255 late or never). */
  taken: Uint8Array[];
  /** Per point, a bit per slot set when that game's point was emptied again after it was taken. */
  emptied: Uint32Array[];
  /** A bit per slot whose game is still as read (not replaced by a later row of the same game). */
  alive: Uint32Array;
  /** Per slot, how its game ended: 0 not known to the filter (read it from the table), else 1 + its place in the filter's results. */
  result: Uint16Array;
  /** Per slot, the day played: its place in the filter's days (kept where `result` is not 0). */
  played: Uint32Array;
  /**
   * Per slot, where its line (`game_patterns.changes`, as read with the row) lies in {@link lineBlocks}:
   * the block's index (-1: not kept, read it from the table), and the line's first and last byte + 1.
   */
  lineBlock: Int32Array;
  lineStart: Uint32Array;
  lineEnd: Uint32Array;
  /** The lines of the group's games, end to end in blocks of {@link LINE_BLOCK} bytes (a longer line gets a block of its own). */
  lineBlocks: Uint8Array[];
  /** Bytes used in the last block. */
  lineUsed: number;
}

/** The size of a block of lines. */
const LINE_BLOCK = 1 << 20;

/** How long the filter works between two turns of the event loop, in ms. */
const TURN_MS = 15;

/** Words of games (32 a word) the filter tries every placement on before it goes on: 64 K games, a few MB of rows. */
const BLOCK_WORDS = 2048;

/**
 * The candidates' filter of pattern search, in memory (Kombilo's final-position filter, turned
 * sideways): for each family and board size, for each point and player, one bit per game saying
 * whether that player ever held the point. A placement of a pattern can match a game only when the
 * game's first player held every `X` point of it at some time and its second player every `O` point;
 * so the games worth replaying for a placement are the AND of a few of these bit rows, a word (32
 * games) at a time. Each game that passes is then tested on the order its points were first taken
 * (a byte per point and game, the ply, and a bit per point when it was emptied again): the
 * placement's stones are all on the board from the latest of their first plies on, so an empty
 * point of it that was taken at or before that ply and never emptied again rules the game out — which
 * a long game that held a small shape's points one by one at different times mostly is. 100,000
 * games of 19×19 take 9 MB of bits and 36 MB of plies.
 *
 * It follows `game_patterns` by the writing transactions' ids: {@link take} is given the rows written
 * at or after the last snapshot's xmin (every transaction before it has ended), so none is missed
 * and a few are read twice. A game written again (re-indexed) gets a new slot and its old one is
 * dropped; a deleted game keeps its slot until the process ends, and is dropped at confirmation,
 * which reads the game's row.
 */
export class PatternFilter {
  private readonly groups = new Map<string, FilterGroup>();
  private readonly slots = new Map<number, { group: FilterGroup; slot: number; written: string }>();
  /** How games ended (`black`, `white`, `draw`, null…) and the days they were played, as the rows say them, each once. */
  private readonly results = new Interned();
  private readonly days = new Interned();
  /** How many rows the filter has taken (a search's matches hold while it stays the same). */
  version = 0;
  /** The xmin of the snapshot the last rows were read in; null before the first read. */
  watermark: string | null = null;

  /**
   * Takes rows read from the table (then set {@link watermark}) and, per game, its line as read
   * after them: when that line was written by another transaction than the row (the game written
   * again between the two reads) or is missing, the game's points count as taken late (no order is
   * known: the filter lets it through), until the next read brings the new row.
   */
  take(rows: readonly FilterRow[], lines: ReadonlyMap<number, { readonly changes: Uint8Array; readonly written: string }>): void {
    for (const row of rows) {
      const before = this.slots.get(row.gameId);
      if (before?.written === row.written) continue;
      if (before) before.group.alive[before.slot >> 5] &= ~(1 << (before.slot & 31));
      this.version++;
      const group = this.group(row.family, row.width, row.height);
      const slot = group.ids.length;
      this.grow(group, slot + 1, Math.ceil(slot * 1.25));
      group.ids.push(row.gameId);
      const word = slot >> 5;
      const bit = 1 << (slot & 31);
      const points = row.width * row.height;
      const line = lines.get(row.gameId);
      const known = line?.written === row.written;
      const { taken, emptied } = known ? firstTaken({ width: row.width, height: row.height, changes: line.changes }) : unknownOrder(points);
      if (known) this.keepLine(group, slot, line.changes);
      else group.lineBlock[slot] = -1;
      for (let p = 0; p < points; p++) {
        if (row.first[p >> 3] & (1 << (p & 7))) {
          group.first[p][word] |= bit;
          group.firstCount[p]++;
        }
        if (row.second[p >> 3] & (1 << (p & 7))) {
          group.second[p][word] |= bit;
          group.secondCount[p]++;
        }
        if (emptied[p >> 3] & (1 << (p & 7))) group.emptied[p][word] |= bit;
        group.taken[p][slot] = taken[p];
      }
      group.alive[word] |= bit;
      if (row.facts) {
        group.result[slot] = 1 + this.results.code(row.result);
        group.played[slot] = this.days.code(row.played);
      }
      this.slots.set(row.gameId, { group, slot, written: row.written });
    }
  }

  /**
   * Room for the games of `rows` beside those taken already, so that taking them grows each group's
   * rows once, to the size needed (call before {@link take} with every row of a read).
   */
  reserve(rows: readonly FilterRow[]): void {
    const counts = new Map<FilterGroup, number>();
    for (const row of rows) {
      const group = this.group(row.family, row.width, row.height);
      counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    for (const [group, count] of counts) this.grow(group, group.ids.length + count, 0);
  }

  /**
   * A game as the filter keeps it, for confirming it without reading the table: its line, how it
   * ended and the day played, as its row stood when the filter last read it; null when the filter
   * lacks any of them (read the game from the table).
   */
  kept(gameId: number): { readonly changes: Uint8Array; readonly result: string | null; readonly played: string | null } | null {
    const at = this.slots.get(gameId);
    if (!at) return null;
    const { group, slot } = at;
    const block = group.lineBlock[slot];
    const result = group.result[slot];
    if (block < 0 || result === 0) return null;
    return {
      changes: group.lineBlocks[block].subarray(group.lineStart[slot], group.lineEnd[slot]),
      result: this.results.values[result - 1],
      played: this.days.values[group.played[slot]],
    };
  }

  /** The groups of a family. */
  groupsOf(family: string): FilterGroup[] {
    return [...this.groups.values()].filter((group) => group.family === family && group.ids.length > 0);
  }

  /**
   * The games of a group that may hold one of the placements: per game id, the indexes of the
   * placements it may hold, in order. With a span of plies, the placement's stones must all be taken
   * by its last ply, and its empty points are tested from its first; a placement's numbered moves (a
   * sequence) must be points their player held.
   *
   * The games are taken a block of {@link BLOCK_WORDS} words at a time, every placement over each
   * block (the block's rows stay in the processor's caches while the placements are tried); each
   * placement's rows are ANDed rarest first (the rows' counts of games), so that a word's games run
   * out after as few rows as may be. Yields to the event loop every {@link TURN_MS} ms.
   */
  async candidates(group: FilterGroup, placements: readonly SequencePlacement[], span?: { readonly from: number; readonly to: number }): Promise<Map<number, number[]>> {
    const from = span?.from ?? 0;
    const to = span?.to ?? Infinity;
    const found = new Map<number, number[]>();
    const words = (group.ids.length + 31) >> 5;
    const tests = placements.map((placement) => this.testOf(group, placement));
    let turn = performance.now();
    for (let start = 0; start < words; start += BLOCK_WORDS) {
      const end = Math.min(words, start + BLOCK_WORDS);
      for (let index = 0; index < tests.length; index++) {
        if (performance.now() - turn > TURN_MS) {
          await yieldToLoop();
          turn = performance.now();
        }
        const { rows, stoneTaken, emptyTaken, emptyEmptied } = tests[index];
        const count = rows.length;
        // The first eight rows four at a time, each four without a branch between them (which of a
        // word's games survive a row is as good as random: a test after each row is mostly guessed
        // wrong by the processor); most words have no game left after them.
        const [r0, r1, r2, r3, r4, r5, r6, r7] = rows;
        const alive = group.alive;
        for (let w = start; w < end; w++) {
          let bits = r0[w] & r1[w] & r2[w] & r3[w];
          if (bits === 0) continue;
          bits &= r4[w] & r5[w] & r6[w] & r7[w];
          if (bits === 0) continue;
          bits &= alive[w];
          for (let k = 8; bits !== 0 && k < count; k++) bits &= rows[k][w];
          next: while (bits !== 0) {
            const low = bits & -bits;
            const slot = (w << 5) + 31 - Math.clz32(low);
            bits ^= low;
            // The pattern's stones are all on the board from the latest of their first-taken plies on;
            // an empty point of it taken before that, and never emptied again, is empty at no such ply.
            let latest = 0;
            for (let k = 0; k < stoneTaken.length; k++) if (stoneTaken[k][slot] > latest) latest = stoneTaken[k][slot];
            // Taken after the span's last ply (255: at 255 or later, or never): not all on the board in the span.
            if (latest > to) continue;
            if (latest < from) latest = from;
            for (let k = 0; k < emptyTaken.length; k++) {
              const taken = emptyTaken[k][slot];
              if (taken <= latest && taken < LATE_PLY && (emptyEmptied[k][w] & low) === 0) continue next;
            }
            const id = group.ids[slot];
            const list = found.get(id);
            if (list) list.push(index);
            else found.set(id, [index]);
          }
        }
      }
    }
    return found;
  }

  /** A placement's bit rows (rarest first), and the first plies of its stones and of its empty points. */
  private testOf(group: FilterGroup, placement: SequencePlacement) {
    const rows: { row: Uint32Array; games: number }[] = [];
    const stoneTaken: Uint8Array[] = [];
    const emptyTaken: Uint8Array[] = [];
    const emptyEmptied: Uint32Array[] = [];
    const held = (point: number, want: number) =>
      want === FIRST ? { row: group.first[point], games: group.firstCount[point] } : { row: group.second[point], games: group.secondCount[point] };
    for (let i = 0; i < placement.points.length; i++) {
      const want = placement.wants[i];
      const point = placement.points[i];
      if (want === EMPTY) {
        emptyTaken.push(group.taken[point]);
        emptyEmptied.push(group.emptied[point]);
        continue;
      }
      rows.push(held(point, want));
      stoneTaken.push(group.taken[point]);
    }
    const sequence = placement.sequence;
    if (sequence) for (let k = 0; k < sequence.points.length; k++) rows.push(held(sequence.points[k], sequence.states[k]));
    rows.sort((a, b) => a.games - b.games);
    // At least eight rows (see candidates): a placement of fewer stones has the live games' row in the others' place.
    while (rows.length < 8) rows.push({ row: group.alive, games: group.ids.length });
    return { rows: rows.map((entry) => entry.row), stoneTaken, emptyTaken, emptyEmptied };
  }

  /** Bytes the bit rows, first plies, results and days take. */
  get bytes(): number {
    let total = 0;
    for (const group of this.groups.values()) {
      total += (group.first.length * 3 + 1) * group.alive.byteLength + group.taken.length * group.taken[0].byteLength + group.result.byteLength + group.played.byteLength;
    }
    return total;
  }

  /** Bytes the kept lines take (their blocks, and where each line lies). */
  get lineBytes(): number {
    let total = 0;
    for (const group of this.groups.values()) {
      total += group.lineBlock.byteLength + group.lineStart.byteLength + group.lineEnd.byteLength;
      for (const block of group.lineBlocks) total += block.byteLength;
    }
    return total;
  }

  /** Copies a line into the group's blocks. */
  private keepLine(group: FilterGroup, slot: number, changes: Uint8Array): void {
    let last = group.lineBlocks.length - 1;
    if (last < 0 || group.lineUsed + changes.length > group.lineBlocks[last].length) {
      group.lineBlocks.push(new Uint8Array(Math.max(LINE_BLOCK, changes.length)));
      group.lineUsed = 0;
      last++;
    }
    group.lineBlocks[last].set(changes, group.lineUsed);
    group.lineBlock[slot] = last;
    group.lineStart[slot] = group.lineUsed;
    group.lineEnd[slot] = group.lineUsed + changes.length;
    group.lineUsed += changes.length;
  }

  private group(family: string, width: number, height: number): FilterGroup {
    const name = `${family}/${width}x${height}`;
    let group = this.groups.get(name);
    if (!group) {
      const points = width * height;
      group = {
        family,
        width,
        height,
        ids: [],
        first: Array.from({ length: points }, () => new Uint32Array(4)),
        second: Array.from({ length: points }, () => new Uint32Array(4)),
        firstCount: new Uint32Array(points),
        secondCount: new Uint32Array(points),
        taken: Array.from({ length: points }, () => new Uint8Array(128).fill(LATE_PLY)),
        emptied: Array.from({ length: points }, () => new Uint32Array(4)),
        alive: new Uint32Array(4),
        result: new Uint16Array(128),
        played: new Uint32Array(128),
        lineBlock: new Int32Array(128).fill(-1),
        lineStart: new Uint32Array(128),
        lineEnd: new Uint32Array(128),
        lineBlocks: [],
        lineUsed: 0,
      };
      this.groups.set(name, group);
    }
    return group;
  }

  /** Room for `slots` games, or for `ahead` when more (the rows grow by a quarter when full: at most a fifth of them unused). */
  private grow(group: FilterGroup, slots: number, ahead: number): void {
    const words = (slots + 31) >> 5;
    if (words <= group.alive.length) return;
    const size = Math.max(words, (ahead + 31) >> 5);
    const widen = (row: Uint32Array) => {
      const wider = new Uint32Array(size);
      wider.set(row);
      return wider;
    };
    group.first = group.first.map(widen);
    group.second = group.second.map(widen);
    group.emptied = group.emptied.map(widen);
    group.taken = group.taken.map((row) => {
      const wider = new Uint8Array(size * 32).fill(LATE_PLY);
      wider.set(row);
      return wider;
    });
    group.alive = widen(group.alive);
    // A slot's own values, each array as long as the slots: the new room empty (0), the line blocks none (-1).
    const slotWide = <T extends Uint16Array | Int32Array | Uint32Array>(row: T, make: (length: number) => T): T => {
      const wider = make(size * 32);
      wider.set(row);
      return wider;
    };
    group.result = slotWide(group.result, (length) => new Uint16Array(length));
    group.played = slotWide(group.played, (length) => new Uint32Array(length));
    group.lineBlock = slotWide(group.lineBlock, (length) => new Int32Array(length).fill(-1));
    group.lineStart = slotWide(group.lineStart, (length) => new Uint32Array(length));
    group.lineEnd = slotWide(group.lineEnd, (length) => new Uint32Array(length));
  }
}

/** Values met again and again (a result, a day), each kept once and known by its place. */
class Interned {
  readonly values: (string | null)[] = [];
  private readonly codes = new Map<string | null, number>();

  /** The value's place, given one when new. */
  code(value: string | null): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

/** No order of first taking: every point late, none emptied (the filter's test then rules nothing out). */
function unknownOrder(points: number): { taken: Uint8Array; emptied: Uint8Array } {
  return { taken: new Uint8Array(points).fill(LATE_PLY), emptied: new Uint8Array((points + 7) >> 3) };
}
