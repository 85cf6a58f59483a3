import { coordinate, parseDotsSgf } from '../../support/dots/dots-sgf.js';
import { sgfToVkCode } from '../../support/dots/sgf-to-vk.js';

describe('SGF Dots coordinates and the VK code converter', () => {
  it('reads a-z as 0-25 and A-Z as 26-51', () => {
    expect([coordinate('a'), coordinate('z'), coordinate('A'), coordinate('Z')]).toEqual([0, 25, 26, 51]);
  });

  it('writes row then column, 1-based base-36: B[cb] is column 2, row 1 -> "23"; W[Ai] -> row 9, col 27 = "9r"', () => {
    const conversion = sgfToVkCode(parseDotsSgf('(;GM[40]SZ[30];B[cb];W[Ai])'));
    expect(conversion).toEqual({ ok: true, code: '239r', width: 30, height: 30, redColour: 0, setupMoves: 0 });
  });

  it('ignores the chains written after a move and follows the main line only', () => {
    const game = parseDotsSgf('(;GM[40]SZ[5];B[bb];W[cc.bcabcb](;B[dd])(;B[ee]))');
    expect(game.moves.map((m) => [m.row, m.col, m.chains.length])).toEqual([
      [1, 1, 0],
      [2, 2, 1],
      [3, 3, 0],
    ]);
    expect(sgfToVkCode(game)).toMatchObject({ ok: true, code: '223344' });
  });

  it('lets White be red when White moves first', () => {
    expect(sgfToVkCode(parseDotsSgf('(;GM[40]SZ[9];W[aa];B[bb])'))).toMatchObject({ ok: true, redColour: 1, code: '1122' });
  });

  it('refuses fields beyond 35 and games that do not alternate', () => {
    expect(sgfToVkCode(parseDotsSgf('(;GM[40]SZ[36:20];B[aa])'))).toEqual({ ok: false, reason: 'field 36x20 is larger than a VK code can address (35)' });
    expect(sgfToVkCode(parseDotsSgf('(;GM[40]SZ[9];B[aa];B[bb])'))).toMatchObject({ ok: false, reason: 'not alternating at move 2 (B moves twice)' });
    expect(() => parseDotsSgf('(;GM[1]SZ[19];B[aa])')).toThrow('not a Dots SGF');
  });
});
