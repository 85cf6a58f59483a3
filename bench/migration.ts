import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations/index.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { withScratchDatabase } from './served.js';

/**
 * How long the migrations that rewrite large tables take per million games: an archive in the
 * schema before LeanStorage is filled in SQL with BENCH_MIGRATION_GAMES games on a server (default
 * 1,000,000) and BENCH_MIGRATION_EMBEDDED_GAMES on the embedded database (default 200,000, scaled to a million;
 * VK-sized files of ~500 bytes with their header and body texts, analysis, two players and a small
 * stored replay each), then LeanStorage and each migration after it are timed one by one, beside a plain `CREATE TABLE … AS SELECT`
 * copy of the games table measured in the same run (the least any rewrite of it can cost). Before
 * OpeningPositions, which reads the position index's rows, each game gets one (seedPositions).
 * Embedded database always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const GAMES = Number(process.env.BENCH_MIGRATION_GAMES ?? 1_000_000);
/** PGlite writes a few thousand of these games a second: the embedded run uses fewer and scales to a million. */
const EMBEDDED_GAMES = Number(process.env.BENCH_MIGRATION_EMBEDDED_GAMES ?? 200_000);
const BATCH = 100_000;
const TIMED = 'LeanStorage1764200000000';

export async function run(): Promise<void> {
  // On disk, as an archive runs: a million games do not fit PGlite's in-memory heap.
  const dataDir = mkdtempSync(join(tmpdir(), 'tabula-bench-migration-'));
  const embedded = await EmbeddedPostgres.start(dataDir);
  try {
    await measure('embedded PostgreSQL (PGlite)', EMBEDDED_GAMES, embedded.url, () => embedded.whenNoConnections());
  } finally {
    await embedded.whenNoConnections().catch(() => undefined);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('migration: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_migration', (url) => measure('PostgreSQL server', GAMES, url));
}

/** `settle` waits until a closed connection is gone: the embedded server takes one at a time. */
async function measure(label: string, games: number, url: string, settle: () => Promise<void> = async () => undefined): Promise<void> {
  const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex((migration) => migration.name === TIMED));
  await migrate(url, before);
  await settle();
  const db = new DataSource({ type: 'postgres', url, extra: { max: 1 } });
  await db.initialize();
  let copySeconds: number;
  try {
    const seeded = performance.now();
    for (let from = 1; from <= games; from += BATCH) await seed(db, from, Math.min(games, from + BATCH - 1));
    await db.query('VACUUM ANALYZE');
    console.log(`migration [${label}]: ${games} games written in the old layout in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
    const copied = performance.now();
    await db.query(`CREATE TABLE games_copy AS SELECT * FROM games`);
    copySeconds = (performance.now() - copied) / 1000;
    await db.query(`DROP TABLE games_copy`);
  } finally {
    await db.destroy();
  }
  await settle();
  const perMillion = (value: number) => ((value * 1_000_000) / games).toFixed(0);
  // Each migration from LeanStorage on, alone.
  for (let last = before.length + 1; last <= MIGRATIONS.length; last++) {
    if (new MIGRATIONS[last - 1]().name === 'OpeningPositions1765800000000') {
      // What it reads: every game's position row (not timed).
      const seeded = performance.now();
      await seedPositions(url);
      await settle();
      console.log(`migration [${label}]: a position row for each game written in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
    }
    const started = performance.now();
    await migrate(url, MIGRATIONS.slice(0, last));
    await settle();
    const seconds = (performance.now() - started) / 1000;
    console.log(`migration [${label}]: ${new MIGRATIONS[last - 1]().name} on ${games} games: ${seconds.toFixed(0)} s = ${perMillion(seconds)} s per million games`);
  }
  console.log(`migration [${label}]: baseline, one CREATE TABLE … AS SELECT copy of games: ${copySeconds.toFixed(0)} s = ${perMillion(copySeconds)} s per million games`);
}

/**
 * A `game_positions` row for each game, as the position index writes one: 201 positions of 11 bytes
 * (key, transform, move), the first 26 in the row, the rest out of line, the first 6 keys in
 * `openings`. The keys open as real games do (one start, 5 positions at ply 1, 30 at ply 2, 500,
 * 5,000, then one game's own), so that the migration writes and sorts what it would in an archive.
 */
async function seedPositions(url: string): Promise<void> {
  const db = new DataSource({ type: 'postgres', url, extra: { max: 1 } });
  await db.initialize();
  try {
    const [{ first, last }] = (await db.query(`SELECT min(id)::int AS first, max(id)::int AS last FROM games`)) as { first: number; last: number }[];
    for (let from = first; from <= last; from += BATCH) {
      await db.query(
        `WITH keyed AS (
           SELECT g.id, i, CASE i WHEN 0 THEN 1 WHEN 1 THEN 100 + g.id % 5 WHEN 2 THEN 200 + g.id % 30 WHEN 3 THEN 300 + g.id % 500 WHEN 4 THEN 1000 + g.id % 5000
                                  ELSE (hashint8(g.id * 256 + i)::bigint << 32) | (hashint8(g.id * 256 + i + 128)::bigint & 4294967295) END AS key
           FROM games g CROSS JOIN generate_series(0, 25) AS i WHERE g.id BETWEEN $1 AND $2
         )
         INSERT INTO game_positions (game_id, plies, played, family_id, result, openings, head, tail)
         SELECT id, 200, date '2010-01-01' + (id % 5000)::int, 2, CASE WHEN id % 3 = 0 THEN NULL ELSE 'red' END,
                array_agg(key ORDER BY i) FILTER (WHERE i < 6), string_agg(int8send(key) || '\\x00'::bytea || int2send((i * 7 + id % 300)::smallint), ''::bytea ORDER BY i),
                decode(repeat('ff', 175 * 11), 'hex')
         FROM keyed GROUP BY id`,
        [from, Math.min(last, from + BATCH - 1)],
      );
    }
    await db.query('VACUUM ANALYZE game_positions');
  } finally {
    await db.destroy();
  }
}

async function migrate(url: string, migrations: readonly (typeof MIGRATIONS)[number][]): Promise<void> {
  const db = new DataSource({ type: 'postgres', url, migrations: [...migrations], migrationsTableName: 'migrations', extra: { max: 1 } });
  await db.initialize();
  try {
    await db.runMigrations({ transaction: 'each' });
  } finally {
    await db.destroy();
  }
}

/** Games `from`..`to` as the version before LeanStorage wrote them: a VK save file each. */
async function seed(db: DataSource, from: number, to: number): Promise<void> {
  await db.transaction(async (manager) => {
    await manager.query(
      `WITH source AS (
         SELECT n, '1.0' || chr(10) || (20000000 + n) || ' Player ' || (n % 50000) || chr(10) || (30000000 + n) || ' Player ' || ((n * 7) % 50000)
                || chr(10) || '-s-' AS header,
                repeat(lpad(to_hex(n % 4096), 4, 'a'), 110) AS body
         FROM generate_series($1::int, $2::int) AS n
       ), inserted AS (
         INSERT INTO games (publisher, version, header, body, family, status, raw, sha256, size, media_type, filename)
         SELECT 'VK Dots', '1.0', header, body, 'dots', 'indexed', convert_to(header || chr(10) || body || chr(10), 'UTF8'),
                encode(sha256(convert_to(header || chr(10) || body || chr(10), 'UTF8')), 'hex'),
                octet_length(header || chr(10) || body || chr(10)), 'text/plain; charset=utf-8', 'game-' || n || '.txt'
         FROM source
         RETURNING id
       ), analyses AS (
         INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details, board_width, board_height, date_played, event, event_key, rules)
         SELECT id, 220, 'Red wins by 3', true, true, '[]', jsonb_build_object('redCaptured', id % 40, 'blueCaptured', id % 37, 'grounded', false),
                35, 35, date '2010-01-01' + (id % 5000)::int, NULL, NULL, NULL
         FROM inserted
       ), players AS (
         INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, declared_points, points, captures, outcome)
         SELECT id, seat, 'Player ' || ((id * (seat * 6 + 1)) % 50000), 'player ' || ((id * (seat * 6 + 1)) % 50000),
                (20000000 + id + seat * 10000000)::text, CASE seat WHEN 0 THEN 'red' ELSE 'blue' END, 3, 3, 3, CASE seat WHEN 0 THEN 'won' ELSE 'lost' END
         FROM inserted CROSS JOIN (VALUES (0), (1)) AS s(seat)
       )
       INSERT INTO game_replays (game_id, plies)
       SELECT id, jsonb_build_array(jsonb_build_object('ply', 1, 'player', 0, 'move', 'b7', 'captured', '[]'::jsonb, 'score', '[0,0]'::jsonb)) FROM inserted`,
      [from, to],
    );
  });
}
