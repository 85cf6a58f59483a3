import { readFileSync } from 'node:fs';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { GoFansDraft, GoFansDraftMove, writeGoFans11 } from '../../../../src/formats/plugins/gofans-xml/write.js';

const EXAMPLES = new URL('../../../fixtures/gofans-examples/', import.meta.url);
const example = (version: string): string => readFileSync(new URL(`ex_${version}.xml`, EXAMPLES), 'utf8');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const read = (xml: string): Promise<GameRecord> => gofansXmlPlugin.read({ bytes: Buffer.from(xml), filename: 'game.xml' }, options);
const outcomes = async (xml: string) => (await read(xml)).analysis!.players.map((p) => [p.name, p.outcome]);

const b = (x: number, y: number): GoFansDraftMove => ({ playerId: 0, color: 'black', point: { x, y } });
const w = (x: number, y: number): GoFansDraftMove => ({ playerId: 1, color: 'white', point: { x, y } });
const pass = (playerId: number): GoFansDraftMove => ({ playerId, point: null });
const draft = (black: string, white: string, komi = '2.5'): GoFansDraft => ({
  boardSize: 5,
  komi,
  players: [
    { id: 0, name: 'B', points: black },
    { id: 1, name: 'W', points: white },
  ],
});
// Black walls column 1, white column 2: the area count is black 10, white 15 (+ komi).
const walls = [0, 1, 2, 3, 4].flatMap((y) => [b(1, y), w(2, y)]);

describe('GoFans outcomes', () => {
  it('the examples: Anna has Points -1, so she resigned and lost, and Bernd won (with or without her formal pass)', async () => {
    for (const version of ['1.1', '1.2', '2.1', '2.2']) {
      expect(await outcomes(example(version))).toEqual([
        ['Anna', 'lost'],
        ['Bernd', 'won'],
      ]);
    }
  });

  it('two passes: the recorded Points decide, not the area count (here the file gives black more)', async () => {
    // The area count says white (17.5 against 10); the file records black 20, white 5.5.
    const analysis = (await read(writeGoFans11(draft('20', '5.5'), [...walls, pass(0), pass(1)]))).analysis!;
    expect(analysis.players.map((p) => p.points)).toEqual([10, 17.5]);
    expect(analysis.players.map((p) => p.outcome)).toEqual(['won', 'lost']);
  });

  it('two passes with the area score recorded: white won by 7.5', async () => {
    expect(await outcomes(writeGoFans11(draft('10', '17.5'), [...walls, pass(0), pass(1)]))).toEqual([
      ['B', 'lost'],
      ['W', 'won'],
    ]);
  });

  it('two passes and equal recorded Points: a draw (jigo) for both', async () => {
    expect(await outcomes(writeGoFans11(draft('12', '12', '0'), [...walls, pass(0), pass(1)]))).toEqual([
      ['B', 'drawn'],
      ['W', 'drawn'],
    ]);
  });

  it('two passes with every Points 0 record no score: unfinished', async () => {
    expect(await outcomes(writeGoFans11(draft('0', '0'), [...walls, pass(0), pass(1)]))).toEqual([
      ['B', 'unfinished'],
      ['W', 'unfinished'],
    ]);
  });

  it('no resignation and no two passes: unfinished, whatever Points the file holds', async () => {
    expect(await outcomes(writeGoFans11(draft('10', '17.5'), walls))).toEqual([
      ['B', 'unfinished'],
      ['W', 'unfinished'],
    ]);
    // One pass is not the end either.
    expect(await outcomes(writeGoFans11(draft('10', '17.5'), [...walls, pass(0)]))).toEqual([
      ['B', 'unfinished'],
      ['W', 'unfinished'],
    ]);
  });

  it('an illegal game keeps the outcome its file records: white resigned after an occupied point', async () => {
    const analysis = (await read(writeGoFans11(draft('0', '-1'), [b(2, 2), w(2, 2), b(3, 3), pass(1)]))).analysis!;
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.players.map((p) => p.outcome)).toEqual(['won', 'lost']);
  });
});
