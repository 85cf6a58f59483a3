import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { GameFilters } from '../src/catalog/game-view.js';
import { GamesSearchRepository } from '../src/games/games-search.repository.js';
import { onEachDatabase, percentile, startInProcess } from './served.js';

/**
 * Search at scale: BENCH_SEARCH_GAMES games (default 1,000,000; 3% stored without an index, the
 * rest indexed with two players each (three in four with a rating), names drawn from 200 first
 * names × 250 surnames, 500 events, 30 years of dates, four rules, every way a result comes about
 * and margins for the counted ones) written in SQL, then every filter and sort timed three ways in the
 * same run: over HTTP (GET /games, what a client sees), the archive's own SQL (GamesSearchRepository.
 * search: the page and its players), and a bare hand-written SQL query returning the same page
 * and players on the same connection. Goals: HTTP p95 ≤ 20 ms; the archive's SQL p95 ≤ 1.5× the bare query's.
 * Embedded database (on disk) always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const GAMES = Number(process.env.BENCH_SEARCH_GAMES ?? 1_000_000);
const BATCH = 50_000;
const SAMPLES = 400;
const WARM_UP = 20;
const PAGE = 20;
const GOAL_MS = 20;
const GOAL_RATIO = 1.5;

const random = (n: number) => Math.floor(Math.random() * n);
const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

const FIRST_NAMES = Array.from({ length: 200 }, (_, i) => capital(`${syllable(i)}${syllable(i * 7 + 3)}${i % 3 === 0 ? 'a' : 'o'}`));
const SURNAMES = [...Array.from({ length: 247 }, (_, i) => capital(`${syllable(i * 5 + 1)}${syllable(i * 11 + 2)}${syllable(i + 9)}v`)), 'Li', 'Xu', 'Wu'];

function syllable(seed: number): string {
  const consonants = 'bdgklmnprstvz';
  const vowels = 'aeiou';
  return consonants[seed % consonants.length] + vowels[Math.floor(seed / consonants.length) % vowels.length];
}


/** One kind of search: its query string, the repository's filters, and the bare SQL (page ids, then players). */
interface SearchKind {
  readonly name: string;
  /** Fewer searches for a kind known to be slow, so the run stays short. */
  readonly samples?: number;
  make(): { query: string; filters: GameFilters; where: string; order?: string; params: unknown[] };
}

const SUMMARY = `g.id, fm.publisher, fm.version, fa.name AS family, g.indexed, g.status_reason, encode(g.sha256, 'hex') AS sha256, g.size,
  coalesce(g.media_type, fm.media_type) AS media_type, g.filename, g.uploaded_at, a.move_count, a.result, a.legal, a.consistent, a.problems, a.details, a.board_width, a.board_height, a.date_played, a.event, a.rules`;

/** The lookups naming a game's format and family. */
const NAMES = 'LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id';

const KINDS: SearchKind[] = [
  { name: 'newest first (no filter)', make: () => ({ query: '', filters: {}, where: 'true', params: [] }) },
  { name: 'oldest first', make: () => ({ query: 'sort=uploaded', filters: { sort: 'uploaded' }, where: 'true', order: 'g.id ASC', params: [] }) },
  {
    name: 'next page (cursor past an id)',
    make: () => {
      const past = GAMES - random(GAMES / 2);
      return { query: '', filters: { pastId: past }, where: 'g.id < $1', params: [past] };
    },
  },
  {
    name: 'player, part of a name',
    make: () => {
      const part = SURNAMES[random(247)].slice(0, 5).toLowerCase();
      return { query: `player=${part}`, filters: { player: part }, where: `g.id IN (SELECT game_id FROM game_players WHERE name_key IN (SELECT name_key FROM player_names WHERE name_key LIKE $1))`, params: [`%${part}%`] };
    },
  },
  {
    name: 'player, two letters (whole name)',
    make: () => ({ query: 'player=li', filters: { player: 'li' }, where: `g.id IN (SELECT game_id FROM game_players WHERE name_key = $1)`, params: ['li'] }),
  },
  {
    name: 'winner',
    make: () => {
      const part = SURNAMES[random(247)].slice(0, 5).toLowerCase();
      return {
        query: `winner=${part}`,
        filters: { winner: part },
        where: `g.id IN (SELECT game_id FROM game_players WHERE outcome = 'won' AND name_key IN (SELECT name_key FROM player_names WHERE name_key LIKE $1))`,
        params: [`%${part}%`],
      };
    },
  },
  {
    name: 'external id',
    make: () => {
      const id = String(10_000_000 + random(50_000));
      return { query: `externalId=${id}`, filters: { externalId: id }, where: `g.id IN (SELECT game_id FROM game_players WHERE external_id = $1)`, params: [id] };
    },
  },
  {
    name: 'file name',
    make: () => {
      const name = `game-${1 + random(GAMES)}.txt`;
      return { query: `filename=${name}`, filters: { filename: name }, where: 'g.filename = $1', params: [name] };
    },
  },
  { name: 'status=stored', make: () => ({ query: 'status=stored', filters: { status: 'stored' }, where: `NOT g.indexed`, params: [] }) },
  {
    name: 'family=go & consistent=false',
    make: () => ({ query: 'family=go&consistent=false', filters: { family: 'go', consistent: false }, where: `g.family_id = (SELECT id FROM families WHERE name = 'go') AND a.consistent = false`, params: [] }),
  },
  {
    name: 'publisher & version',
    make: () => ({ query: 'publisher=BARS&version=1', filters: { publisher: 'BARS', version: '1' }, where: `g.format_id = (SELECT id FROM formats WHERE publisher = 'BARS' AND version = '1')`, params: [] }),
  },
  {
    name: 'moves 100..120',
    make: () => ({ query: 'movesMin=100&movesMax=120', filters: { movesMin: 100, movesMax: 120 }, where: 'a.move_count BETWEEN 100 AND 120', params: [] }),
  },
  {
    name: 'board size 13',
    make: () => ({ query: 'boardSize=13', filters: { boardWidth: 13, boardHeight: 13 }, where: 'a.board_width = 13 AND a.board_height = 13', params: [] }),
  },
  {
    name: 'event',
    make: () => {
      const event = `Cup ${random(500)}`;
      return { query: `event=${encodeURIComponent(event)}`, filters: { event }, where: 'a.event_key = $1', params: [event.toLowerCase()] };
    },
  },
  {
    name: 'played within a year',
    make: () => {
      const year = 1995 + random(30);
      return {
        query: `playedFrom=${year}-01-01&playedTo=${year}-12-31`,
        filters: { playedFrom: `${year}-01-01`, playedTo: `${year}-12-31` },
        where: `a.date_played BETWEEN $1::date AND $2::date`,
        params: [`${year}-01-01`, `${year}-12-31`],
      };
    },
  },
  { name: 'ending=resignation', make: () => ({ query: 'ending=resignation', filters: { ending: 'resignation' }, where: `a.ending = 'resignation'`, params: [] }) },
  {
    name: 'margin 10..20',
    make: () => ({ query: 'marginMin=10&marginMax=20', filters: { marginMin: 10, marginMax: 20 }, where: 'a.margin >= 10 AND a.margin <= 20', params: [] }),
  },
  {
    name: 'rules',
    make: () => {
      const rules = ['Japanese', 'chinese', 'AGA', 'korean'][random(4)];
      return { query: `rules=${rules}`, filters: { rules }, where: 'lower(a.rules) = lower($1)', params: [rules] };
    },
  },
  {
    name: 'player rating',
    make: () => {
      const rating = random(2) === 0 ? `${1 + random(9)}d` : `${1 + random(30)}k`;
      return { query: `rating=${rating}`, filters: { rating }, where: 'g.id IN (SELECT game_id FROM game_players WHERE lower(rating) = lower($1))', params: [rating] };
    },
  },
  {
    name: 'sort by date played, newest',
    make: () => ({ query: 'sort=-played', filters: { sort: '-played' }, where: 'a.date_played IS NOT NULL', order: 'a.date_played DESC, g.id DESC', params: [] }),
  },
  {
    name: 'sort by date played, oldest, from a day',
    make: () => {
      const day = `${2000 + random(20)}-06-01`;
      return {
        query: `sort=played&playedFrom=${day}`,
        filters: { sort: 'played', playedFrom: day },
        where: 'a.date_played >= $1::date',
        order: 'a.date_played ASC, g.id ASC',
        params: [day],
      };
    },
  },
  {
    name: 'uploaded within an hour',
    make: () => {
      const from = new Date(SEEDED_AT - random(GAMES) * 1000);
      const to = new Date(from.getTime() + 3_600_000);
      return {
        query: `uploadedFrom=${from.toISOString()}&uploadedTo=${to.toISOString()}`,
        filters: { uploadedFrom: from, uploadedTo: to },
        where: 'g.uploaded_at >= $1 AND g.uploaded_at < $2',
        order: 'g.uploaded_at DESC, g.id DESC',
        params: [from, to],
      };
    },
  },
];

/** Games are seeded one second apart, the newest at this instant. */
const SEEDED_AT = Date.parse('2026-11-01T00:00:00Z');

export async function run(): Promise<void> {
  await onEachDatabase('search', measure);
}

async function measure(label: string, settings: Record<string, string>): Promise<void> {
  const { app, baseUrl } = await startInProcess(settings);
  try {
    await seed(app, label);
    await timeSearches(app, baseUrl, label);
  } finally {
    await app.close();
  }
}

/** Times every kind of search on an archive already seeded. */
async function timeSearches(app: INestApplication, baseUrl: string, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const repository = app.get(GamesSearchRepository);
  // The process and the database warm up first (JIT, plan and page caches), so the first kind timed is not the one that pays.
  for (let i = 0; i < 200; i++) {
    await (await fetch(`${baseUrl}/games?limit=${PAGE}`)).arrayBuffer();
    await repository.search({}, PAGE + 1);
    await db.query(`SELECT ${SUMMARY} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAMES} ORDER BY g.id DESC LIMIT ${PAGE + 1}`);
  }
  console.log(`search [${label}] at ${GAMES} games, ${SAMPLES} searches of each kind unless said (p50 / p95 ms):`);
  console.log(`  ${'search'.padEnd(40)} ${'HTTP'.padStart(13)} ${'archive SQL'.padStart(13)} ${'bare SQL'.padStart(13)}  goals`);
  for (const kind of KINDS) {
    const http: number[] = [];
    const archive: number[] = [];
    const bare: number[] = [];
    const samples = kind.samples ?? SAMPLES;
    const warmUp = Math.min(WARM_UP, samples / 4);
    for (let i = 0; i < warmUp + samples; i++) {
      const search = kind.make();
      const keep = i >= warmUp;
      const started = performance.now();
      const answer = await fetch(`${baseUrl}/games?limit=${PAGE}${search.query ? `&${search.query}` : ''}`);
      const body = (await answer.json()) as { items: { id: number }[] };
      if (answer.status !== 200) throw new Error(`${kind.name}: ${search.query} answered ${answer.status}`);
      if (keep) http.push(performance.now() - started);

      const timeArchive = async () => {
        const began = performance.now();
        const page = await repository.search(search.filters, PAGE + 1);
        if (keep) archive.push(performance.now() - began);
        return page;
      };
      const timeBare = async () => {
        const began = performance.now();
        const rows: { id: string }[] = await db.query(
          `SELECT ${SUMMARY} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAMES} WHERE ${search.where}
           ORDER BY ${search.order ?? 'g.id DESC'} LIMIT ${PAGE + 1}`,
          search.params,
        );
        await db.query(`SELECT * FROM game_players WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat`, [rows.map((row) => row.id)]);
        if (keep) bare.push(performance.now() - began);
        return rows;
      };
      // Taking turns at going first, so neither profits from pages the other just read.
      const page = i % 2 === 0 ? await timeArchive() : undefined;
      const rows = await timeBare();
      const pageAfter = page ?? (await timeArchive());

      // The three must agree, or the comparison means nothing (the HTTP search ran first, on its own random draw).
      if (pageAfter.map((hit) => hit.game.id).join() !== rows.map((row) => Number(row.id)).join()) {
        throw new Error(`${kind.name}: the archive's page differs from the bare query's`);
      }
      if (body.items.length > PAGE) throw new Error(`${kind.name}: page too long`);
    }
    const [h, a, b] = [http, archive, bare].map((values) => values.sort((x, y) => x - y));
    const cell = (values: number[]) => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`.padStart(13);
    const ratio = percentile(a, 95) / percentile(b, 95);
    const httpMet = percentile(h, 95) <= GOAL_MS;
    console.log(
      `  ${(kind.samples ? `${kind.name} (${kind.samples})` : kind.name).padEnd(40)} ${cell(h)} ${cell(a)} ${cell(b)}  HTTP p95 ≤ ${GOAL_MS} ms ${httpMet ? 'met' : 'NOT met'}; archive/bare ${ratio.toFixed(2)}× ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}`,
    );
  }
}

/**
 * Writes the games in SQL (uploads over HTTP would measure uploads). The secondary indexes are
 * dropped first and built again after, as one would bulk-load an archive; both steps are timed.
 */
async function seed(app: INestApplication, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const started = performance.now();
  const indexes: { name: string; definition: string }[] = await db.query(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename IN ('games', 'game_files', 'game_analyses', 'game_players', 'player_names')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  await db.query(
    `INSERT INTO formats (publisher, version, media_type)
     VALUES ('GoFans', '2.1', 'application/xml'), ('VK Dots', '1.0', 'text/plain; charset=utf-8'), ('BARS', '1', 'text/plain; charset=utf-8'),
            ('ViaThinkSoft Peg Solitaire', '2', 'text/plain; charset=utf-8')
     ON CONFLICT DO NOTHING`,
  );
  for (let from = 1; from <= GAMES; from += BATCH) {
    await db.transaction((manager) => manager.query(SEED_SQL, [from, Math.min(GAMES, from + BATCH - 1), GAMES, new Date(SEEDED_AT), FIRST_NAMES, SURNAMES]));
  }
  await db.query(`INSERT INTO player_names (name_key) SELECT DISTINCT name_key FROM game_players WHERE name_key IS NOT NULL ON CONFLICT DO NOTHING`);
  const written = performance.now();
  for (const index of indexes) await db.query(index.definition);
  await db.query('VACUUM ANALYZE');
  console.log(
    `search [${label}]: ${GAMES} games written in ${((written - started) / 1000).toFixed(0)} s, ${indexes.length} indexes built in ${((performance.now() - written) / 1000).toFixed(0)} s`,
  );
}

/** Games $1..$2 of $3, uploaded a second apart up to $4; names from $5 × $6. */
const SEED_SQL = `
  WITH source AS (
    SELECT n, (ARRAY['go', 'dots', 'checkers', 'peg-solitaire'])[1 + n % 4] AS family,
           (ARRAY['GoFans', 'VK Dots', 'BARS', 'ViaThinkSoft Peg Solitaire'])[1 + n % 4] AS publisher,
           (ARRAY['2.1', '1.0', '1', '2'])[1 + n % 4] AS version,
           n % 33 = 0 AS stored
    FROM generate_series($1::int, $2::int) AS n
  ), inserted AS (
    INSERT INTO games (format_id, family_id, indexed, status_reason, sha256, size, media_type, filename, uploaded_at, header_start, header_end, body_start, body_end)
    SELECT CASE WHEN NOT stored THEN (SELECT fm.id FROM formats fm WHERE fm.publisher = source.publisher AND fm.version = source.version) END,
           CASE WHEN NOT stored THEN (SELECT fa.id FROM families fa WHERE fa.name = source.family) END,
           NOT stored, CASE WHEN stored THEN 'text that no format plugin recognises' END,
           sha256(convert_to('seed ' || n, 'UTF8')), 400 + n % 600, CASE WHEN stored THEN 'text/plain; charset=utf-8' END, 'game-' || n || '.txt',
           $4::timestamptz - make_interval(secs => $3::int - n), 0, 40, 41, 400
    FROM source
    RETURNING id, (SELECT fa.name FROM families fa WHERE fa.id = games.family_id) AS family, CASE WHEN indexed THEN 'indexed' ELSE 'stored' END AS status
  ), files AS (
    INSERT INTO game_files (game_id, raw) SELECT id, convert_to('seed ' || id, 'UTF8') FROM inserted
  ), analyses AS (
    INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details, board_width, board_height, date_played, event, event_key, rules,
                               ending, margin)
    SELECT id, 20 + (id * 31) % 300, 'won', true, id % 17 <> 0, '[]', '{}',
           CASE family WHEN 'go' THEN (ARRAY[19, 13, 9])[1 + id % 3] WHEN 'dots' THEN 39 WHEN 'checkers' THEN 8 ELSE 7 END,
           CASE family WHEN 'go' THEN (ARRAY[19, 13, 9])[1 + id % 3] WHEN 'dots' THEN 32 WHEN 'checkers' THEN 8 ELSE 7 END,
           CASE WHEN id % 10 <> 0 THEN date '1995-01-01' + ((id * 7919) % 11000)::int END,
           CASE WHEN id % 4 <> 3 THEN 'Cup ' || (id * 13) % 500 END, CASE WHEN id % 4 <> 3 THEN 'cup ' || (id * 13) % 500 END,
           CASE family WHEN 'go' THEN (ARRAY['Japanese', 'Chinese', 'AGA', 'Korean'])[1 + (id / 4) % 4] WHEN 'checkers' THEN 'Russian draughts' END,
           ending, CASE ending WHEN 'score' THEN ((id * 37) % 400) / 2.0 WHEN 'draw' THEN 0 END
    FROM inserted CROSS JOIN LATERAL (
      SELECT CASE WHEN id % 10 = 0 THEN NULL ELSE (ARRAY['score', 'resignation', 'time', 'forfeit', 'draw', 'unknown'])[1 + (id * 7) % 6] END AS ending
    ) AS how
    WHERE status = 'indexed'
  ), people AS (
    SELECT id, seat, family, (id * 7919 + seat * 104729) % 50000 AS person FROM inserted CROSS JOIN (VALUES (0), (1)) AS s(seat)
    WHERE status = 'indexed' AND (family <> 'peg-solitaire' OR seat = 0)
  )
  INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, rating, declared_points, points, captures, outcome)
  SELECT id, seat, name, lower(name), (10000000 + person)::text, CASE seat WHEN 0 THEN 'black' ELSE 'white' END,
         CASE person % 4 WHEN 0 THEN NULL WHEN 1 THEN (1 + person % 9) || 'd' ELSE (1 + person % 30) || 'k' END, NULL, NULL, NULL,
         CASE WHEN family = 'peg-solitaire' THEN 'unfinished' WHEN (id + seat) % 3 = 0 THEN 'won' WHEN (id + seat) % 3 = 1 THEN 'lost' ELSE 'drawn' END
  FROM people CROSS JOIN LATERAL (
    SELECT CASE WHEN person % 97 = 0 THEN ($6::text[])[248 + person % 3]
                ELSE ($5::text[])[1 + person % 200] || ' ' || ($6::text[])[1 + (person / 200) % 247] END AS name
  ) AS named`;
