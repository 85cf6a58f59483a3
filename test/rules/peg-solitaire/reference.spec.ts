import { Board, Cell, MoveMode } from '../../../src/rules/peg-solitaire/board.js';
import { directions } from '../../../src/rules/peg-solitaire/geometry.js';
import { playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { solve } from '../../../src/rules/peg-solitaire/solver.js';

/**
 * The solver against a plain reference on many small random boards: exhaustive search over positions
 * with nothing but a memo of visited positions — no parity, symmetry, resource counts or beams. The two
 * must agree on every verdict, and every solution the solver gives must replay to one stone on an
 * allowed slot.
 */
function referenceSolvable(board: Board): boolean {
  const { width, height, cells } = board;
  const hasTargets = cells.some((c) => c.kind === 'slot' && c.target);
  const slot = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x].kind === 'slot';
  const seen = new Set<string>();
  const search = (stones: boolean[]): boolean => {
    const key = stones.map((s) => (s ? '1' : '0')).join('');
    if (seen.has(key)) return false;
    seen.add(key);
    const left = stones.flatMap((s, i) => (s ? [i] : []));
    if (left.length === 1) {
      const cell = cells[left[0]];
      return !hasTargets || (cell.kind === 'slot' && cell.target);
    }
    for (const i of left) {
      const x = i % width;
      const y = Math.floor(i / width);
      for (const d of directions(board.mode)) {
        if (!slot(x + d.x, y + d.y) || !slot(x + 2 * d.x, y + 2 * d.y)) continue;
        const over = i + d.y * width + d.x;
        const to = i + 2 * (d.y * width + d.x);
        if (!stones[over] || stones[to]) continue;
        const next = [...stones];
        next[i] = false;
        next[over] = false;
        next[to] = true;
        if (search(next)) return true;
      }
    }
    return false;
  };
  const stones = cells.map((c) => c.kind === 'slot' && c.stone !== null);
  return stones.some(Boolean) && search(stones);
}

function randomBoard(random: () => number, mode: MoveMode): Board {
  const width = 2 + Math.floor(random() * 4);
  const height = 2 + Math.floor(random() * 3);
  const cells: Cell[] = Array.from({ length: width * height }, () => {
    const r = random();
    if (r < 0.15) return { kind: 'locked', halfWidth: false };
    return { kind: 'slot', stone: r < 0.55 ? 'yellow' : null, target: random() < 0.06 };
  });
  return { mode, width, height, cells, rowShifts: new Array<number>(height).fill(0) };
}

describe('solve against an exhaustive reference', () => {
  let seed = 20091107;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

  it.each(['normal', 'diagonal'] as const)('agrees on 300 random small boards (%s mode)', (mode) => {
    let solvable = 0;
    const reasons = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const board = randomBoard(random, mode);
      const expected = referenceSolvable(board);
      const result = solve(board, { timeBudgetMs: 60_000 });
      expect({ i, verdict: result.solvable }).toEqual({ i, verdict: expected ? 'yes' : 'no' });
      if (result.solvable === 'no') reasons.add(result.reason);
      if (result.solvable !== 'yes') continue;
      solvable++;
      const played = playJumps(board, result.solution);
      const left = played.board.cells.filter((c) => c.kind === 'slot' && c.stone !== null);
      expect(left).toHaveLength(1);
      if (board.cells.some((c) => c.kind === 'slot' && c.target)) expect(left[0]).toMatchObject({ target: true });
    }
    // The sample is not trivial: both verdicts occur, and unsolvable ones are proven both ways.
    expect(solvable).toBeGreaterThan(15);
    expect(solvable).toBeLessThan(285);
    expect([...reasons]).toEqual(expect.arrayContaining(['parity', 'exhausted']));
  });
});
