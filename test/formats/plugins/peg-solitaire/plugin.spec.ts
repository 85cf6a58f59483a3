import { FormatError } from '../../../../src/core/errors.js';
import { PEG_V1, PEG_V2, pegSolitairePlugin as plugin, readBoardFile } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { playJumps } from '../../../../src/rules/peg-solitaire/play.js';
import { realBoardFiles } from '../../../support/peg-solitaire/boards.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const files = realBoardFiles();
const real = (folder: string, name: string) => {
  const file = files.find((f) => f.folder === folder && f.name === name);
  if (!file) throw new Error(`no ${folder}/${name}`);
  return { bytes: file.bytes, filename: name };
};
const upload = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });
const BUDGET = { timeBudgetMs: 20_000, limits: DEFAULT_LIMITS };

/** `c4` → matrix point (column letters from the left, rows from the top). */
function pointOf(name: string) {
  const match = /^([a-z]+)(\d+)$/.exec(name);
  if (!match) throw new Error(`bad slot name ${name}`);
  const x = [...match[1]].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 96), 0) - 1;
  return { x, y: Number(match[2]) - 1 };
}

describe('peg solitaire plugin: detect', () => {
  it('claims both versions, with or without a BOM and whatever the line ends', () => {
    for (const file of files) expect(plugin.detect(file)).toBe(true);
    expect(plugin.detect(upload('\uFEFF1N~22E!'))).toBe(true);
    expect(plugin.detect(upload('1\r\nD\r\n~\r\n22E!'))).toBe(true);
    expect(plugin.detect(upload('VERSION 2\rmode: normal\r'))).toBe(true);
  });

  it('claims nothing else', () => {
    for (const text of ['', '(;GM[1]FF[4]SZ[19])', '<?xml version="1.0"?><Game/>', '[Event "x"]\n1. 32-28', '1X~22E!', '10~', 'version 20\nmode: normal', 'Version 2.1', '2N~']) {
      expect(plugin.detect(upload(text))).toBe(false);
    }
    expect(plugin.detect({ bytes: Buffer.from([0xff, 0xfe, 0x00, 0x31]) })).toBe(false);
  });

  it('declares two formats of one publisher', () => {
    expect(plugin.formats.map((f) => [f.publisher, f.version, f.family, f.extensions[0], f.mediaTypes[0]])).toEqual([
      ['ViaThinkSoft Peg Solitaire', '1', 'peg-solitaire', '.brd', 'text/plain'],
      ['ViaThinkSoft Peg Solitaire', '2', 'peg-solitaire', '.brd', 'text/plain'],
    ]);
  });
});

describe('peg solitaire plugin: read', () => {
  it('indexes the English board and serves a solution that replays to one stone on the centre', async () => {
    const record = await plugin.read(real('v1_e522458', 'English Standard Board.brd'), BUDGET);
    expect(record).toMatchObject({ publisher: 'ViaThinkSoft Peg Solitaire', version: '1', header: '1N~', family: 'peg-solitaire' });
    expect(record.body).toMatch(/^XX222XX!\r\n/);
    const analysis = record.analysis!;
    expect(analysis.players).toEqual([]);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.result).toBe('solvable');
    expect(analysis.details).toMatchObject({
      formatVersion: 1,
      mode: 'normal',
      width: 7,
      height: 7,
      slots: 33,
      stones: { red: 0, yellow: 32, green: 0 },
      stoneCount: 32,
      stoneValue: 640,
      targets: 1,
      solvable: 'yes',
      solutionPoints: 31 * 20 + 20 * 100,
      targetBonus: 2000,
    });
    expect(analysis.moveCount).toBe(31);
    expect(analysis.replay).toHaveLength(31);

    // The replay, read back from its own notation, is a legal game ending on the target.
    const jumps = analysis.replay.map((ply) => {
      expect(ply.player).toBeNull();
      const [from, to] = ply.move.split('-').map(pointOf);
      const over = pointOf(ply.captured[0]);
      expect(over).toEqual({ x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 });
      return { from, to };
    });
    const { board } = readBoardFile(real('v1_e522458', 'English Standard Board.brd'));
    const played = playJumps(board, jumps);
    expect(played.bonus).toBe(2000);
    expect(analysis.replay.map((p) => p.score[0])).toEqual(played.jumps.map((j) => j.total));
    expect(analysis.replay[30].score).toEqual([2620]);
  });

  it('says unsolvable, with the reason, for a board parity rules out (the 37-hole board from its centre, no diagonal moves)', async () => {
    const record = await plugin.read(real('v2_head', 'Drag-n-Drop Board Variant A.brd'), BUDGET);
    expect(record.analysis).toMatchObject({ result: 'unsolvable', moveCount: 0, replay: [], details: { solvable: 'no', unsolvableBecause: 'parity' } });
  });

  it('says unknown, with no replay, when the budget is too small for the board', async () => {
    const record = await plugin.read(real('v2_head', 'FunCircus.brd'), { timeBudgetMs: 0, limits: DEFAULT_LIMITS });
    expect(record.analysis).toMatchObject({ result: null, moveCount: 0, replay: [], details: { solvable: 'unknown', slots: 81 } });
  });

  it('reads a version-2 file with its header lines and dot reading', async () => {
    const record = await plugin.read(real('v2_head', 'Star.brd'), BUDGET);
    expect(record).toMatchObject({ version: '2', header: 'Version 2\r\nMode: Diagonal' });
    expect(record.body!.startsWith('* * * e * ...')).toBe(true);
    expect(record.analysis!.details).toMatchObject({ formatVersion: 2, dotReading: 'shift', mode: 'diagonal' });
  });

  it('follows the format the uploader named, and reports a mismatch as a format error', async () => {
    const v2 = real('v2_head', 'Star.brd');
    await expect(plugin.read(v2, { ...BUDGET, format: PEG_V2 })).resolves.toMatchObject({ version: '2' });
    await expect(plugin.read(v2, { ...BUDGET, format: PEG_V1 })).rejects.toBeInstanceOf(FormatError);
  });

  it('answers malformed boards with 422 and the place of the problem', async () => {
    const error = await plugin.read(upload('1N~\r\n22E!\r\n2!2E\r\n'), BUDGET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).status).toBe(422);
    expect((error as FormatError).issues[0]).toMatchObject({ line: 3, column: 2 });
  });

  it('rejects text that is not UTF-8 with its byte offset', async () => {
    const error = await plugin.read({ bytes: Buffer.from([0x31, 0x4e, 0x7e, 0x32, 0xff, 0x21]) }, BUDGET).catch((e: unknown) => e);
    expect((error as FormatError).issues[0]).toMatchObject({ offset: 4 });
  });
});

describe('peg solitaire plugin: regenerate', () => {
  it('upgrades a version-1 board to canonical version 2', async () => {
    const regenerated = await plugin.regenerate(real('v1_e522458', 'English Standard Board.brd'), BUDGET);
    expect(regenerated).toMatchObject({ publisher: 'ViaThinkSoft Peg Solitaire', version: '2', filename: 'English Standard Board.regenerated.brd' });
    expect(regenerated.content).toBe(
      ['Version 2', 'Mode: Normal', '* * y y y * *', '* * y y y * *', 'y y y y y y y', 'y y y E y y y', 'y y y y y y y', '* * y y y * *', '* * y y y * *', ''].join('\r\n'),
    );
    // The first version-2 program wrote exactly this board (with the same CRLF line ends).
    expect(regenerated.content).toBe(real('v2_4bf2dc7', 'English Standard Board.brd').bytes.toString('utf8'));
  });

  it('writes half-width fields as locked cells with the row shifted back by trailing dots', async () => {
    const regenerated = await plugin.regenerate(real('v1_e522458', 'Triangle Board Variant A.brd'), BUDGET);
    expect(String(regenerated.content).split('\r\n')).toEqual([
      'Version 2',
      'Mode: Diagonal',
      '* * * * e ....',
      '* * * y y ...',
      '* * y y y ..',
      '* y y y y .',
      'y y Y y y',
      '',
    ]);
  });

  it('keeps a current version-2 file as it is when it is already canonical', async () => {
    const file = real('v2_head', 'Triangle Board Variant A.brd');
    const regenerated = await plugin.regenerate(file, BUDGET);
    expect(regenerated.content).toBe(file.bytes.toString('utf8'));
  });
});

describe('peg solitaire plugin: large uploads', () => {
  it('reads a board of a million cells when MAX_BOARD_SIDE allows it, indexes it and leaves it unsearched (unknown)', async () => {
    const row = 'E' + '2'.repeat(999);
    const text = '1N~\r\n' + row + '!\r\n' + `${row}\r\n`.repeat(999);
    const refusal = await plugin.read(upload(text), BUDGET).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'limit.board' });
    const record = await plugin.read(upload(text), { ...BUDGET, limits: { ...DEFAULT_LIMITS, maxBoardSide: 1000 } });
    expect(record.analysis!.details).toMatchObject({ width: 1000, height: 1000, slots: 1_000_000, stoneCount: 999_000, solvable: 'unknown' });
    expect(record.analysis!.replay).toEqual([]);
  });
});
