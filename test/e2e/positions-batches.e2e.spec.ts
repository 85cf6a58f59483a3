import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { replay } from '../support/positions/go-replay.js';
import type { Position } from '../support/positions/go-replay.js';
import { turnRows } from '../support/positions/grids.js';
import { allPositionPages, expectFirstArrivals, firstArrivals } from '../support/positions/search.js';
import type { TransformName } from '../../src/rules/symmetry.js';

/*
 * One collection of more games than one statement of the games' writer stores (1,000): its games
 * go in batch after batch, each batch's statement made while the one before runs, and the position
 * index's run of postings gathered batch by batch. Every game must be found at every position that
 * the brute force finds it at — in the first batch, the middle one and the last, at the openings
 * (the openings table) and far later (the postings) — with the ids in the collection's order.
 *
 * The games are the GNU Go regression games that @sabaki/go-board replays (not the archive's
 * engine), each repeated with a private property telling its copies apart, so that a position of a
 * game is found in every copy of it and in whichever other game reaches it too.
 */
const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);
const GAMES = 2_300;
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];

const text = (position: Position) => `${position.toMove}|${position.rows.map((row) => row.join(',')).join('/')}`;

describe('positions: a collection stored in several batches', () => {
  let archive: TestArchive;
  /** By game id: its positions as text, ply by ply, and its source game's. */
  const texts = new Map<number, string[]>();
  const positions = new Map<number, Position[]>();
  let ids: number[] = [];

  beforeAll(async () => {
    archive = await startArchive();
    const sources: { sgf: string; positions: Position[] }[] = [];
    for (const name of (readdirSync(FOLDER, { recursive: true }) as string[]).filter((file) => file.endsWith('.sgf')).sort()) {
      const bytes = readFileSync(new URL(name, FOLDER));
      const sgf = bytes.toString('utf8');
      // One tree a file, written as UTF-8, whose main line is long enough to reach the postings.
      if (!sgf.trimStart().startsWith('(;') || sgf.includes('\uFFFD') || sgf.split('(;').length !== 2) continue;
      const replayed = replay(sabakiRoot(bytes));
      if (replayed && replayed.positions.length > 30) sources.push({ sgf: sgf.trim(), positions: replayed.positions });
    }
    expect(sources.length).toBeGreaterThan(100);
    const copies = Array.from({ length: GAMES }, (_, n) => sources[n % sources.length]);
    const collection = copies.map((source, n) => source.sgf.replace('(;', `(;TB[copy ${n}]`)).join('\n');
    const answer = await post(archive, '/uploads?filename=batches.sgf', collection);
    expect(answer.status).toBe(201);
    const upload = (await answer.json()) as { games: { gameId: number | null; outcome: string }[] };
    expect(upload.games.map((game) => game.outcome)).toEqual(copies.map(() => 'indexed'));
    ids = upload.games.map((game) => game.gameId!);
    copies.forEach((source, n) => {
      texts.set(ids[n], source.positions.map(text));
      positions.set(ids[n], source.positions);
    });
  }, 240_000);
  afterAll(async () => {
    await archive?.close();
  });

  it('gives the games ids in the collection\'s order', () => {
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(GAMES);
  });

  it('finds every game at the first ply the brute force finds it, at the openings and far later, from every batch', async () => {
    // The games at each end of each batch (the first and last 1,000, the part batch of 300), and
    // games spread over all of them, each at an opening ply and at later ones.
    const picks: [number, number][] = [];
    const boundaries = [0, 999, 1_000, 1_999, 2_000, GAMES - 1];
    for (const at of [...boundaries, ...Array.from({ length: 24 }, (_, n) => 37 + n * 93)]) {
      const id = ids[at];
      const last = positions.get(id)!.length - 1;
      picks.push([id, 3], [id, 12], [id, Math.min(last, 25)], [id, last]);
    }
    for (const [id, ply] of picks) {
      const position = positions.get(id)!.find((_, index) => index === ply)!;
      const wanted = new Set(NAMES.map((name) => text({ rows: turnRows(position.rows, name), toMove: position.toMove })));
      const want = firstArrivals(texts, wanted);
      // Every copy of the game is among them: found in each batch the copies went in.
      expect(want.size).toBeGreaterThan(1);
      expectFirstArrivals(await allPositionPages(archive.baseUrl, `/positions/games?game=${id}&ply=${ply}&limit=100`, 100), want);
    }
  });
});
