import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError } from '../../../../src/core/errors.js';
import type { GameRecord, ReadOptions, UploadedFile } from '../../../../src/formats/plugin.js';
import { VK_CODE_FORMAT, VK_SAVE_FORMAT, vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const here = dirname(fileURLToPath(import.meta.url));
const fullGame = readFileSync(join(here, './fixtures/full-game.txt'));
const bareCode = readFileSync(join(here, './fixtures/bare-code.txt'));
const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

const upload = (content: string | Buffer): UploadedFile => ({ bytes: Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8') });
const read = (content: string | Buffer): Promise<GameRecord> => vkDotsPlugin.read(upload(content), options);
const regenerate = async (content: string | Buffer): Promise<string> => (await vkDotsPlugin.regenerate(upload(content), options)).content.toString();
/** The code with every surround record removed: the bare moves. */
const movesOnly = (code: string): string => code.replace(/#[^#]*#[^#]*#[^#]*#[^#]*#/g, '');
const fullLines = fullGame.toString('utf8').split('\n');
const fullCode = fullLines[4];
const withCode = (code: string): string => [...fullLines.slice(0, 4), code, ''].join('\n');

async function formatError(content: string): Promise<FormatError> {
  try {
    await read(content);
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('the seed examples', () => {
  it('regenerates the full saved game byte for byte', async () => {
    const regenerated = await vkDotsPlugin.regenerate(upload(fullGame), options);
    expect(Buffer.from(regenerated.content)).toEqual(fullGame);
    expect([regenerated.publisher, regenerated.version]).toEqual(['VK Dots', '1.0']);
  });

  it('keeps blank lines after the code as they were', async () => {
    const text = fullGame.toString('utf8') + '\n\n';
    expect(await regenerate(text)).toBe(text);
    expect((await read(text)).body).toBe(fullCode);
  });

  it('regenerates the bare code byte for byte', async () => {
    expect(await regenerate(bareCode)).toBe(bareCode.toString('utf8'));
  });

  it('regenerates every record of the full game from the bare moves', async () => {
    const stripped = movesOnly(fullCode);
    expect(stripped.includes('#')).toBe(false);
    expect(await regenerate(withCode(stripped))).toBe(fullGame.toString('utf8'));
  });

  it('regenerates the record of the bare code from its bare moves', async () => {
    expect(await regenerate(movesOnly(bareCode.toString('utf8')))).toBe(bareCode.toString('utf8'));
  });

  it('indexes the full game: players, flags, scores, surrounds', async () => {
    const record = await read(fullGame);
    expect([record.publisher, record.version, record.family]).toEqual(['VK Dots', '1.0', 'dots']);
    expect(record.header).toBe('1.0\n22029176 For You\n17047038 Павел Слепнев\n-s-');
    expect(record.body).toBe(fullCode);
    const analysis = record.analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    // The last record writes 8@29; the code holds no 0f/0s, so the game has not ended.
    expect(analysis.players).toEqual([
      { seat: 0, name: 'For You', externalId: '22029176', color: 'red', declaredPoints: 8, points: 8, captures: 8, outcome: 'unfinished' },
      { seat: 1, name: 'Павел Слепнев', externalId: '17047038', color: 'blue', declaredPoints: 29, points: 29, captures: 29, outcome: 'unfinished' },
    ]);
    expect(analysis.moveCount).toBe(movesOnly(fullCode).length / 2);
    expect(analysis.details).toMatchObject({
      flags: { extraMove: false, fieldSize: 's', crossStart: false },
      surrounds: (fullCode.match(/#[^#]*#[^#]*#[^#]*#[^#]*#/g) ?? []).length,
      endedBy: null,
    });
    expect(analysis.details.surrounds).toBe(17);
    expect(analysis.result).toBeNull();
  });

  it('replays the first surround as a ply: blue c7 captures b7', async () => {
    // b7 a6 a8 a7 95 b8 a5 b6 c6 c7#c7b8a7b6#b7##0@1# — the 10th dot, blue's.
    const ply = (await read(fullGame)).analysis!.replay[9];
    expect(ply).toMatchObject({ ply: 10, player: 1, move: 'c7', captured: ['b7'], score: [0, 1] });
    expect(ply.details).toMatchObject({ row: 12, col: 7, chains: ['c7b8a7b6'], empty: [], record: '#c7b8a7b6#b7##0@1#' });
  });

  it('indexes the bare code under version "code" without header or names', async () => {
    const record = await read(bareCode);
    expect([record.publisher, record.version, record.header, record.body]).toEqual(['VK Dots', 'code', null, bareCode.toString('utf8')]);
    expect(record.analysis!.verdict.consistent).toBe(true);
    expect(record.analysis!.players.map((p) => [p.name, p.externalId, p.declaredPoints, p.points])).toEqual([
      [null, null, 0, 0],
      [null, null, 15, 15],
    ]);
  });
});

describe('verdicts', () => {
  it('names the move whose written record differs from the regenerated one', async () => {
    // Only the score at the end of the record is wrong (blue has 1, not 2): the cached points.
    const analysis = (await read(withCode(fullCode.replace('#c7b8a7b6#b7##0@1#', '#c7b8a7b6#b7##0@2#')))).analysis!;
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems).toHaveLength(1);
    expect(analysis.verdict.problems[0]).toMatchObject({ code: 'cache.points', ply: 10 });
    expect(analysis.verdict.problems[0].message).toContain('c7');
    expect(analysis.verdict.problems[0].message).toContain('0@2');
    // The regenerated file repairs it.
    expect(await regenerate(withCode(fullCode.replace('0@1#', '0@2#')))).toBe(fullGame.toString('utf8'));
  });

  it('reports a record whose captured dots differ as a wrong surround', async () => {
    // The record names b8 as the captured dot; the replay captures b7 (the score agrees).
    const analysis = (await read(withCode(fullCode.replace('#c7b8a7b6#b7##0@1#', '#c7b8a7b6#b8##0@1#')))).analysis!;
    expect(analysis.verdict.problems.map((p) => [p.code, p.ply])).toEqual([['cache.surrounds', 10]]);
    expect(analysis.verdict.problems[0].message).toContain('the replay regenerates #c7b8a7b6#b7##0@1#');
  });

  it('reports a surround the file does not record, and a record for a move that surrounds nothing', async () => {
    const missing = (await read(withCode(fullCode.replace('#c7b8a7b6#b7##0@1#', '')))).analysis!;
    expect(missing.verdict.problems.map((p) => [p.code, p.ply])).toEqual([['cache.surrounds', 10]]);
    expect(missing.verdict.problems[0].message).toContain('writes no record');
    const extra = (await read('b7a6#a5#b7##0@0#')).analysis!;
    expect(extra.verdict.consistent).toBe(false);
    expect(extra.verdict.problems[0]).toMatchObject({ code: 'cache.surrounds', ply: 2 });
    expect(extra.verdict.problems[0].message).toContain('surrounds nothing');
  });

  it('marks a move onto an occupied point as illegal', async () => {
    const analysis = (await read(withCode(fullCode + 'b7'))).analysis!;
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems).toEqual([{ code: 'dots.occupied', ply: analysis.moveCount, message: expect.stringContaining('occupied') }]);
  });

  it('marks a move into a surrounded area as illegal', async () => {
    // The record …b4#d3d4c5b4a3b2c2#b3c3#c4#5@17# made c4 an empty point of blue's area.
    const analysis = (await read(withCode(fullCode + 'c4'))).analysis!;
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems).toEqual([{ code: 'dots.inside_surround', ply: analysis.moveCount, message: expect.stringContaining('inside a surrounded area') }]);
  });

  it('marks a move off the field (coordinate 0) as illegal, not malformed', async () => {
    const analysis = (await read('b7a6a0')).analysis!;
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems).toEqual([{ code: 'dots.off_board', ply: 3, message: expect.stringContaining('off the field') }]);
  });
});

describe('malformed codes (422 with the character offset)', () => {
  it.each([
    ['odd length', 'b7a6a', 4, 'two characters'],
    ['unterminated record', 'b7a6#a5b6', 4, 'unterminated'],
    ['unterminated score', 'b7a6#a5#b7##0@1', 4, 'unterminated'],
    ['bad score', 'b7a6#a5#b7##0@x#', 12, 'bad score'],
    ['character outside the code alphabet', 'b7a6#a5#b7##0-1#', 13, 'not a base-36 digit'],
    ['uppercase digit', 'b7A6', 2, 'not a base-36 digit'],
    ['@ outside a chain', 'b7a6#a5#@b##0@1#', 8, 'bad base-36 digit'],
    ['half a pair in a list', 'b7a6#a5#b##0@1#', 8, 'two characters'],
    ['record after a stop', 'b7a60f#a5#b7##0@1#', 6, 'record after 0f'],
    ['record where a move belongs', '#b7a6', 0, 'where a move was expected'],
  ])('%s', async (_name, code, offset, text) => {
    const error = await formatError(code);
    expect(error.status).toBe(422);
    expect(error.issues[0]).toMatchObject({ offset, line: 1, column: offset + 1 });
    expect(error.issues[0].message).toContain(text);
  });

  it('counts the offset from the start of a save file', async () => {
    const text = withCode('b7a6a');
    const error = await formatError(text);
    expect(error.issues[0]).toMatchObject({ offset: text.indexOf('b7a6a') + 4, line: 5, column: 5 });
  });

  it('rejects bad header lines with their line', async () => {
    const lines = fullGame.toString('utf8').split('\n');
    const badFlags = [...lines.slice(0, 3), '-x-', ...lines.slice(4)].join('\n');
    expect((await formatError(badFlags)).issues[0]).toMatchObject({ line: 4 });
    const badPlayer = [lines[0], 'For You', ...lines.slice(2)].join('\n');
    await expect(read(badPlayer)).rejects.toBeInstanceOf(FormatError);
  });
});

describe('stops, extra moves and the cases the examples leave open', () => {
  it('gives every move after 0f to blue', async () => {
    const analysis = (await read('b7a60fa5a4')).analysis!;
    expect(analysis.replay.map((p) => [p.move, p.player])).toEqual([
      ['b7', 0],
      ['a6', 1],
      ['a5', 1],
      ['a4', 1],
    ]);
    expect(analysis.details).toMatchObject({ endedBy: 'red', endedAfterMove: 2 });
    expect(analysis.result).toBe('red ended the game; draw 0:0');
  });

  it('lets the surrounder move again when the first flag is +', async () => {
    // Red 23 32 43 around blue 33, red closes with 34 (captures 33), moves again (45), then blue.
    const code = '233332aa43ab34#43342332#33##1@0#45ac';
    const save = ['1.0', '1 a', '2 b', '+s-', code].join('\n');
    const analysis = (await read(save)).analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.replay.map((p) => p.player)).toEqual([0, 1, 0, 1, 0, 1, 0, 0, 1]);
  });

  it("captures an enemy dot played into an empty enclosure at the owner's next move", async () => {
    // Red closes an empty ring around 33; blue plays into it; red plays far away (zz).
    const code = '23aa32ab43ac3433zz';
    const analysis = (await read(code)).analysis!;
    const last = analysis.replay[8];
    expect(last).toMatchObject({ move: 'zz', player: 0, captured: ['33'], score: [1, 0] });
    expect(last.details).toMatchObject({ deferred: true, chains: ['43342332'] });
    expect(await regenerate(code)).toBe('23aa32ab43ac3433zz#43342332#33##1@0#');
  });
});

describe('flags and field', () => {
  it('indexes the flags of line 4 and replays on the 35x35 field a code can address', async () => {
    const save = ['1.0', '5 Анна', '6 Борис', '-b+', 'zz11z1'].join('\n');
    const analysis = (await read(save)).analysis!;
    expect(analysis.details).toMatchObject({ flags: { extraMove: false, fieldSize: 'b', crossStart: true }, field: { width: 35, height: 35 } });
    // zz and z1 are corners of the 35x35 field: legal dots, not off the field.
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.players.map((p) => [p.name, p.externalId, p.declaredPoints])).toEqual([
      ['Анна', '5', null],
      ['Борис', '6', null],
    ]);
  });

  it('keeps CRLF line ends and a byte order mark when regenerating', async () => {
    const text = fullGame.toString('utf8').replace(/\n/g, '\r\n');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(withCode(movesOnly(fullCode)).replace(/\n/g, '\r\n'))]);
    const regenerated = await vkDotsPlugin.regenerate(upload(bom), options);
    expect(Buffer.from(regenerated.content)).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
  });
});

describe('detection', () => {
  it('claims save files and bare codes', () => {
    expect(vkDotsPlugin.detect(upload(fullGame))).toBe(true);
    expect(vkDotsPlugin.detect(upload(bareCode))).toBe(true);
    expect(vkDotsPlugin.detect(upload(bareCode.toString() + '\n'))).toBe(true);
    expect(vkDotsPlugin.detect(upload(fullGame.toString() + '\n\n'))).toBe(true);
  });

  it.each([
    ['an SGF game', '(;FF[4]GM[40]SZ[39:32];B[aa];W[bb])'],
    ['a dots server 204 answer', '204\nACU alice\nAUF 1 1\nSCR 0 0\nGAL 00\nGAL 00\n\n'],
    ['prose', 'hello world'],
    ['a number', '12345678'],
    ['two code lines', 'b7a6\nb7a6'],
    ['a PDN tag', '[Event "USSR"]'],
    ['an empty file', ''],
  ])('does not claim %s', (_name, text) => {
    expect(vkDotsPlugin.detect(upload(text))).toBe(false);
  });

  it('refuses a named format that does not match the upload', async () => {
    await expect(vkDotsPlugin.read(upload(bareCode), { ...options, format: VK_SAVE_FORMAT })).rejects.toBeInstanceOf(FormatError);
    await expect(vkDotsPlugin.read(upload(fullGame), { ...options, format: VK_CODE_FORMAT })).rejects.toBeInstanceOf(FormatError);
  });
});
