import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { DataSource } from 'typeorm';
import { startInProcess } from './served.js';

/**
 * Bulk export benchmark: 20,000 games written in SQL (a real 9x9 SGF game made unique per row, two
 * players and an analysis each), then `GET /games/export` as NDJSON, zip and tar, in games/s, beside
 * the bare SQL that reads the same rows in the same batches (what the export cannot be faster than).
 * The process's RSS is sampled every 20 ms during each export (the server only: curl takes the
 * body in a process of its own): flat memory shows as the same peak for 2,000 and 20,000 games.
 */
const GAMES = 20_000;
const BATCH = 500;
const SGF = readFileSync(new URL('../../test/fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf', import.meta.url), 'utf8');

export async function run(): Promise<void> {
  const { app, baseUrl } = await startInProcess({});
  try {
    const db = app.get<DataSource>(getDataSourceToken());
    const seeded = performance.now();
    for (let from = 1; from <= GAMES; from += 5000) await db.query(SEED, [from, Math.min(GAMES, from + 4999), SGF]);
    console.log(`export: ${GAMES} games written in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    const bare = await timeBareSql(db);
    console.log(`export: bare SQL, the same rows in batches of ${BATCH} (games, players, files): ${rate(GAMES, bare)} games/s`);
    for (const [type, label] of [
      ['application/x-ndjson', 'NDJSON'],
      ['application/zip', 'zip'],
      ['application/x-tar', 'tar'],
    ] as const) {
      for (const limit of [2000, GAMES]) {
        const { ms, bytes, peak, before } = await timeExport(`${baseUrl}/games/export?limit=${limit}`, type);
        console.log(
          `export: ${label.padEnd(6)} ${String(limit).padStart(6)} games: ${rate(limit, ms).padStart(6)} games/s, ${(bytes / 1e6).toFixed(1)} MB; ` +
            `RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during`,
        );
      }
    }
  } finally {
    await app.close();
  }
}

const execFileAsync = promisify(execFile);
const rate = (games: number, ms: number) => (games / (ms / 1000)).toFixed(0);
const rssMb = () => process.memoryUsage.rss() / 1024 / 1024;

async function timeBareSql(db: DataSource): Promise<number> {
  const started = performance.now();
  let past = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows: { id: string }[] = await db.query(
      `SELECT g.id, fm.publisher, fm.version, fa.name AS family, g.indexed, g.size, coalesce(g.media_type, fm.media_type) AS media_type, g.filename,
              g.uploaded_at, g.header, g.body, encode(g.sha256, 'hex') AS sha256, a.move_count, a.result, a.legal, a.consistent, a.problems, a.details
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id
       WHERE g.id < $1 ORDER BY g.id DESC LIMIT ${BATCH}`,
      [past],
    );
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id);
    await db.query(`SELECT * FROM game_players WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat`, [ids]);
    await db.query(`SELECT game_id, raw FROM game_files WHERE game_id = ANY($1::bigint[])`, [ids]);
    past = Number(ids[ids.length - 1]);
  }
  return performance.now() - started;
}

/**
 * One export, taken by curl in a process of its own (as a real client would), so that the figure is
 * the server's alone: a client in this process would spend this thread's time decoding the body.
 * The RSS sampled is this process's, which holds the server only.
 */
export async function timeExport(url: string, accept: string): Promise<{ ms: number; bytes: number; peak: number; before: number }> {
  globalThis.gc?.();
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  const started = performance.now();
  try {
    const { stdout } = await execFileAsync('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', '-H', `Accept: ${accept}`, url]);
    const [status, bytes] = stdout.trim().split(' ').map(Number);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
    return { ms: performance.now() - started, bytes, peak: Math.max(peak, rssMb()), before };
  } finally {
    clearInterval(sampler);
  }
}

/** Games $1..$2 as SGF game $3 with the row number appended (so every file is distinct), indexed, with two players. */
const SEED = `
  WITH format AS (
    INSERT INTO formats (publisher, version, media_type) VALUES ('SGF', 'FF4-Go', 'application/x-go-sgf')
    ON CONFLICT ON CONSTRAINT formats_publisher_version DO UPDATE SET media_type = formats.media_type RETURNING id
  ), inserted AS (
    INSERT INTO games (format_id, family_id, indexed, sha256, size, filename, header, body)
    SELECT (SELECT id FROM format), (SELECT id FROM families WHERE name = 'go'), true, sha256(convert_to($3 || n, 'UTF8')), octet_length($3) + length(n::text),
           'bench-' || n || '.sgf', 'root of game ' || n, 'moves of game ' || n
    FROM generate_series($1::int, $2::int) AS n
    RETURNING id
  ), files AS (
    INSERT INTO game_files (game_id, raw) SELECT id, convert_to($3 || id, 'UTF8') FROM inserted
  ), analyses AS (
    INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details, board_width, board_height)
    SELECT id, 60, 'B+R', true, true, '[]', '{"komi": 6.5}', 9, 9 FROM inserted
  )
  INSERT INTO game_players (game_id, seat, name, name_key, color, outcome)
  SELECT id, seat, 'Player ' || (id % 997 + seat), 'player ' || (id % 997 + seat), CASE seat WHEN 0 THEN 'black' ELSE 'white' END,
         CASE seat WHEN 0 THEN 'won' ELSE 'lost' END
  FROM inserted CROSS JOIN (VALUES (0), (1)) AS s(seat)`;
