import { FormatError } from '../../../../src/core/errors.js';
import { dotsServerPlugin } from '../../../../src/formats/plugins/dots-board-state/plugin.js';
import type { UploadedFile } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const upload = (text: string): UploadedFile => ({ bytes: Buffer.from(text, 'utf8') });

/** A 204 answer as the design document writes it: code line, body lines, a blank line. */
function answer(scr: string, rows: string[], auf = '1 1', acu = 'alice'): string {
  return ['204 game state', `ACU ${acu}`, `AUF ${auf}`, `SCR ${scr}`, ...rows.map((r) => `GAL ${r}`), '', ''].join('\n');
}

// Red (1) has captured one blue dot (6) and holds one surrounded empty point (9).
const rows = ['000000', '001100', '019610', '001100', '000000'];

describe('Dots server response 204', () => {
  it('indexes players, scores, board size and dot counts', async () => {
    const record = await dotsServerPlugin.read(upload(answer('1 0', rows)), options);
    expect([record.publisher, record.version, record.family]).toEqual(['Dots server', '204', 'dots']);
    const analysis = record.analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.players.map((p) => [p.seat, p.name, p.color, p.declaredPoints, p.points])).toEqual([
      [0, 'player 1', '1', 1, 1],
      [1, 'player 2', '2', 0, 0],
    ]);
    expect(analysis.moveCount).toBe(7); // 6 red dots + 1 captured blue dot
    expect(analysis.replay).toEqual([]);
    expect(analysis.details).toMatchObject({
      width: 6,
      height: 5,
      toMove: 'alice',
      active: [true, true],
      liveDots: [6, 0],
      capturedDots: [0, 1],
      surroundedEmpty: 1,
    });
  });

  it('reports an SCR line that disagrees with the board, and regenerates it', async () => {
    const text = answer('0 3', rows);
    const analysis = (await dotsServerPlugin.read(upload(text), options)).analysis!;
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems).toEqual([
      { code: 'cache.points', ply: null, message: 'SCR gives player 1 0, the board gives 1' },
      { code: 'cache.points', ply: null, message: 'SCR gives player 2 3, the board gives 0' },
    ]);
    const regenerated = await dotsServerPlugin.regenerate(upload(text), options);
    expect(regenerated.content).toBe(answer('1 0', rows));
  });

  it('reports points marked surrounded that no live dots enclose', async () => {
    // A captured blue dot (6) at x=2, y=2 and a surrounded empty point (9) at x=3, y=2, with no red
    // dot anywhere: nothing encloses them, so they score for nobody and SCR 0 0 agrees.
    const loose = ['000000', '000000', '006900', '000000', '000000'];
    const analysis = (await dotsServerPlugin.read(upload(answer('0 0', loose)), options)).analysis!;
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems).toEqual([
      { code: 'cache.surrounds', ply: null, message: "point 2,2 (x,y) is marked surrounded, but no player's live dots enclose it" },
      { code: 'cache.surrounds', ply: null, message: "point 3,2 (x,y) is marked surrounded, but no player's live dots enclose it" },
    ]);
  });

  it('reads 4 players', async () => {
    const four = ['0000000', '0044400', '0456740', '0044400', '0000000'];
    const analysis = (await dotsServerPlugin.read(upload(answer('0 0 0 3', four, '1 1 0 1')), options)).analysis!;
    expect(analysis.verdict.consistent).toBe(true);
    expect(analysis.players).toHaveLength(4);
    expect(analysis.details.active).toEqual([true, true, false, true]);
  });

  it.each([
    ['a dot of a player the game does not have', answer('0 0', ['000', '030', '000']), 6, 6],
    ['rows of different lengths', answer('0 0', ['000', '00', '000']), 6, 1],
    ['AUF with one player', answer('0', ['000'], '1'), 3, 1],
    ['SCR count differing from AUF', answer('0 0 0', ['000']), 4, 1],
    ['no GAL rows', '204\nACU a\nAUF 1 1\nSCR 0 0\n\n', 5, 1],
    ['text after the rows', answer('0 0', ['000']) + 'XYZ\n', 7, 1],
  ])('rejects %s with its line and column', async (_name, text, line, column) => {
    const error = await dotsServerPlugin.read(upload(text), options).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).issues[0]).toMatchObject({ line, column });
  });

  it('claims 204 answers only', () => {
    expect(dotsServerPlugin.detect(upload(answer('1 0', rows)))).toBe(true);
    expect(dotsServerPlugin.detect(upload('b7a6a8a795b8a5b6c6c7#c7b8a7b6#b7##0@1#'))).toBe(false);
    expect(dotsServerPlugin.detect(upload('202\nGID 1\n'))).toBe(false);
    expect(dotsServerPlugin.detect(upload('(;GM[40]SZ[20];B[aa])'))).toBe(false);
    expect(dotsServerPlugin.detect(upload('2040\nACU x\n'))).toBe(false);
  });
});
