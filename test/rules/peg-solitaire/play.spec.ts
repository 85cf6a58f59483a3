import { census } from '../../../src/rules/peg-solitaire/board.js';
import type { MoveMode } from '../../../src/rules/peg-solitaire/board.js';
import { PEG_ILLEGAL, PegIllegal } from '../../../src/rules/peg-solitaire/illegal.js';
import { IllegalJumpError, judgeJump, playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { boardFromRows } from '../../support/peg-solitaire/boards.js';

const p = (x: number, y: number) => ({ x, y });

describe('playJumps', () => {
  it('scores the value of each jumped stone and moves the jumping stone', () => {
    const board = boardFromRows(['rgye']);
    // green (10) over yellow (20) into the empty slot, then red (30) over… nothing: only one jump.
    const played = playJumps(board, [{ from: p(1, 0), to: p(3, 0) }]);
    expect(played.jumps[0]).toMatchObject({ stone: 'green', captured: 'yellow', points: 20, total: 20, stonesLeft: 2 });
    expect(census(played.board).stones).toEqual({ red: 1, yellow: 0, green: 1 });
  });

  it('adds the last stone’s value × 100 when it ends on a target', () => {
    const played = playJumps(boardFromRows(['rgE']), [{ from: p(0, 0), to: p(2, 0) }]);
    expect(played.bonus).toBe(3000);
    expect(played.points).toBe(10 + 3000);
    expect(played.jumps[0].total).toBe(3010);
  });

  it('gives no bonus when the last stone ends off the targets', () => {
    const played = playJumps(boardFromRows(['Rge']), [{ from: p(0, 0), to: p(2, 0) }]);
    expect(played.bonus).toBe(0);
    expect(played.points).toBe(10);
  });

  it('rejects jumps that break the rules, naming the jump and the rule', () => {
    const board = boardFromRows(['yyey', 'eeee', 'yeee']);
    expect(() => playJumps(board, [{ from: p(0, 0), to: p(3, 0) }])).toThrow(IllegalJumpError);
    // The first jump empties 0,0, so the second has no stone to jump with.
    const twice = () => playJumps(board, [{ from: p(0, 0), to: p(2, 0) }, { from: p(0, 0), to: p(2, 0) }]);
    expect(twice).toThrow(/jump 2, \(0,0\) to \(2,0\): no_stone/);
    expect(twice).toThrow(expect.objectContaining({ index: 1, reason: 'no_stone' }));
    expect(() => playJumps(board, [{ from: p(3, 0), to: p(1, 0) }])).toThrow(expect.objectContaining({ index: 0, reason: 'nothing_to_jump' }));
  });
});

describe('judgeJump reason codes', () => {
  // One hand-made board per rule of PEG_ILLEGAL (rows of `*` locked, r/y/g stones, e empty).
  const cases: Record<PegIllegal, { rows: string[]; mode?: MoveMode; from: [number, number]; to: [number, number] }> = {
    // Three cells to the right is no jump in any mode.
    not_a_jump: { rows: ['yyye'], from: [0, 0], to: [3, 0] },
    // 0,2 over 1,1 to 2,0 is a diagonal: only a diagonal board allows it.
    diagonal_not_allowed: { rows: ['yye', 'yye', 'yee'], from: [0, 2], to: [2, 0] },
    // Jumping left from the first column lands two cells outside the matrix.
    off_board: { rows: ['yye'], from: [0, 0], to: [-2, 0] },
    // The middle cell is locked: no stone ever stands there, so nothing can be jumped over it.
    not_a_slot: { rows: ['y*e'], from: [0, 0], to: [2, 0] },
    // The start is an empty slot.
    no_stone: { rows: ['eye'], from: [0, 0], to: [2, 0] },
    // The slot between start and landing is empty.
    nothing_to_jump: { rows: ['yee'], from: [0, 0], to: [2, 0] },
    // A stone already stands on the landing.
    occupied: { rows: ['yyy'], from: [0, 0], to: [2, 0] },
  };

  it('has a case for every code, and no other', () => {
    expect(Object.keys(cases).sort()).toEqual([...PEG_ILLEGAL].sort());
  });

  it.each(Object.entries(cases))('refuses %s with that code', (reason, { rows, mode, from, to }) => {
    const board = boardFromRows(rows, mode);
    expect(judgeJump(board, p(...from), p(...to))).toEqual({ legal: false, reason });
  });

  it('allows the same diagonal jump on a diagonal board, and the legal cases once repaired', () => {
    expect(judgeJump(boardFromRows(['yye', 'yye', 'yee'], 'diagonal'), p(0, 2), p(2, 0))).toEqual({ legal: true, over: p(1, 1) });
    expect(judgeJump(boardFromRows(['yye']), p(0, 0), p(2, 0))).toEqual({ legal: true, over: p(1, 0) });
  });
});
