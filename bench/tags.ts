import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GamesSearchRepository } from '../src/games/games-search.repository.js';
import { TagsRepository } from '../src/tags/tags.repository.js';
import { onEachDatabase, percentile, startInProcess } from './served.js';

/**
 * Tags at scale: BENCH_TAGS_GAMES games (default 100,000) written in SQL, with tags from a skewed
 * pool (`studied` on 30 % of the games, `handicap` 10 %, `joseki` 5 %, `урок` 2 %, and on half of
 * the games one of 1,000 `topic-N`, each on about 50). Timed in the same run, side by side:
 * `GET /games?tags=…` and `GET /tags` over HTTP, the archive's own SQL (the search repository's
 * page with its players and tags, the counts table), a bare SQL query of the same page's ids written
 * by hand, and a brute force that gathers every game's tags and tests them (for the counts: GROUP BY
 * over every tag row). All must answer the same page. A page without a filter is timed first, for scale.
 * Goal: HTTP p95 ≤ 20 ms. Embedded database (on disk) always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const GAMES = Number(process.env.BENCH_TAGS_GAMES ?? 100_000);
const SAMPLES = 200;
const WARM_UP = 20;
const PAGE = 20;
const GOAL_MS = 20;

const random = (n: number) => Math.floor(Math.random() * n);

interface Kind {
  readonly name: string;
  make(): { path: string; archive: (app: INestApplication) => Promise<string>; bare: Sql; brute: Sql };
}

interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** A tags filter: the path, the archive's page (ids), and the brute force over each game's gathered tags. */
function filterKind(name: string, filter: () => string): Kind {
  return {
    name,
    make: () => {
      const text = filter();
      const all = text.split(',').filter((item) => !item.startsWith('-'));
      const none = text.split(',').filter((item) => item.startsWith('-')).map((item) => item.slice(1));
      return {
        path: `/games?limit=${PAGE}&tags=${encodeURIComponent(text)}`,
        archive: async (app) => (await app.get(GamesSearchRepository).search({ tags: text }, PAGE + 1)).map((hit) => hit.game.id).join(),
        // The page's ids by hand: one probe of a tag's rows per tag named.
        bare: {
          sql: `SELECT g.id FROM games g WHERE ${[
            ...all.map((_, i) => `g.id IN (SELECT game_id FROM game_tags WHERE tag = $${i + 1})`),
            ...(none.length > 0 ? [`g.id NOT IN (SELECT game_id FROM game_tags WHERE tag = ANY($${all.length + 1}::text[]))`] : []),
          ].join(' AND ')} ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
          params: [...all, ...(none.length > 0 ? [none] : [])],
        },
        brute: {
          sql: `SELECT g.id FROM games g LEFT JOIN LATERAL (SELECT array_agg(t.tag) AS tags FROM game_tags t WHERE t.game_id = g.id) x ON true
                WHERE coalesce(x.tags, '{}') @> $1::text[] AND NOT coalesce(x.tags, '{}') && $2::text[]
                ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
          params: [all, none],
        },
      };
    },
  };
}

const KINDS: Kind[] = [
  {
    name: 'GET /games (no filter, for scale)',
    make: () => ({
      path: `/games?limit=${PAGE}`,
      archive: async (app) => (await app.get(GamesSearchRepository).search({}, PAGE + 1)).map((hit) => hit.game.id).join(),
      bare: { sql: `SELECT g.id FROM games g ORDER BY g.id DESC LIMIT ${PAGE + 1}`, params: [] },
      brute: { sql: `SELECT g.id FROM games g ORDER BY g.id DESC LIMIT ${PAGE + 1}`, params: [] },
    }),
  },
  filterKind('tags=studied (30 %)', () => 'studied'),
  filterKind('tags=studied,-handicap', () => 'studied,-handicap'),
  filterKind('tags=joseki,handicap (0.5 %)', () => 'joseki,handicap'),
  filterKind('tags=topic-N (~50 games)', () => `topic-${random(1000)}`),
  filterKind('tags=урок,topic-N (~1 game)', () => `урок,topic-${random(1000)}`),
  filterKind('tags=-studied', () => '-studied'),
  {
    name: 'GET /tags (100 most used)',
    make: () => ({
      path: '/tags',
      archive: async (app) => (await app.get(TagsRepository).counts(undefined, 100)).map((row) => `${row.tag}:${row.games}`).join(),
      bare: { sql: `SELECT tag, games FROM tag_counts ORDER BY games DESC, tag COLLATE "C" LIMIT 100`, params: [] },
      brute: { sql: `SELECT tag, count(*) AS games FROM game_tags GROUP BY tag ORDER BY count(*) DESC, tag COLLATE "C" LIMIT 100`, params: [] },
    }),
  },
  {
    name: 'GET /tags?prefix=topic-1',
    make: () => ({
      path: '/tags?prefix=topic-1',
      archive: async (app) => (await app.get(TagsRepository).counts('topic-1', 100)).map((row) => `${row.tag}:${row.games}`).join(),
      bare: { sql: `SELECT tag, games FROM tag_counts WHERE starts_with(tag, $1) ORDER BY games DESC, tag COLLATE "C" LIMIT 100`, params: ['topic-1'] },
      brute: { sql: `SELECT tag, count(*) AS games FROM game_tags WHERE starts_with(tag, $1) GROUP BY tag ORDER BY count(*) DESC, tag COLLATE "C" LIMIT 100`, params: ['topic-1'] },
    }),
  },
];

export async function run(): Promise<void> {
  await onEachDatabase('tags', measure);
}

async function measure(label: string, settings: Record<string, string>): Promise<void> {
  const { app, baseUrl } = await startInProcess(settings);
  try {
    await seed(app, label);
    await time(app, baseUrl, label);
  } finally {
    await app.close();
  }
}

async function time(app: INestApplication, baseUrl: string, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  for (let i = 0; i < 100; i++) await (await fetch(`${baseUrl}/games?limit=${PAGE}&tags=studied`)).arrayBuffer();
  console.log(`tags [${label}] at ${GAMES} games, ${SAMPLES} requests of each kind (p50 / p95 ms):`);
  console.log(`  ${'request'.padEnd(34)} ${'HTTP'.padStart(13)} ${'archive SQL'.padStart(13)} ${'bare SQL'.padStart(13)} ${'brute force'.padStart(15)}  goal`);
  for (const kind of KINDS) {
    const [http, archive, bare, brute]: number[][] = [[], [], [], []];
    for (let i = 0; i < WARM_UP + SAMPLES; i++) {
      const keep = i >= WARM_UP;
      const request = kind.make();
      let started = performance.now();
      const answer = await fetch(`${baseUrl}${request.path}`);
      if (answer.status !== 200) throw new Error(`${request.path} answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
      if (keep) http.push(performance.now() - started);
      started = performance.now();
      const ours = await request.archive(app);
      if (keep) archive.push(performance.now() - started);
      const answers: string[] = [];
      for (const [sql, times] of [
        [request.bare, bare],
        [request.brute, brute],
      ] as const) {
        started = performance.now();
        const rows: { id?: string; tag?: string; games?: string }[] = await db.query(sql.sql, sql.params);
        if (keep) times.push(performance.now() - started);
        answers.push(rows.map((row) => (row.id !== undefined ? String(row.id) : `${row.tag}:${row.games}`)).join());
      }
      if (answers.some((theirs) => theirs !== ours)) throw new Error(`${kind.name}: the archive's answer differs from the bare query's or the brute force's (${request.path})`);
    }
    const cell = (values: number[], width = 13) => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`.padStart(width);
    for (const values of [http, archive, bare, brute]) values.sort((x, y) => x - y);
    const met = percentile(http, 95) <= GOAL_MS;
    console.log(`  ${kind.name.padEnd(34)} ${cell(http)} ${cell(archive)} ${cell(bare)} ${cell(brute, 15)}  HTTP p95 ≤ ${GOAL_MS} ms ${met ? 'met' : 'NOT met'}`);
  }
}

/** Stored games (no reading: tags do not need one) and their tags, in SQL; the counts kept by the table's triggers. */
async function seed(app: INestApplication, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const started = performance.now();
  await db.query(
    `WITH inserted AS (
       INSERT INTO games (indexed, status_reason, sha256, size, media_type, filename, uploaded_at, header_start, header_end, body_start, body_end)
       SELECT false, 'seeded', sha256(convert_to('tags seed ' || n, 'UTF8')), 20, 'text/plain; charset=utf-8', 'game-' || n || '.txt',
              now() - make_interval(secs => $1::int - n), 0, 0, 0, 20
       FROM generate_series(1, $1::int) AS n
       RETURNING id
     )
     INSERT INTO game_files (game_id, raw) SELECT id, convert_to(rpad('tags seed ' || id, 20), 'UTF8') FROM inserted`,
    [GAMES],
  );
  await db.query(
    `INSERT INTO game_tags (game_id, tag)
     SELECT g.id, t.tag FROM games g CROSS JOIN LATERAL (
       SELECT 'studied' AS tag WHERE g.id % 10 < 3
       UNION ALL SELECT 'handicap' WHERE (g.id * 7) % 10 = 0
       UNION ALL SELECT 'joseki' WHERE (g.id * 13) % 20 = 0
       UNION ALL SELECT 'урок' WHERE (g.id * 17) % 50 = 0
       UNION ALL SELECT 'topic-' || ((g.id / 2) * 31) % 1000 WHERE g.id % 2 = 0
     ) AS t`,
  );
  await db.query('VACUUM ANALYZE');
  const [{ rows }] = await db.query(`SELECT count(*) AS rows FROM game_tags`);
  console.log(`tags [${label}]: ${GAMES} games and ${rows} tags written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
