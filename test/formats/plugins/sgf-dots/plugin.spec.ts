import { sgfDotsPlugin } from '../../../../src/formats/plugins/sgf-dots/plugin.js';
import { parseResult, parseMoveValue, parseSize } from '../../../../src/formats/plugins/sgf-dots/notation.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { FormatError } from '../../../../src/core/errors.js';
import type { GameAnalysis, ReadOptions } from '../../../../src/formats/plugin.js';

const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const upload = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });
const analyse = async (text: string): Promise<GameAnalysis> => (await sgfDotsPlugin.read(upload(text), options)).analysis!;

// Black closes a diamond cb-dc-cd-bc (column letter first) around White's cc with its 4th dot:
// 1 capture for Black. White's aa and ae are far away.
const diamond = '(;GM[40]FF[4]SZ[5]PB[Ann]PW[Bob]DT[2020-05-04 10:00]EV[Club night]RU[russian]RE[B+1];B[cb];W[cc];B[bc];W[aa];B[dc];W[ae];B[cd.bccbdccdbc])';

describe('SGF GM[40] notation', () => {
  it('reads a dot and the chains written after it, column first', () => {
    expect(parseMoveValue('cd.bccbdc.aabb')).toEqual({
      dot: { row: 3, col: 2 },
      chains: [
        [
          { row: 2, col: 1 },
          { row: 1, col: 2 },
          { row: 2, col: 3 },
        ],
        [
          { row: 0, col: 0 },
          { row: 1, col: 1 },
        ],
      ],
    });
    expect(parseMoveValue('')).toEqual({ dot: null, chains: [] });
    expect(parseMoveValue('Aa')).toEqual({ dot: { row: 0, col: 26 }, chains: [] });
    expect(parseMoveValue('.abba').dot).toBeNull();
  });

  it('reads SZ[n] and SZ[w:h]', () => {
    expect(parseSize('30')).toEqual({ width: 30, height: 30 });
    expect(parseSize('39:32')).toEqual({ width: 39, height: 32 });
    expect(parseSize('x')).toBeNull();
  });

  it('reads the result forms of the real files and the SGF spec', () => {
    expect(parseResult('B+23')).toEqual({ kind: 'score', winner: 0, margin: 23 });
    expect(parseResult('W+R')).toEqual({ kind: 'resign', winner: 1 });
    expect(parseResult('W+0.5')).toEqual({ kind: 'score', winner: 1, margin: 0.5 });
    expect(parseResult('0')).toEqual({ kind: 'draw' });
    expect(parseResult('Draw')).toEqual({ kind: 'draw' });
    expect(parseResult('B+T')).toEqual({ kind: 'time', winner: 0 });
    expect(parseResult('?')).toEqual({ kind: 'unknown' });
    expect(parseResult('black won')).toBeNull();
  });
});

describe('SGF GM[40] plugin: hand-derived games', () => {
  it('replays the diamond: Black captures cc, the written chain and RE[B+1] agree', async () => {
    const analysis = await analyse(diamond);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.players.map((p) => [p.name, p.color, p.captures, p.outcome])).toEqual([
      ['Ann', 'black', 1, 'won'],
      ['Bob', 'white', 0, 'lost'],
    ]);
    expect(analysis.moveCount).toBe(7);
    expect(analysis.replay[6]).toMatchObject({ ply: 7, player: 0, move: 'cd', captured: ['cc'], score: [1, 0] });
    expect(analysis.facts).toEqual({ boardWidth: 5, boardHeight: 5, datePlayed: '2020-05-04', event: 'Club night', rules: 'russian', ending: 'score', margin: 1 }); // RE[B+1]: counted, by one dot
    expect(analysis.result).toBe('black wins by 1');
  });

  it('gives each player the rating BR and WR write', async () => {
    const analysis = await analyse(diamond.replace('PW[Bob]', 'PW[Bob]BR[1520]WR[1610.5]'));
    expect(analysis.players.map((p) => [p.name, p.rating])).toEqual([
      ['Ann', '1520'],
      ['Bob', '1610.5'],
    ]);
  });

  it('flags a wrong result (cache.points) and a chain around nothing (cache.surrounds)', async () => {
    const analysis = await analyse(diamond.replace('RE[B+1]', 'RE[W+2]').replace('B[cd.bccbdccdbc]', 'B[cd.aabaabaa]'));
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems.map((p) => [p.code, p.ply])).toEqual([
      ['cache.points', null],
      ['cache.surrounds', 7],
    ]);
    // Outcomes follow the file's RE; the verdict says it disagrees with the replay.
    expect(analysis.players.map((p) => p.outcome)).toEqual(['lost', 'won']);
  });

  it('flags a dot on the captured dot as illegal (dots.occupied)', async () => {
    const analysis = await analyse(diamond.replace(')', ';W[cc])').replace('RE[B+1]', ''));
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems.map((p) => [p.code, p.ply])).toEqual([['dots.occupied', 8]]);
  });

  it('ends by grounding on an empty move: the grounding player gives up the dots cut off from the edge', async () => {
    // 5x3, middle row: Black bb cb, White db; none of them touches the edge.
    const black = await analyse('(;GM[40]SZ[5:3];B[bb];W[db];B[cb];W[ea];B[])');
    // W[ea] is on the edge: only bb and cb (Black) are cut off.
    expect(black.players.map((p) => [p.captures, p.outcome])).toEqual([
      [0, 'lost'],
      [2, 'won'],
    ]);
    expect(black.result).toBe('black grounded; white wins 2:0');
    expect(black.replay[4]).toMatchObject({ move: 'ground', captured: ['bb', 'cb'], score: [0, 2] });
    const white = await analyse('(;GM[40]SZ[5:3];B[bb];W[db];B[cb];W[])');
    expect(white.players.map((p) => p.captures)).toEqual([1, 0]);
    // A dot on the edge grounds the dots joined to it.
    const grounded = await analyse('(;GM[40]SZ[5:3];B[ab];W[db];B[bb];W[])');
    expect(grounded.players.map((p) => p.captures)).toEqual([1, 0]);
    expect((await analyse('(;GM[40]SZ[5:3];B[ab];W[eb];B[bb];B[])')).players.map((p) => p.captures)).toEqual([0, 0]);
  });

  it('replays variations and reports their illegal moves', async () => {
    const analysis = await analyse('(;GM[40]SZ[5];B[bb](;W[cc];B[dd])(;W[bb]))');
    expect(analysis.moveCount).toBe(3);
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems).toEqual([expect.objectContaining({ code: 'dots.occupied', ply: 2, message: expect.stringContaining('variation 1') })]);
  });

  it('stores fields larger than the engine without indexing them, and refuses fields past MAX_BOARD_SIDE', async () => {
    const record = await sgfDotsPlugin.read(upload('(;GM[40]SZ[52:20];B[ZZ])'), options);
    expect(record.analysis).toBeUndefined();
    expect(record.notIndexedReason).toMatch(/52x20.*50x50/);
    await expect(sgfDotsPlugin.read(upload('(;GM[40]SZ[39:32];B[aa])'), { ...options, limits: { ...DEFAULT_LIMITS, maxBoardSide: 30 } })).rejects.toMatchObject({
      code: 'limit.board',
    });
  });

  it('refuses a value that is not Dots notation, where it stands', async () => {
    const error = await sgfDotsPlugin.read(upload('(;GM[40]SZ[5]\n;B[a1])'), options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).issues[0]).toMatchObject({ line: 2, column: 5 });
  });

  it('splits a collection into its games', () => {
    const text = '(;GM[40]SZ[5];B[aa])\n(;GM[40]SZ[5];B[bb])';
    const slices = sgfDotsPlugin.split!(upload(text), options);
    expect(slices.map((s) => text.slice(s.start, s.end))).toEqual(['(;GM[40]SZ[5];B[aa])', '(;GM[40]SZ[5];B[bb])']);
  });

  it('regenerates the chains and the result; the regenerated file agrees with itself', async () => {
    const bare = diamond.replace('B[cd.bccbdccdbc]', 'B[cd]').replace('RE[B+1]', 'RE[W+5]');
    const regenerated = String((await sgfDotsPlugin.regenerate(upload(bare), options)).content);
    expect(regenerated).toContain('RE[B+1]');
    // The same diamond, walked from its leftmost dot and closed on it.
    expect(regenerated).toMatch(/B\[cd\.bc(cbdccd|cddccb)bc\]/);
    const again = await analyse(regenerated);
    expect(again.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });
});

describe('SGF GM[40] detection', () => {
  it('claims GM[40] only', () => {
    expect(sgfDotsPlugin.detect(upload(diamond))).toBe(true);
    expect(sgfDotsPlugin.detect(upload('(;CA[UTF-8]AP[x]GM[40]SZ[39:32])'))).toBe(true);
    expect(sgfDotsPlugin.detect(upload('(;GM[1]SZ[19];B[aa])'))).toBe(false);
    expect(sgfDotsPlugin.detect(upload('(;SZ[19];B[aa])'))).toBe(false);
    expect(sgfDotsPlugin.detect(upload('233332aa43ab34'))).toBe(false);
    expect(sgfDotsPlugin.detect(upload('(;GM[40'))).toBe(false);
  });
});
