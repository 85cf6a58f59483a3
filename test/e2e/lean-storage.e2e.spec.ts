import { getDataSourceToken } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { GamesWriteRepository } from '../../src/games/games-write.repository.js';
import { post, startArchive, startArchiveWrittenBefore, TestArchive } from '../support/archive-harness.js';

/**
 * Lean storage: the bytes live in game_files, Header and Body are byte ranges of them (text only
 * when they are not a slice), the SHA-256 is 32 bytes, and replays are made on request. Checked on
 * new uploads of every format and on an archive written before, migrated on start.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const VK_SAVE = Buffer.from('1.0\n22029176 Red Fox\n30011 Blue Owl\n-s-\nb7a6a8a7\n');
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('lean storage of new uploads', () => {
  let archive: TestArchive;
  let db: DataSource;

  beforeAll(async () => {
    archive = await startArchive();
    db = archive.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => archive.close());

  it.each([
    ['GoFans 2.2', fixture('fixtures/gofans-examples/ex_2.2.xml')],
    ['GoFans 1.1', fixture('fixtures/gofans-examples/ex_1.1.xml')],
    ['BARS', fixture('e2e/fixtures/demonstration.bars')],
    ['Dots server 204', fixture('e2e/fixtures/board-state.204')],
    ['VK Dots save file', VK_SAVE],
    ['peg board', fixture('fixtures/realdata/peg/v2_head/Trapeze.brd')],
  ])('keeps the %s header and body as ranges of the bytes and serves the texts the plugin read', async (_name, bytes) => {
    const answer = await post(archive, '/games', bytes);
    expect(answer.status).toBe(201);
    const uploaded = await answer.json();
    expect(uploaded.status).toBe('indexed');
    const [row] = await db.query(
      `SELECT g.header, g.body, g.header_start, g.header_end, g.body_start, g.body_end, g.sha256, coalesce(g.raw, f.raw) AS raw
       FROM games g LEFT JOIN game_files f ON f.game_id = g.id WHERE g.id = $1`,
      [uploaded.id],
    );
    // Nothing but the bytes holds the texts; the ranges cut exactly what the plugin read out of them.
    expect(row.raw).toEqual(bytes);
    expect(row.sha256).toEqual(createHash('sha256').update(bytes).digest());
    expect(row.header).toBeNull();
    expect(row.body).toBeNull();
    if (uploaded.header !== null) expect(bytes.subarray(row.header_start, row.header_end).toString('utf8')).toBe(uploaded.header);
    if (uploaded.body !== null) expect(bytes.subarray(row.body_start, row.body_end).toString('utf8')).toBe(uploaded.body);
    const game = await (await fetch(`${archive.baseUrl}/games/${uploaded.id}`)).json();
    // The upload's answer is the stored game, plus the games holding the same game (none here).
    const { sameAs, ...stored } = uploaded;
    expect(sameAs).toEqual([]);
    expect(game).toEqual(stored);
    expect(game.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('keeps the texts of a UTF-16 upload, which are not slices of its bytes', async () => {
    const bytes = utf16le('1.0\n5 Ann\n6 Bob\n-s-\nb7a6a8a7\n');
    const uploaded = await (await post(archive, '/games', bytes)).json();
    expect(uploaded).toMatchObject({ status: 'indexed', header: '1.0\n5 Ann\n6 Bob\n-s-', body: 'b7a6a8a7' });
    const [row] = await db.query(`SELECT header, body, header_start, body_start FROM games WHERE id = $1`, [uploaded.id]);
    expect(row).toEqual({ header: '1.0\n5 Ann\n6 Bob\n-s-', body: 'b7a6a8a7', header_start: null, body_start: null });
    // The same moves (b7 a6 a8 a7) as the VK save stored above, under other names: the same game.
    const { sameAs, ...stored } = uploaded;
    const vkSave = (await (await fetch(`${archive.baseUrl}/games?publisher=VK%20Dots&limit=100`)).json()).items.filter((game: { sha256: string }) => game.sha256 === createHash('sha256').update(VK_SAVE).digest('hex'));
    expect(sameAs).toEqual(vkSave.map((game: { id: number }) => game.id));
    expect(await (await fetch(`${archive.baseUrl}/games/${uploaded.id}`)).json()).toEqual(stored);
  });

  it('stores a batch of games with bytes of every size, each in its place and in the order given', async () => {
    // Two small files (kept in their rows, at most 256 bytes) between three larger ones (each its own
    // game_files row: one of them 3 MB, sent as a parameter of its own). The repository's batch insert
    // is what a collection's games go through; here it gets every kind of bytes at once.
    // Read as the archive reads uploads, on its analysis threads: this process also serves the requests.
    const analysis = archive.app.get(AnalysisPool);
    // Files no other test here uploads: the same bytes again would be found stored, not inserted.
    const files = [
      fixture('fixtures/realdata/go/gnugo_regression_games/9x9-3.sgf'),
      Buffer.from('1.0\n41 Ann\n42 Bob\n-s-\nb7a6a8a7\n'),
      Buffer.from(`plain text of a batch\n`.repeat(140_000)),
      Buffer.from('a short note, no game'),
      fixture('fixtures/realdata/go/gnugo_regression_games/9x9-2.sgf'),
    ];
    const games = await Promise.all(
      files.map(async (bytes, index) => ({
        file: { bytes },
        sha256: createHash('sha256').update(bytes).digest('hex'),
        mediaType: 'text/plain',
        filename: `batch-${index}`,
        record: await analysis.read({ bytes }),
      })),
    );
    const inserted = await archive.app.get(GamesWriteRepository).insertMany(games);
    expect(inserted.map((game) => game.created)).toEqual([true, true, true, true, true]);
    const ids = inserted.map((game) => (game.created ? game.id : 0));
    const rows: { id: string; inline: Buffer | null; own: Buffer | null }[] = await db.query(
      `SELECT g.id, g.raw AS inline, f.raw AS own FROM games g LEFT JOIN game_files f ON f.game_id = g.id WHERE g.id = ANY($1::bigint[]) ORDER BY g.id`,
      [ids],
    );
    expect(rows.map((row) => Number(row.id))).toEqual(ids);
    // Each file's bytes in exactly one place. Compared with Buffer#equals: toEqual walks a 3 MB Buffer
    // byte by byte, holding this process's event loop (and so the archive it serves) for seconds.
    expect(rows.map((row) => [row.inline !== null, row.own !== null])).toEqual(files.map((bytes) => (bytes.length <= 256 ? [true, false] : [false, true])));
    expect(rows.map((row, index) => (row.inline ?? row.own)?.equals(files[index]))).toEqual([true, true, true, true, true]);
    for (const [index, id] of ids.entries()) {
      const raw = Buffer.from(await (await fetch(`${archive.baseUrl}/games/${id}/raw`)).arrayBuffer());
      expect(raw.equals(files[index])).toBe(true);
    }
  });

  it('keeps no replay: it is made from the bytes on request', async () => {
    const tables: { name: string | null }[] = await db.query(`SELECT to_regclass('game_replays')::text AS name`);
    expect(tables).toEqual([{ name: null }]);
    const uploaded = await (await post(archive, '/games', Buffer.from('1.0\n7 Cy\n8 Di\n-s-\nb7a6a8a7b8\n'))).json();
    const replay = await (await fetch(`${archive.baseUrl}/games/${uploaded.id}/replay`)).json();
    // Five dots, red first: b7 a6 a8 a7 b8 in the VK code's base-36 column-row pairs.
    expect(replay.plies.map((ply: { player: number }) => ply.player)).toEqual([0, 1, 0, 1, 0]);
  });
});

/**
 * An archive written by the version before lean storage (migrations up to GameFacts), with the rows
 * that version wrote, started by today's archive: the migration moves the bytes, turns the texts
 * into ranges and drops the replays, and every answer stays the same.
 */
describe('an archive from before lean storage, migrated on start', () => {
  const BEFORE = MIGRATIONS.slice(0, MIGRATIONS.findIndex((migration) => migration.name === 'LeanStorage1764200000000'));
  const UTF16 = utf16le('1.0\n5 Ann\n6 Bob\n-s-\nb7a6a8a7\n');
  const TWICE = Buffer.from('head ab\nab\n');
  const UNKNOWN = Buffer.from('no format reads this\n');

  let archive: TestArchive;
  let db: DataSource;

  beforeAll(async () => {
    archive = await startArchiveWrittenBefore(writeOldArchive);
    db = archive.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => archive?.close());

  /** The rows the version before wrote: bytes, hex SHA-256 and texts in the games row; replays kept. */
  async function writeOldArchive(url: string): Promise<void> {
    const old = new DataSource({ type: 'postgres', url, migrations: BEFORE, migrationsTableName: 'migrations' });
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      const insert = async (bytes: Buffer, header: string | null, body: string | null, status: string) => {
        const [row] = await old.query(
          `INSERT INTO games (publisher, version, header, body, family, status, raw, sha256, size, media_type)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'text/plain') RETURNING id`,
          [
            status === 'indexed' ? 'VK Dots' : null,
            status === 'indexed' ? '1.0' : null,
            header,
            body,
            status === 'indexed' ? 'dots' : null,
            status,
            bytes,
            createHash('sha256').update(bytes).digest('hex'),
            bytes.length,
          ],
        );
        return Number(row.id);
      };
      const vk = await insert(VK_SAVE, '1.0\n22029176 Red Fox\n30011 Blue Owl\n-s-', 'b7a6a8a7', 'indexed');
      await old.query(`INSERT INTO game_replays (game_id, plies) VALUES ($1, '[]')`, [vk]);
      await insert(UTF16, '1.0\n5 Ann\n6 Bob\n-s-', 'b7a6a8a7', 'stored');
      // The body's text also occurs inside the header: its range is the occurrence after the header.
      await insert(TWICE, 'head ab', 'ab', 'stored');
      await insert(UNKNOWN, null, null, 'stored');
    } finally {
      await old.destroy();
    }
  }

  const gameBySha = async (bytes: Buffer) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const [row] = await db.query(`SELECT id FROM games WHERE sha256 = decode($1, 'hex')`, [sha256]);
    return (await fetch(`${archive.baseUrl}/games/${row.id}`)).json();
  };
  const rowOf = async (id: number) =>
    (await db.query(`SELECT header, body, header_start, header_end, body_start, body_end FROM games WHERE id = $1`, [id]))[0];

  it('keeps the bytes once and drops the stored replays', async () => {
    // Later, CompactGames brings files of at most 256 bytes (all of these) back into their games row.
    const [copies] = await db.query(`SELECT count(*) FILTER (WHERE g.raw IS NOT NULL) AS inline, (SELECT count(*) FROM game_files) AS apart FROM games g`);
    expect({ inline: Number(copies.inline), apart: Number(copies.apart) }).toEqual({ inline: 4, apart: 0 });
    expect(await db.query(`SELECT to_regclass('game_replays')::text AS name`)).toEqual([{ name: null }]);
    for (const bytes of [VK_SAVE, UTF16, TWICE, UNKNOWN]) {
      const game = await gameBySha(bytes);
      expect(game.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(Buffer.from(await (await fetch(`${archive.baseUrl}/games/${game.id}/raw`)).arrayBuffer())).toEqual(bytes);
    }
  });

  it('turns texts that are slices of the bytes into ranges, found where the archive finds them for new uploads', async () => {
    const vk = await gameBySha(VK_SAVE);
    expect(vk).toMatchObject({ header: '1.0\n22029176 Red Fox\n30011 Blue Owl\n-s-', body: 'b7a6a8a7' });
    // Counted by hand: the header lines are 4 + 17 + 15 + 3 = 39 bytes, the move line starts after their newline.
    expect(await rowOf(vk.id)).toEqual({ header: null, body: null, header_start: 0, header_end: 39, body_start: 40, body_end: 48 });
    const twice = await gameBySha(TWICE);
    expect(twice).toMatchObject({ header: 'head ab', body: 'ab' });
    expect(await rowOf(twice.id)).toEqual({ header: null, body: null, header_start: 0, header_end: 7, body_start: 8, body_end: 10 });
    const unknown = await gameBySha(UNKNOWN);
    expect(await rowOf(unknown.id)).toEqual({ header: null, body: null, header_start: null, header_end: null, body_start: null, body_end: null });
  });

  it('keeps texts that are not slices of the bytes as text', async () => {
    const game = await gameBySha(UTF16);
    expect(game).toMatchObject({ header: '1.0\n5 Ann\n6 Bob\n-s-', body: 'b7a6a8a7' });
    expect(await rowOf(game.id)).toEqual({ header: '1.0\n5 Ann\n6 Bob\n-s-', body: 'b7a6a8a7', header_start: null, header_end: null, body_start: null, body_end: null });
  });

  it('makes the replay of a migrated game from its bytes', async () => {
    const vk = await gameBySha(VK_SAVE);
    const replay = await (await fetch(`${archive.baseUrl}/games/${vk.id}/replay`)).json();
    expect(replay.plies).toHaveLength(4);
  });

  it('finds an upload of the same bytes as the migrated game', async () => {
    const vk = await gameBySha(VK_SAVE);
    const again = await post(archive, '/games', VK_SAVE);
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(vk.id);
  });
});
