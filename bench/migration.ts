import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations/index.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { withScratchDatabase } from './served.js';

/**
 * How long the migrations that rewrite large tables take per million games: an archive in the
 * schema before LeanStorage is filled in SQL with BENCH_MIGRATION_GAMES games (default 1,000,000;
 * VK-sized files of ~500 bytes with their header and body texts, analysis, two players and a small
 * stored replay each), then LeanStorage alone is timed, beside a plain `CREATE TABLE … AS SELECT`
 * copy of the games table measured in the same run (the least any rewrite of it can cost).
 * Embedded database always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const GAMES = Number(process.env.BENCH_MIGRATION_GAMES ?? 1_000_000);
const BATCH = 100_000;
const TIMED = 'LeanStorage1764200000000';

export async function run(): Promise<void> {
  const embedded = await EmbeddedPostgres.start('memory://');
  try {
    await measure('embedded PostgreSQL (PGlite)', embedded.url);
  } finally {
    await embedded.whenNoConnections().catch(() => undefined);
    await embedded.stop();
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('migration: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_migration', (url) => measure('PostgreSQL server', url));
}

async function measure(label: string, url: string): Promise<void> {
  const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex((migration) => migration.name === TIMED));
  await migrate(url, before);
  const db = new DataSource({ type: 'postgres', url, extra: { max: 1 } });
  await db.initialize();
  let copySeconds: number;
  try {
    const seeded = performance.now();
    for (let from = 1; from <= GAMES; from += BATCH) await seed(db, from, Math.min(GAMES, from + BATCH - 1));
    await db.query('VACUUM ANALYZE');
    console.log(`migration [${label}]: ${GAMES} games written in the old layout in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
    const copied = performance.now();
    await db.query(`CREATE TABLE games_copy AS SELECT * FROM games`);
    copySeconds = (performance.now() - copied) / 1000;
    await db.query(`DROP TABLE games_copy`);
  } finally {
    await db.destroy();
  }
  const started = performance.now();
  await migrate(url, MIGRATIONS);
  const seconds = (performance.now() - started) / 1000;
  const perMillion = (value: number) => ((value * 1_000_000) / GAMES).toFixed(0);
  console.log(`migration [${label}]: ${TIMED} on ${GAMES} games: ${seconds.toFixed(0)} s = ${perMillion(seconds)} s per million games`);
  console.log(`migration [${label}]: baseline, one CREATE TABLE … AS SELECT copy of games: ${copySeconds.toFixed(0)} s = ${perMillion(copySeconds)} s per million games`);
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
