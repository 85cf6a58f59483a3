import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/common/config.js';

/**
 * Archive benchmark: upload throughput over HTTP (sequential and 16 concurrent clients) and search
 * latency on an archive of 100,000 games, for the embedded database and, when BENCH_DATABASE_URL
 * names a PostgreSQL server, for that server too (in a database created and dropped here).
 */
const ARCHIVE_SIZE = Number(process.env.BENCH_ARCHIVE_SIZE ?? 100_000);
const SEQUENTIAL_UPLOADS = 500;
const CONCURRENT_UPLOADS = 2000;
const CONCURRENCY = 16;
/** Searches of each kind; the first WARM_UP of each are not counted (cold caches and plans). */
const SEARCHES_PER_KIND = 200;
const WARM_UP = 20;

export async function run(): Promise<void> {
  await benchArchive('embedded PostgreSQL (PGlite)', {});
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('archive: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  const name = `tabula_bench_${process.pid}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await benchArchive('PostgreSQL server', { DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '20' });
  } finally {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function benchArchive(label: string, settings: Record<string, string>): Promise<void> {
  const app = await createApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'error', RATE_LIMIT_EXEMPT_LOOPBACK: 'true', ...settings }));
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  try {
    for (const [kind, makeFile] of Object.entries(UPLOADS)) {
      const sequential = await measureUploads(baseUrl, (i) => makeFile('seq', i), SEQUENTIAL_UPLOADS, 1);
      const concurrent = await measureUploads(baseUrl, (i) => makeFile('par', i), CONCURRENT_UPLOADS, CONCURRENCY);
      console.log(`archive [${label}] uploads of ${kind}: ${sequential.toFixed(0)} games/s sequential, ${concurrent.toFixed(0)} games/s with ${CONCURRENCY} concurrent clients`);
    }
    await seedArchive(app, ARCHIVE_SIZE);
    const latencies = await measureSearches(baseUrl);
    for (const [kind, values] of Object.entries(latencies)) {
      console.log(`archive [${label}] search ${kind} at ${ARCHIVE_SIZE} games: p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`);
    }
  } finally {
    await app.close();
  }
}

const GOFANS_EXAMPLE = readFileSync(new URL('../../test/fixtures/gofans-examples/ex_2.2.xml', import.meta.url), 'utf8');

/**
 * Small games made unique per upload (dedup would answer a repeat without storing it), so every
 * upload is detected, validated, replayed and stored: a VK Dots save file, and a GoFans 2.2 game,
 * whose two XSD validations make it the heaviest path.
 */
const UPLOADS: Record<string, (prefix: string, index: number) => string> = {
  'VK Dots save files': (prefix, index) => `1.0\n${index} ${prefix} Red ${index}\n${index + 1} Blue ${prefix}\n-s-\nb7a6a8a7\n`,
  'GoFans 2.2 XML': (prefix, index) => GOFANS_EXAMPLE.replace('name="Anna"', `name="Anna ${prefix} ${index}"`),
};

async function measureUploads(baseUrl: string, makeFile: (index: number) => string, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const answer = await fetch(`${baseUrl}/games`, { method: 'POST', body: makeFile(index), headers: { 'Content-Type': 'text/plain' } });
      if (answer.status !== 201) throw new Error(`upload ${index} answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - started) / 1000);
}

/** Bulk-loads synthetic indexed games in SQL: HTTP uploads of 100,000 files would measure uploads again. */
async function seedArchive(app: INestApplication, size: number): Promise<void> {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const started = performance.now();
  const batch = 10_000;
  for (let from = 0; from < size; from += batch) {
    const to = Math.min(size, from + batch) - 1;
    await dataSource.transaction(async (manager) => {
      await manager.query(
        `WITH inserted AS (
           INSERT INTO games (publisher, version, header, body, family, status, raw, sha256, size, media_type, filename)
           SELECT f.publisher, f.version, '', '', f.family, 'indexed', convert_to('seed ' || n, 'UTF8'),
                  encode(sha256(convert_to('seed ' || n, 'UTF8')), 'hex'), 8, 'text/plain', 'seed-' || n
           FROM generate_series($1::int, $2::int) AS n
           CROSS JOIN LATERAL (SELECT (ARRAY['GoFans','VK Dots','BARS','ViaThinkSoft Peg Solitaire'])[1 + n % 4] AS publisher,
                                      (ARRAY['2.1','1.0','1','2'])[1 + n % 4] AS version,
                                      (ARRAY['go','dots','checkers','peg-solitaire'])[1 + n % 4] AS family) f
           RETURNING id)
         INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details)
         SELECT id, 100 + id % 150, NULL, true, id % 17 <> 0, '[]', '{}' FROM inserted`,
        [from, to],
      );
      await manager.query(
        `INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, declared_points, points, captures)
         SELECT g.id, s.seat, n.name, n.name, NULL, NULL, 0, 0, 0
         FROM games g CROSS JOIN (VALUES (0), (1)) AS s(seat)
         CROSS JOIN LATERAL (SELECT 'player' || (g.id * 7919 + s.seat) % 50000 AS name) n
         WHERE g.filename LIKE 'seed-%' AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id)`,
      );
    });
  }
  await dataSource.query('ANALYZE');
  console.log(`archive: seeded ${size} games in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function measureSearches(baseUrl: string): Promise<Record<string, number[]>> {
  const queries: Record<string, () => string> = {
    'newest page': () => '',
    // Every seeded name starts with "player": the worst case for a trigram index, whose common
    // trigrams then match every row. Real names share far fewer.
    'player substring': () => `player=player${Math.floor(Math.random() * 5000)}`,
    'family + consistent=false': () => 'family=go&consistent=false',
    'publisher/version': () => 'publisher=BARS&version=1',
    'second page': () => '',
  };
  const latencies: Record<string, number[]> = {};
  for (const [kind, makeQuery] of Object.entries(queries)) {
    latencies[kind] = [];
    for (let i = 0; i < WARM_UP + SEARCHES_PER_KIND; i++) {
      let query = makeQuery();
      if (kind === 'second page') {
        const first = (await (await fetch(`${baseUrl}/games?limit=20`)).json()) as { next: string };
        query = `cursor=${first.next}`;
      }
      const started = performance.now();
      const answer = await fetch(`${baseUrl}/games?limit=20${query ? `&${query}` : ''}`);
      await answer.arrayBuffer();
      if (i >= WARM_UP) latencies[kind].push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`search ${query} answered ${answer.status}`);
    }
  }
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}
