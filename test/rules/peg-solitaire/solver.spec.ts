import { census } from '../../../src/rules/peg-solitaire/board.js';
import { playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { MAX_SEARCHED_SLOTS, solve, SolveResult } from '../../../src/rules/peg-solitaire/solver.js';
import { boardFromRows } from '../../support/peg-solitaire/boards.js';

const ENGLISH = ['**yyy**', '**yyy**', 'yyyyyyy', 'yyyEyyy', 'yyyyyyy', '**yyy**', '**yyy**'];
const GENEROUS = { timeBudgetMs: 60_000 };

function solution(result: SolveResult) {
  if (result.solvable !== 'yes') throw new Error(`expected a solution, got ${result.solvable}`);
  return result.solution;
}

describe('solve', () => {
  it('solves the English 33-hole board from the centre to the centre', () => {
    const board = boardFromRows(ENGLISH);
    const jumps = solution(solve(board, GENEROUS));
    // 32 stones, one left: every jump removes one.
    expect(jumps).toHaveLength(31);
    const played = playJumps(board, jumps);
    const left = played.board.cells.flatMap((cell, i) => (cell.kind === 'slot' && cell.stone ? [i] : []));
    expect(left).toEqual([3 * 7 + 3]);
    // 31 yellow stones jumped (20 each) plus the last yellow stone on the target (20 × 100).
    expect(played.points).toBe(31 * 20 + 2000);
  });

  it('is deterministic: the same board gives the same solution', () => {
    const board = boardFromRows(ENGLISH);
    expect(solution(solve(board, GENEROUS))).toEqual(solution(solve(board, GENEROUS)));
  });

  it('finds the single jump of a three-slot row', () => {
    const jumps = solution(solve(boardFromRows(['yye']), GENEROUS));
    expect(jumps).toEqual([{ from: { x: 0, y: 0 }, over: { x: 1, y: 0 }, to: { x: 2, y: 0 } }]);
  });

  it('jumps towards a target and away from a free slot on the other side', () => {
    // Both stones could jump only into slot 0; the target is there.
    const jumps = solution(solve(boardFromRows(['Eyy']), GENEROUS));
    expect(jumps).toEqual([{ from: { x: 2, y: 0 }, over: { x: 1, y: 0 }, to: { x: 0, y: 0 } }]);
  });

  it('says a board with one stone on a target is solved already, and one stone elsewhere is not', () => {
    expect(solve(boardFromRows(['eY']), GENEROUS)).toMatchObject({ solvable: 'yes', solution: [] });
    // The stone cannot move (nothing to jump over), so it can never reach the target.
    const result = solve(boardFromRows(['yE']), GENEROUS);
    expect(result.solvable).toBe('no');
  });

  it('says a board without stones cannot be solved', () => {
    expect(solve(boardFromRows(['eee']), GENEROUS)).toMatchObject({ solvable: 'no', reason: 'no stones' });
  });

  it('proves by parity that the last stone cannot reach a target two slots behind the only landing slot', () => {
    // Row y y e E: the only jump lands on slot 2, and no jump can ever put a stone on slot 3 after.
    expect(solve(boardFromRows(['yyeE']), GENEROUS)).toMatchObject({ solvable: 'no', reason: 'parity' });
    expect(solve(boardFromRows(['yyEe']), GENEROUS).solvable).toBe('yes');
  });

  it('proves by exhausting the search when parity allows a finish but no jump exists', () => {
    // y e y: parity allows a last stone on the middle slot, but neither stone has a stone to jump over.
    expect(solve(boardFromRows(['yey']), GENEROUS)).toMatchObject({ solvable: 'no', reason: 'exhausted' });
  });

  it('uses diagonal jumps only in diagonal mode', () => {
    const rows = ['yee', 'eye', 'eee'];
    expect(solve(boardFromRows(rows, 'normal'), GENEROUS).solvable).toBe('no');
    const jumps = solution(solve(boardFromRows(rows, 'diagonal'), GENEROUS));
    expect(jumps).toHaveLength(1);
    expect(jumps[0].to).toEqual({ x: 2, y: 2 });
  });

  it('ends on the target when there is one, not just anywhere', () => {
    // The English board with the target moved to the top arm: parity-compatible with the centre start.
    const rows = [...ENGLISH];
    rows[3] = 'yyyeyyy';
    rows[0] = '**yYy**';
    const board = boardFromRows(rows);
    const played = playJumps(board, solution(solve(board, GENEROUS)));
    const left = played.board.cells.flatMap((cell, i) => (cell.kind === 'slot' && cell.stone ? [i] : []));
    expect(left).toEqual([3]);
  });

  it('answers unknown when the budget runs out, and counts the positions it looked at', () => {
    const result = solve(boardFromRows(ENGLISH), { timeBudgetMs: 60_000, maxNodes: 10 });
    expect(result.solvable).toBe('unknown');
    expect(result.nodes).toBeGreaterThan(10);
  });

  it('answers unknown on a large board given no time', () => {
    const rows = Array.from({ length: 9 }, (_, y) => (y === 4 ? 'yyyyeyyyy' : 'yyyyyyyyy'));
    expect(solve(boardFromRows(rows), { timeBudgetMs: 0 }).solvable).toBe('unknown');
  });

  it('solves boards with stones of every colour without caring about colour', () => {
    const board = boardFromRows(['rge']);
    expect(census(board).stoneValue).toBe(40);
    const played = playJumps(board, solution(solve(board, GENEROUS)));
    expect(played.points).toBe(10); // the green stone was jumped; no targets, so no bonus
  });
});

describe('solve on boards too large to search', () => {
  it('answers unknown at once for more than MAX_SEARCHED_SLOTS slots', () => {
    const side = Math.ceil(Math.sqrt(MAX_SEARCHED_SLOTS + 1));
    const rows = Array.from({ length: side }, (_, y) => (y === 0 ? 'e' + 'y'.repeat(side - 1) : 'y'.repeat(side)));
    expect(solve(boardFromRows(rows), GENEROUS)).toEqual({ solvable: 'unknown', nodes: 0 });
  });
});
