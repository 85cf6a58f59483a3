import { readFileSync } from 'node:fs';
import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const seed = readFileSync('test/fixtures/seeds/003_b00896b3e4bd24ba.txt', 'utf8');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

/** The `go = [...]` line of the seed, as its author wrote it (inside backticks). */
function seedGoLine(): string {
  const match = /`(go = \[\[[^`]*\]\])`/.exec(seed);
  if (!match) throw new Error('the seed no longer holds the demonstration game');
  return match[1];
}

/** The seed's area_monitor examples (the code blocks), in the order they appear. */
function seedBoards(): string[] {
  return [...seed.matchAll(/```\s*\n(area_monitor = \[\[[^`]*?\]\])\s*\n```/g)].map((m) => m[1]);
}

async function read(text: string): Promise<GameRecord> {
  return barsCheckersPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options);
}

describe('the seed\'s demonstration game', () => {
  it('is detected, legal and consistent, with the captures and final position the seed shows', async () => {
    const text = seedGoLine();
    expect(barsCheckersPlugin.detect({ bytes: Buffer.from(text) })).toBe(true);
    const record = await read(text);
    expect(record).toMatchObject({ publisher: 'BARS', version: '1', family: 'checkers', header: null });
    expect(record.body).toBe(text.slice('go = '.length));
    const analysis = record.analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.moveCount).toBe(10);
    expect(analysis.players.map((p) => [p.color, p.captures])).toEqual([
      ['white', 4],
      ['black', 2],
    ]);
    // Black took one man (ply 4) and the king crowned at ply 7 (ply 10); white is left with 10 men.
    expect(analysis.details.captures).toEqual({ white: { men: 4, kings: 0 }, black: { men: 1, kings: 1 } });
    expect(analysis.details.remaining).toEqual({ white: { men: 10, kings: 0 }, black: { men: 8, kings: 0 } });
    expect(analysis.details.promotions).toEqual({ white: 1, black: 0 });
    expect(analysis.result).toBeNull();
  });

  it('replays in standard notation as the seed describes the moves', async () => {
    const analysis = (await read(seedGoLine())).analysis!;
    expect(analysis.replay.map((ply) => ply.move)).toEqual([
      'g3-f4',
      'd6-e5',
      'f4:d6',
      'e7:c5',
      'c3-b4',
      'f8-e7',
      'b4:d6:f8',
      'd8-e7',
      'f8:d6',
      'c7:e5',
    ]);
    expect(analysis.replay.map((ply) => ply.player)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    expect(analysis.replay[6]).toMatchObject({ captured: ['c5', 'e7'], score: [3, 1], details: { promoted: true } });
    expect(analysis.replay[9]).toMatchObject({ captured: ['d6'], score: [4, 2] });
  });

  it('regenerates to the very same text, every number being already right', async () => {
    const text = seedGoLine();
    const regenerated = await barsCheckersPlugin.regenerate({ bytes: Buffer.from(text) }, options);
    expect(regenerated.content).toBe(text);
    expect(regenerated.mediaType).toMatch(/^text\/plain/);
  });
});

describe('the seed\'s boards', () => {
  it('holds three area_monitor examples: the initial position, a random one and the empty board', async () => {
    const boards = seedBoards();
    expect(boards).toHaveLength(3);
    const [initial, random, empty] = await Promise.all(boards.map((board) => read(`${board}\ngo = []`)));
    expect(initial.analysis!.details.remaining).toEqual({ white: { men: 12, kings: 0 }, black: { men: 12, kings: 0 } });
    // The random board: white kings h8 and e5, white men d6, b4, g3; black king g7 and e3, black men b6, d4, h2.
    expect(random.analysis!.details.remaining).toEqual({ white: { men: 3, kings: 2 }, black: { men: 3, kings: 2 } });
    expect(random.header).toBe(boards[1].slice('area_monitor = '.length));
    expect(empty.analysis!.details.remaining).toEqual({ white: { men: 0, kings: 0 }, black: { men: 0, kings: 0 } });
  });

  it('agrees with the "for reference" line: [1][6] of the random board is 12, a black king on g7', async () => {
    const random = (await read(`${seedBoards()[1]}\ngo = []`)).analysis!;
    expect((random.details.finalPosition as number[][])[1][6]).toBe(12);
  });
});
