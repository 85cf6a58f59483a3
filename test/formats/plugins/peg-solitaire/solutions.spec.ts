import { pegSolitairePlugin as plugin } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { realBoardFiles } from '../../../support/peg-solitaire/boards.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

/**
 * The plugin's verdict on every real board, checked against what this file works out on its own:
 * it reads the `.brd` files itself (after ../shared/specs/peg-solitaire-brd.md), replays the
 * plugin's solutions under its own rules, refutes boards with the classic position-class argument,
 * and searches the small boards exhaustively. Nothing below the plugin's import comes from `src`.
 */

// The first version-2 copies are the version-1 boards again (see real-files.spec.ts); solve the others.
const files = realBoardFiles().filter((f) => f.folder !== 'v2_4bf2dc7');
const GENEROUS = { timeBudgetMs: 30_000, limits: DEFAULT_LIMITS };

/**
 * The boards the parity argument below refutes, worked by hand:
 * - `Drag-n-Drop Board Variant A` (both copies) is the 37-hole French shape in normal mode with only
 *   the centre empty. Its 36 stones fall 12/12/12 on the three classes of (x+y) mod 3, and 12/12/12 on
 *   those of (x−y) mod 3: all even.
 * - `Diamond Board` (version 1 only; the current release dropped it) is the 41-hole diamond
 *   |x−4|+|y−4| ≤ 4 in normal mode with only the centre empty: 14/14/12 by (x+y) mod 3 and 12/14/14 by
 *   (x−y) mod 3, again all even.
 * After 35 (resp. 39) jumps, an odd number, all three counts of a family would be odd, while one stone
 * left gives 1/0/0: no last stone anywhere, target or not. Every other normal-mode board leaves at
 * least one allowed finish slot in the start's class, and the argument says nothing in diagonal mode.
 */
const REFUTED_BY_PARITY = ['v1_e522458/Diamond Board.brd', 'v1_e522458/Drag-n-Drop Board  Variant A.brd', 'v2_head/Drag-n-Drop Board Variant A.brd'];

/** Boards of at most this many slots are searched exhaustively here (2^16 positions at worst). */
const SMALL = 16;

// ---- The test's own reading of a board file ----------------------------------------------------

interface Hole {
  readonly x: number;
  readonly y: number;
  /** Value of the stone standing there at the start (30 red, 20 yellow, 10 green), 0 when empty. */
  readonly value: number;
  readonly target: boolean;
}

interface OwnBoard {
  readonly diagonal: boolean;
  readonly width: number;
  readonly height: number;
  readonly holes: readonly Hole[];
}

const V1_VALUES: Readonly<Record<string, number>> = { '3': 30, '2': 20, '1': 10, E: 0 };
const V2_VALUES: Readonly<Record<string, number>> = { r: 30, y: 20, g: 10, e: 0 };

function readOwn(bytes: Buffer): OwnBoard {
  const text = bytes.toString('latin1');
  const joined = text.replace(/[\r\n]/g, '');
  if (/^1[ND]~/.test(joined)) return readVersion1(joined);
  return readVersion2(text);
}

/** Version 1: CR/LF mean nothing; `X`/`*` locked, `1`/`2`/`3` stones, `E` empty, `>` marks the next one a target, `!` ends the first row. */
function readVersion1(joined: string): OwnBoard {
  const cells: (Hole | null)[] = [];
  let width = -1;
  let target = false;
  for (const char of joined.slice(3)) {
    if (char === '!') width = cells.length;
    else if (char === '>') target = true;
    else if (char === 'X' || char === '*') cells.push(null);
    else if (char in V1_VALUES) {
      cells.push({ x: 0, y: 0, value: V1_VALUES[char], target });
      target = false;
    } else throw new Error(`version 1: unexpected "${char}"`);
  }
  if (width <= 0 || cells.length % width !== 0) throw new Error('version 1: no "!" or an incomplete matrix');
  return board(joined[1] === 'D', width, cells);
}

/** Version 2: rows from line 3, blanks ignored; dots removed (current program) or, if rows differ then, counted as locked cells (its first revision). */
function readVersion2(text: string): OwnBoard {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[0].trim().toLowerCase() !== 'version 2') throw new Error('version 2: bad first line');
  const mode = lines[1].trim().toLowerCase();
  if (mode !== 'mode: normal' && mode !== 'mode: diagonal') throw new Error('version 2: bad mode line');
  const rows = lines.slice(2).map((line) => line.replace(/[ \t]/g, '')).filter((line) => line.length > 0);
  const equal = (candidate: string[]) => candidate.every((row) => row.length === candidate[0].length);
  const shifted = rows.map((row) => row.replace(/\./g, ''));
  const chosen = equal(shifted) ? shifted : equal(rows) ? rows : null;
  if (!chosen) throw new Error('version 2: rows of different lengths under either reading');
  const cells = chosen.join('').split('').map((char) => {
    if (char === '*' || char === '.') return null;
    const value = V2_VALUES[char.toLowerCase()];
    if (value === undefined) throw new Error(`version 2: unexpected "${char}"`);
    return { x: 0, y: 0, value, target: char !== char.toLowerCase() };
  });
  return board(mode === 'mode: diagonal', chosen[0].length, cells);
}

function board(diagonal: boolean, width: number, cells: readonly (Hole | null)[]): OwnBoard {
  const holes = cells.flatMap((cell, i) => (cell ? [{ ...cell, x: i % width, y: Math.floor(i / width) }] : []));
  return { diagonal, width, height: cells.length / width, holes };
}

/** Where the last stone may stand: on a target when the board has targets, anywhere otherwise. */
const allowedFinish = (own: OwnBoard): Hole[] => (own.holes.some((h) => h.target) ? own.holes.filter((h) => h.target) : [...own.holes]);

// ---- The position-class argument (orthogonal jumps only) ----------------------------------------

/**
 * Three matrix cells in a row or a column lie on three different classes of (x+y) mod 3, and on three
 * different classes of (x−y) mod 3. A jump empties two of them and fills the third, so it changes each
 * class's stone count by one: all three parities flip together, and whether two classes' counts have
 * the same parity never changes. The class of a position is that, for both families.
 */
function positionClass(stones: readonly { x: number; y: number }[]): string {
  return [(x: number, y: number) => x + y, (x: number, y: number) => x - y]
    .map((family) => {
      const counts = [0, 0, 0];
      for (const { x, y } of stones) counts[((family(x, y) % 3) + 3) % 3]++;
      return `${(counts[0] + counts[1]) % 2}${(counts[1] + counts[2]) % 2}`;
    })
    .join('');
}

/** True when the argument proves that no jump sequence leaves one stone on an allowed slot. */
function refutedByParity(own: OwnBoard): boolean {
  if (own.diagonal) return false; // a diagonal jump keeps x−y: the argument does not hold
  const start = positionClass(own.holes.filter((h) => h.value > 0));
  return !allowedFinish(own).some((h) => positionClass([h]) === start);
}

// ---- Exhaustive search for small boards ---------------------------------------------------------

function steps(diagonal: boolean): [number, number][] {
  const orthogonal: [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  return diagonal ? [...orthogonal, [1, 1], [1, -1], [-1, 1], [-1, -1]] : orthogonal;
}

function solvableBySearch(own: OwnBoard): boolean {
  const index = new Map(own.holes.map((h, i) => [`${h.x},${h.y}`, i]));
  const jumps: [number, number, number][] = [];
  own.holes.forEach((h, from) => {
    for (const [dx, dy] of steps(own.diagonal)) {
      const over = index.get(`${h.x + dx},${h.y + dy}`);
      const to = index.get(`${h.x + 2 * dx},${h.y + 2 * dy}`);
      if (over !== undefined && to !== undefined) jumps.push([from, over, to]);
    }
  });
  const finish = new Set(allowedFinish(own).map((h) => own.holes.indexOf(h)));
  const stones = own.holes.map((h) => h.value > 0);
  const dead = new Set<string>();
  const search = (left: number): boolean => {
    if (left === 1) return finish.has(stones.indexOf(true));
    const key = stones.map(Number).join('');
    if (dead.has(key)) return false;
    for (const [from, over, to] of jumps) {
      if (!stones[from] || !stones[over] || stones[to]) continue;
      stones[from] = stones[over] = false;
      stones[to] = true;
      const found = search(left - 1);
      stones[from] = stones[over] = true;
      stones[to] = false;
      if (found) return true;
    }
    dead.add(key);
    return false;
  };
  return search(stones.filter(Boolean).length);
}

// ---- Replaying the plugin's solution under the test's own rules --------------------------------

interface PlayedJump {
  from: { x: number; y: number };
  to: { x: number; y: number };
}

/** Plays the jumps on the test's own board; returns the points (jumped stones' values, plus value × 100 for a last stone on a target). */
function replayOwn(own: OwnBoard, jumps: readonly PlayedJump[]): { left: Hole[]; points: number } {
  const value = new Map(own.holes.map((h) => [`${h.x},${h.y}`, h.value]));
  let points = 0;
  jumps.forEach(({ from, to }, i) => {
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const shape = [Math.abs(dx), Math.abs(dy)].sort().join(',');
    if (!(shape === '0,2' || (own.diagonal && shape === '2,2'))) throw new Error(`jump ${i + 1} is not a jump: ${JSON.stringify({ from, to })}`);
    const over = `${from.x + dx / 2},${from.y + dy / 2}`;
    const [f, t] = [`${from.x},${from.y}`, `${to.x},${to.y}`];
    if (!value.get(f) || !value.get(over) || value.get(t) !== 0) throw new Error(`jump ${i + 1} is not legal here: ${JSON.stringify({ from, to })}`);
    points += value.get(over)!;
    value.set(t, value.get(f)!);
    value.set(f, 0);
    value.set(over, 0);
  });
  const left = own.holes.filter((h) => value.get(`${h.x},${h.y}`)! > 0).map((h) => ({ ...h, value: value.get(`${h.x},${h.y}`)! }));
  if (left.length === 1 && left[0].target) points += left[0].value * 100;
  return { left, points };
}

describe('the position-class argument written here', () => {
  it(`refutes exactly the ${REFUTED_BY_PARITY.length} boards worked by hand above, and no other real board`, () => {
    const refuted = files.filter((f) => refutedByParity(readOwn(f.bytes))).map((f) => `${f.folder}/${f.name}`);
    expect(refuted).toEqual(REFUTED_BY_PARITY);
  });

  it('agrees with the exhaustive search on every small real board and on a small board it refutes', () => {
    const small = files.map((f) => readOwn(f.bytes)).filter((own) => own.holes.length <= SMALL);
    expect(small.length).toBeGreaterThanOrEqual(5); // the triangles and the star
    for (const own of small) if (refutedByParity(own)) expect(solvableBySearch(own)).toBe(false);
    // A 4x4 square, normal mode, only a corner empty: its 15 stones fall 5/5/5 in both families, all odd;
    // after 14 jumps they would still be all odd, and one stone gives 1/0/0.
    const corner = readOwn(Buffer.from('Version 2\r\nMode: Normal\r\ne y y y\r\ny y y y\r\ny y y y\r\ny y y y\r\n'));
    expect(refutedByParity(corner)).toBe(true);
    expect(solvableBySearch(corner)).toBe(false);
  });
});

describe('verdicts on the real boards', () => {
  it.each(files.map((f) => [`${f.folder}/${f.name}`, f] as const))('%s: a solution replays legally to one stone on an allowed slot, or the board is refuted here', async (name, file) => {
    const record = await plugin.read({ bytes: file.bytes }, GENEROUS);
    const analysis = record.analysis!;
    const own = readOwn(file.bytes);
    const targets = own.holes.filter((h) => h.target).length;
    // Two readers of the same file, one the plugin's and one this test's, see the same board.
    expect(analysis.details).toMatchObject({
      mode: own.diagonal ? 'diagonal' : 'normal',
      width: own.width,
      height: own.height,
      slots: own.holes.length,
      stoneCount: own.holes.filter((h) => h.value > 0).length,
      targets,
    });
    const solvable = analysis.details.solvable;
    expect(solvable).not.toBe('unknown');
    if (own.holes.length <= SMALL) expect(solvable).toBe(solvableBySearch(own) ? 'yes' : 'no');
    if (solvable === 'yes') {
      expect(REFUTED_BY_PARITY).not.toContain(name);
      expect(refutedByParity(own)).toBe(false);
      const jumps = analysis.replay.map((ply) => ply.details as unknown as PlayedJump);
      const { left, points } = replayOwn(own, jumps);
      expect(left).toHaveLength(1);
      expect(allowedFinish(own)).toContainEqual(expect.objectContaining({ x: left[0].x, y: left[0].y }));
      expect(analysis.replay.at(-1)!.score).toEqual([points]);
    } else {
      // A board the plugin calls unsolvable must be refuted by this file's own argument (or search, when small).
      const refuted = refutedByParity(own);
      expect(refuted || (own.holes.length <= SMALL && !solvableBySearch(own))).toBe(true);
      expect(refuted).toBe(REFUTED_BY_PARITY.includes(name));
      if (refuted) expect(analysis.details.unsolvableBecause).toBe('parity');
    }
  });
});
