import { census } from '../../../src/rules/peg-solitaire/board.js';
import { IllegalJumpError, playJumps } from '../../../src/rules/peg-solitaire/play.js';
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

  it('rejects jumps that break the rules, naming the jump', () => {
    const board = boardFromRows(['yyey', 'eeee', 'yeee']);
    expect(() => playJumps(board, [{ from: p(0, 0), to: p(3, 0) }])).toThrow(IllegalJumpError);
    expect(() => playJumps(board, [{ from: p(0, 0), to: p(2, 0) }, { from: p(0, 0), to: p(2, 0) }])).toThrow(/jump 2: no stone to jump with/);
    expect(() => playJumps(board, [{ from: p(3, 0), to: p(1, 0) }])).toThrow(/jump 1: no stone to jump over/);
    expect(() => playJumps(boardFromRows(['yyy']), [{ from: p(0, 0), to: p(2, 0) }])).toThrow(/landing slot is not empty/);
    // A diagonal jump in normal mode.
    expect(() => playJumps(board, [{ from: p(0, 2), to: p(2, 0) }])).toThrow(/not a normal jump/);
  });
});
