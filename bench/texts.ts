import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { appendFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import type { GameFilters } from '../src/catalog/game-view.js';
import { NAME_SOURCES, SUMMARY_COLUMNS, UPLOADED_KEY } from '../src/catalog/games.sql.js';
import { whereClause } from '../src/catalog/search-filters.sql.js';
import { GamesSearchRepository, orderOf } from '../src/games/games-search.repository.js';
import { TEXT_SEARCH_CONFIG, TEXT_SEPARATOR, fewTextGames, joinedTexts } from '../src/indexes/texts/text-query.js';
import { fillWordPairs } from '../migrations/1767100000000-WordPairs.js';
import { onEachDatabase, percentile, startInProcess } from './served.js';

/**
 * Full-text search at scale (`GET /games?text=`, the texts index): BENCH_TEXT_GAMES go games
 * (default 100,000) written in SQL, each with two named players, a day played over 30 years, the
 * game's own text (event and players, as the index keeps it) and 0–30 comments (mean ~10) of 5–25
 * words drawn Zipf-like from ~8,000 made-up words and some real English and Russian go words placed
 * at chosen ranks, so that common, medium and rare words exist. `game_words` is computed in SQL as
 * the index computes it. Then every kind of text query, alone, with a player and with a year
 * played, timed four ways in the same run: over HTTP (what a client sees, hits included), the
 * archive's own SQL (GamesSearchRepository.search, then hitsOf), a bare hand-written query (the
 * page from game_words and its players), and a brute force finding the same page with no text
 * index, by a case-insensitive regex over each game's texts (what an archive without the index
 * would run; fewer samples). Goals (issue 47): p95 ≤ 50 ms; ≤ 150 ms with a player or period filter.
 * Embedded database (on disk) always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const GAMES = Number(process.env.BENCH_TEXT_GAMES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_TEXT_SAMPLES ?? 100);
const BRUTE_SAMPLES = Number(process.env.BENCH_TEXT_BRUTE_SAMPLES ?? 5);
/** A file to append the plans (EXPLAIN ANALYZE) of the archive's and the bare page query to, once a kind. */
const EXPLAIN_TO = process.env.BENCH_TEXT_EXPLAIN;
const BATCH = 10_000;
const WARM_UP = 10;
const PAGE = 20;
const GOAL_MS = 50;
const GOAL_FILTERED_MS = 150;

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(values: readonly T[]): T => values[random(values.length)];
const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

function syllable(seed: number): string {
  const consonants = 'bdgklmnprstvz';
  const vowels = 'aeiou';
  return consonants[seed % consonants.length] + vowels[Math.floor(seed / consonants.length) % vowels.length];
}

const FIRST_NAMES = Array.from({ length: 200 }, (_, i) => capital(`${syllable(i)}${syllable(i * 7 + 3)}${i % 3 === 0 ? 'a' : 'o'}`));
const SURNAMES = Array.from({ length: 250 }, (_, i) => capital(`${syllable(i * 5 + 1)}${syllable(i * 11 + 2)}${syllable(i + 9)}v`));

/** Made-up words: consonant-vowel twice and a last consonant none of the names ends with. */
const MADE_UP_WORDS = (() => {
  const consonants = 'bdfghjklmnprstvz';
  const vowels = 'aeiou';
  const syllables = [...consonants].flatMap((c) => [...vowels].map((v) => c + v));
  const words: string[] = [];
  for (let i = 0; words.length < 8_000; i++) {
    words.push(syllables[(i * 37) % syllables.length] + syllables[Math.floor(i / syllables.length) % syllables.length] + 'krx'[Math.floor(i / syllables.length ** 2) % 3]);
  }
  return words;
})();

/** Real go words and the rank (1 = most frequent) each is drawn at. */
const PLACED: Record<string, number> = {
  ko: 1, ход: 2, sente: 3, атака: 5, gote: 8,
  ошибка: 60, ladder: 100, лестница: 150, tesuji: 200, joseki: 300, ошибку: 400, защита: 500, атаку: 900, ошибкой: 1_200,
  miai: 6_000, тэсудзи: 6_500, aji: 7_000, seki: 7_500, жертва: 7_900,
};

/** The words the comments are drawn from, most frequent first (rank r drawn with probability ∝ ~1/r). */
const VOCABULARY = (() => {
  const words = [...MADE_UP_WORDS];
  for (const [word, rank] of Object.entries(PLACED).sort((a, b) => a[1] - b[1])) words.splice(rank - 1, 0, word);
  return words;
})();

const COMMON = ['ko', 'ход', 'sente', 'атака', 'gote'];
const MEDIUM = ['ladder', 'лестница', 'tesuji', 'joseki', 'защита'];
/** Real rare words and made-up words of the last thousand ranks. */
const RARE = ['miai', 'тэсудзи', 'aji', 'seki', 'жертва', ...VOCABULARY.slice(-1_000).filter((word) => !(word in PLACED))];
/** Russian words asked in a form no comment writes (each another form of a word drawn). */
const OTHER_FORMS = ['ошибки', 'лестницу', 'атакой', 'защиты'];

/** One term of a query as the brute force finds it: any written form the configuration stems the same. */
type Forms = (word: string) => readonly string[];

/** One kind of text query: the text sent and the same condition as regexes over a game's texts together. */
interface TextKind {
  readonly name: string;
  make(forms: Forms): { text: string; brute: BruteCondition };
}

/** Regexes every one of which `all` must match, `none` must not, `any`: at least one. */
interface BruteCondition {
  readonly all?: readonly string[];
  readonly none?: readonly string[];
  readonly any?: readonly string[];
}

/** Letters and digits; anything else parts words, as the text search parser parts them here. */
const APART = '[^a-z0-9а-яё]';
const wordRegex = (forms: readonly string[]) => `(^|${APART})(${forms.join('|')})(${APART}|$)`;
const phraseRegex = (first: readonly string[], second: readonly string[]) => `(^|${APART})(${first.join('|')})${APART}+(${second.join('|')})(${APART}|$)`;

const KINDS: TextKind[] = [
  { name: 'rare word', make: (forms) => { const w = pick(RARE); return { text: w, brute: { all: [wordRegex(forms(w))] } }; } },
  { name: 'medium word', make: (forms) => { const w = pick(MEDIUM); return { text: w, brute: { all: [wordRegex(forms(w))] } }; } },
  { name: 'common word', make: (forms) => { const w = pick(COMMON); return { text: w, brute: { all: [wordRegex(forms(w))] } }; } },
  {
    name: 'two words',
    make: (forms) => {
      const a = pick(MEDIUM);
      const b = pick(MEDIUM.filter((w) => w !== a));
      return { text: `${a} ${b}`, brute: { all: [wordRegex(forms(a)), wordRegex(forms(b))] } };
    },
  },
  {
    name: 'phrase',
    make: (forms) => {
      const a = pick(COMMON);
      const b = pick(MEDIUM);
      return { text: `"${a} ${b}"`, brute: { all: [phraseRegex(forms(a), forms(b))] } };
    },
  },
  {
    name: 'word -word',
    make: (forms) => {
      const a = pick(MEDIUM);
      const b = pick(COMMON);
      return { text: `${a} -${b}`, brute: { all: [wordRegex(forms(a))], none: [wordRegex(forms(b))] } };
    },
  },
  {
    name: 'a or b',
    make: (forms) => {
      const a = pick(RARE);
      const b = pick(RARE.filter((w) => w !== a));
      return { text: `${a} or ${b}`, brute: { any: [wordRegex(forms(a)), wordRegex(forms(b))] } };
    },
  },
  { name: 'Russian, another form', make: (forms) => { const w = pick(OTHER_FORMS); return { text: w, brute: { all: [wordRegex(forms(w))] } }; } },
];

/** What narrows a text query besides its words: the filters, the query string, and the same SQL (on `games g`, `game_analyses a`). */
interface Narrowing {
  readonly name: string;
  readonly goal: number;
  make(): { query: string; filters: GameFilters; where: string; params: unknown[] };
}

const NARROWINGS: Narrowing[] = [
  { name: '', goal: GOAL_MS, make: () => ({ query: '', filters: {}, where: 'true', params: [] }) },
  {
    name: ' + player',
    goal: GOAL_FILTERED_MS,
    make: () => {
      const part = pick(SURNAMES).slice(0, 5).toLowerCase();
      return {
        query: `&player=${part}`,
        filters: { player: part },
        where: `g.id IN (SELECT game_id FROM game_players WHERE name_key IN (SELECT name_key FROM player_names WHERE name_key LIKE $P))`,
        params: [`%${part}%`],
      };
    },
  },
  {
    name: ' + a year played',
    goal: GOAL_FILTERED_MS,
    make: () => {
      const year = 1995 + random(30);
      return {
        query: `&playedFrom=${year}-01-01&playedTo=${year}-12-31`,
        filters: { playedFrom: `${year}-01-01`, playedTo: `${year}-12-31` },
        where: `a.date_played >= $P::date AND a.date_played <= $P::date`,
        params: [`${year}-01-01`, `${year}-12-31`],
      };
    },
  },
];

/** Numbers the `$P` placeholders of `sql` from `$first` on. */
function numbered(sql: string, first: number): string {
  let n = first;
  return sql.replace(/\$P/g, () => `$${n++}`);
}

/** `server`: the PostgreSQL server alone, skipping the embedded database (with BENCH_DATABASE_URL). */
const SERVER_ONLY = process.env.BENCH_TEXT_ONLY === 'server';

export async function run(): Promise<void> {
  await onEachDatabase('texts', measure, !SERVER_ONLY);
}

async function measure(label: string, settings: Record<string, string>): Promise<void> {
  const began = performance.now();
  // The searches are timed, not cut short (SEARCH_TIMEOUT_MS guards the archive, not the bench).
  const { app, baseUrl } = await startInProcess({ ...settings, SEARCH_TIMEOUT_MS: String(600_000) });
  try {
    await seed(app, label);
    await timeSearches(app, baseUrl, label);
  } finally {
    await app.close();
  }
  console.log(`texts [${label}]: the whole run took ${((performance.now() - began) / 1000).toFixed(0)} s`);
}

/** Each query word's written forms: the words of the vocabulary the configuration reads as that word. */
async function formsOf(db: DataSource): Promise<Forms> {
  const asked = [...new Set([...COMMON, ...MEDIUM, ...RARE, ...OTHER_FORMS])];
  // Each word's lexeme once (a query's single word is stemmed as a text's is), then matched here.
  const rows: { word: string; lexemes: string[] }[] = await db.query(
    `SELECT v AS word, tsvector_to_array(to_tsvector('${TEXT_SEARCH_CONFIG}', v)) AS lexemes FROM unnest($1::text[]) AS v`,
    [[...new Set([...VOCABULARY, ...asked])]],
  );
  const lexemeOf = new Map(rows.map((row) => [row.word, row.lexemes.join(' ')]));
  const written = new Map<string, string[]>();
  for (const word of VOCABULARY) written.set(lexemeOf.get(word)!, [...(written.get(lexemeOf.get(word)!) ?? []), word]);
  const forms = new Map(asked.flatMap((word) => (written.has(lexemeOf.get(word)!) ? [[word, written.get(lexemeOf.get(word)!)!] as const] : [])));
  for (const word of asked) {
    if (!forms.has(word)) throw new Error(`texts: no word drawn is read as '${word}'`);
  }
  for (const word of OTHER_FORMS) {
    if (forms.get(word)!.includes(word)) throw new Error(`texts: '${word}' is written as asked`);
  }
  console.log(`texts: written forms of the Russian words asked: ${OTHER_FORMS.map((word) => `${word} → ${forms.get(word)!.join('/')}`).join(', ')}`);
  return (word) => forms.get(word)!;
}

interface Timings {
  http: number[];
  archive: number[];
  hits: number[];
  bare: number[];
  adaptive: number[];
  brute: number[];
  matches: number[];
  withoutHit: number;
  listed: number;
}

/** Times every kind of text query, alone and narrowed, on an archive already seeded. */
async function timeSearches(app: INestApplication, baseUrl: string, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const repository = app.get(GamesSearchRepository);
  const forms = await formsOf(db);
  for (let i = 0; i < 50; i++) {
    await (await fetch(`${baseUrl}/games?limit=${PAGE}&text=${encodeURIComponent(pick(MEDIUM))}`)).arrayBuffer();
    await repository.search({ text: pick(COMMON) }, PAGE + 1);
  }
  console.log(`texts [${label}] at ${GAMES} games, ${SAMPLES} searches of each kind (brute force ${BRUTE_SAMPLES}), p50 / p95 ms:`);
  console.log(
    `  ${'query'.padEnd(40)} ${'games found'.padStart(12)} ${'HTTP'.padStart(13)} ${'archive SQL'.padStart(13)} ${'of which hits'.padStart(13)} ${'bare SQL'.padStart(13)} ${'adaptive SQL'.padStart(13)} ${'brute force'.padStart(15)}  goal (HTTP p95)`,
  );
  for (const narrowing of NARROWINGS) {
    for (const kind of KINDS) {
      const t: Timings = { http: [], archive: [], hits: [], bare: [], adaptive: [], brute: [], matches: [], withoutHit: 0, listed: 0 };
      for (let i = 0; i < WARM_UP + SAMPLES; i++) {
        const keep = i >= WARM_UP;
        const { text, brute } = kind.make(forms);
        const narrow = narrowing.make();
        const filters: GameFilters = { ...narrow.filters, text };

        let started = performance.now();
        const answer = await fetch(`${baseUrl}/games?limit=${PAGE}&text=${encodeURIComponent(text)}${narrow.query}`);
        const body = (await answer.json()) as { items: { id: number; hits?: unknown[] }[] };
        if (answer.status !== 200) throw new Error(`${kind.name}${narrowing.name}: ${text} answered ${answer.status}: ${JSON.stringify(body)}`);
        if (keep) t.http.push(performance.now() - started);
        if (body.items.length > PAGE) throw new Error(`${kind.name}: page too long`);
        if (keep) {
          t.listed += body.items.length;
          t.withoutHit += body.items.filter((item) => (item.hits ?? []).length === 0).length;
        }

        const timeArchive = async () => {
          const began = performance.now();
          // As GamesService.search asks: the query's games from the GIN index first, when few.
          // As GamesService.search asks it.
          const page = await repository.search({ ...filters, textGames: await fewTextGames(repository, text) }, PAGE + 1);
          const beganHits = performance.now();
          const ids = page.slice(0, PAGE).map((hit) => hit.game.id);
          if (ids.length > 0) await repository.hitsOf(ids, text);
          const ended = performance.now();
          if (keep) {
            t.archive.push(ended - began);
            t.hits.push(ended - beganHits);
          }
          return page.map((hit) => hit.game.id);
        };
        const timeBare = async () => {
          const began = performance.now();
          const rows: { id: string }[] = await db.query(
            `SELECT ${SUMMARY_COLUMNS} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
             WHERE g.id IN (SELECT game_id FROM game_words WHERE words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1)) AND ${numbered(narrow.where, 2)}
             ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
            [text, ...narrow.params],
          );
          await db.query(`SELECT * FROM game_players WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat`, [rows.map((row) => row.id)]);
          if (keep) bare.push(performance.now() - began);
          return rows.map((row) => Number(row.id));
        };
        const bare = t.bare;
        // Taking turns at going first, so neither profits from pages the other just read.
        const first = i % 2 === 0 ? await timeArchive() : undefined;
        const rows = await timeBare();
        const adaptiveStarted = performance.now();
        const adaptive = await adaptivePage(db, text, narrow.where, narrow.params);
        if (keep) t.adaptive.push(performance.now() - adaptiveStarted);
        if (adaptive.join() !== rows.join()) throw new Error(`${kind.name}${narrowing.name} (${text}): the adaptive page differs from the bare query's`);
        const page = first ?? (await timeArchive());
        if (page.join() !== rows.join()) throw new Error(`${kind.name}${narrowing.name} (${text}): the archive's page differs from the bare query's`);

        if (EXPLAIN_TO !== undefined && i === WARM_UP) await explain(db, `${label}: ${kind.name}${narrowing.name} (${text})`, filters, narrow.where, narrow.params);
        if (keep && i - WARM_UP < BRUTE_SAMPLES) {
          started = performance.now();
          const found = await bruteForce(db, brute, narrow.where, narrow.params);
          t.brute.push(performance.now() - started);
          if (found.join() !== rows.join()) {
            throw new Error(`${kind.name}${narrowing.name} (${text}): the brute force found ${found.join()}, the index ${rows.join()}`);
          }
          const [{ count }]: { count: string }[] = await db.query(
            `SELECT count(*) FROM game_words w JOIN game_analyses a ON a.game_id = w.game_id JOIN games g ON g.id = w.game_id
             WHERE w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1) AND ${numbered(narrow.where, 2)}`,
            [text, ...narrow.params],
          );
          t.matches.push(Number(count));
        }
      }
      report(`${kind.name}${narrowing.name}`, narrowing.goal, t);
    }
  }
}

/** Appends to {@link EXPLAIN_TO} the plans of the archive's page query (as GamesSearchRepository.search sends it) and of the bare one. */
async function explain(db: DataSource, title: string, filters: GameFilters, where: string, params: unknown[]): Promise<void> {
  const archive = whereClause(filters, PAGE + 1);
  archive.params.push(PAGE + 1);
  const plan = async (sql: string, values: unknown[]) =>
    ((await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values)) as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
  const archivePlan = await plan(
    `SELECT ${SUMMARY_COLUMNS}, ${UPLOADED_KEY} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
     WHERE ${archive.where.join(' AND ')} ORDER BY ${orderOf(filters)} LIMIT $${archive.params.length}`,
    archive.params,
  );
  const barePlan = await plan(
    `SELECT ${SUMMARY_COLUMNS} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
     WHERE g.id IN (SELECT game_id FROM game_words WHERE words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1)) AND ${numbered(where, 2)}
     ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
    [filters.text, ...params],
  );
  appendFileSync(EXPLAIN_TO!, `\n=== ${title}\n--- archive\n${archivePlan}\n--- bare\n${barePlan}\n`);
}

function report(name: string, goal: number, t: Timings): void {
  const sorted = [t.http, t.archive, t.hits, t.bare, t.adaptive, t.brute].map((values) => values.sort((x, y) => x - y));
  const [h, a, hits, b, adaptive, brute] = sorted;
  const cell = (values: number[], width = 13) => (values.length === 0 ? '—' : `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`).padStart(width);
  const matches = t.matches.sort((x, y) => x - y);
  const found = matches.length === 0 ? '' : `${matches[0]}–${matches[matches.length - 1]}`;
  const met = percentile(h, 95) <= goal;
  const missing = t.withoutHit > 0 ? `; ${t.withoutHit} of ${t.listed} listed games had no hit` : '';
  console.log(
    `  ${name.padEnd(40)} ${found.padStart(12)} ${cell(h)} ${cell(a)} ${cell(hits)} ${cell(b)} ${cell(adaptive)} ${cell(brute, 15)}  ≤ ${goal} ms ${met ? 'met' : 'NOT met'}${missing}`,
  );
}

/** Matches up to which the adaptive query takes every matching game from the GIN index. */
const SPARSE = Number(process.env.BENCH_TEXT_SPARSE ?? 500);

/**
 * A page query that does not leave the choice to the planner (a try at a fix, page ids only): first
 * up to {@link SPARSE} games from the GIN index alone (a bitmap scan, its cost bound by the games it
 * finds) holding the query's words, phrases read as their words together (which the index answers
 * without reading a game's words); fewer than that, the page is those games that meet the query
 * and the filters, newest first; else the words are common enough for the newest-first walk the
 * planner picks for the bare query.
 */
async function adaptivePage(db: DataSource, text: string, where: string, params: unknown[]): Promise<number[]> {
  return db.transaction(async (manager) => {
    await manager.query('SET LOCAL enable_seqscan = off');
    await manager.query('SET LOCAL enable_indexscan = off');
    const found: { game_id: string }[] = await manager.query(
      `SELECT game_id FROM game_words
       WHERE words @@ regexp_replace(websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1)::text, '<[0-9]+>|<->', '&', 'g')::tsquery LIMIT ${SPARSE}`,
      [text],
    );
    await manager.query('SET LOCAL enable_seqscan = on');
    await manager.query('SET LOCAL enable_indexscan = on');
    const rows: { id: string }[] =
      found.length < SPARSE
        ? await manager.query(
            `SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
             WHERE g.id = ANY($1::bigint[]) AND ${numbered(where, 3)}
               AND EXISTS (SELECT 1 FROM game_words w WHERE w.game_id = g.id AND w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $2))
             ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
            [found.map((row) => row.game_id), text, ...params],
          )
        : await manager.query(
            `SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
             WHERE g.id IN (SELECT game_id FROM game_words WHERE words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1)) AND ${numbered(where, 2)}
             ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
            [text, ...params],
          );
    return rows.map((row) => Number(row.id));
  });
}

/**
 * The same page found with no text index: each game's texts joined as the index joins them,
 * matched by case-insensitive regexes of the words' written forms, newest first.
 */
async function bruteForce(db: DataSource, condition: BruteCondition, where: string, params: unknown[]): Promise<number[]> {
  const regexes: unknown[] = [];
  const regex = (value: string) => {
    regexes.push(value);
    return `$${params.length + regexes.length}`;
  };
  const tests = [
    ...(condition.all ?? []).map((value) => `x.body ~* ${regex(value)}`),
    ...(condition.none ?? []).map((value) => `NOT x.body ~* ${regex(value)}`),
    ...(condition.any === undefined ? [] : [`(${condition.any.map((value) => `x.body ~* ${regex(value)}`).join(' OR ')})`]),
  ];
  return db.transaction(async (manager) => {
    await manager.query('SET LOCAL statement_timeout = 0');
    const rows: { id: string }[] = await manager.query(
      `SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
       -- Joined as the index joins them: a phrase does not run from one text into the next.
       CROSS JOIN LATERAL (SELECT string_agg(t.body, ' ${joinedTexts(['', '']).trim()} ' ORDER BY t.n) AS body FROM game_texts t WHERE t.game_id = g.id) x
       WHERE ${numbered(where, 1)} AND x.body IS NOT NULL AND ${tests.join(' AND ')}
       ORDER BY g.id DESC LIMIT ${PAGE + 1}`,
      [...params, ...regexes],
    );
    return rows.map((row) => Number(row.id));
  });
}

/**
 * Writes the games and their texts in SQL (uploads over HTTP would measure uploads). The secondary
 * indexes of the tables written are dropped first and built again after, as one would bulk-load an
 * archive; both steps are timed.
 */
async function seed(app: INestApplication, label: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const started = performance.now();
  const indexes: { name: string; definition: string }[] = await db.query(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename IN ('games', 'game_files', 'game_analyses', 'game_players', 'player_names', 'game_texts', 'game_words', 'game_word_pairs')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  await db.query(`INSERT INTO formats (publisher, version, media_type) VALUES ('GoFans', '2.1', 'application/xml') ON CONFLICT DO NOTHING`);
  for (let from = 1; from <= GAMES; from += BATCH) {
    const to = Math.min(GAMES, from + BATCH - 1);
    await db.transaction(async (manager) => {
      const [{ first }]: { first: string }[] = await manager.query(GAMES_SQL, [from, to, GAMES, new Date(SEEDED_AT), FIRST_NAMES, SURNAMES]);
      const last = Number(first) + (to - from);
      await manager.query(TEXTS_SQL, [Number(first), last, VOCABULARY]);
      await manager.query(
        `INSERT INTO game_words (game_id, words)
         SELECT game_id, ts_delete(to_tsvector('${TEXT_SEARCH_CONFIG}', string_agg(body, $3 ORDER BY n)), '${TEXT_SEPARATOR}') FROM game_texts
         WHERE game_id BETWEEN $1 AND $2 GROUP BY game_id`,
        [Number(first), last, joinedTexts(['', ''])],
      );
    });
  }
  await db.query(`INSERT INTO player_names (name_key) SELECT DISTINCT name_key FROM game_players WHERE name_key IS NOT NULL ON CONFLICT DO NOTHING`);
  // The word pairs by the WordPairs migration's own statement: its time is what that migration takes for games stored before it.
  const paired = performance.now();
  await fillWordPairs((sql, params) => db.query(sql, params));
  const pairSeconds = (performance.now() - paired) / 1000;
  const written = performance.now();
  for (const index of indexes) await db.query(index.definition);
  await db.query('VACUUM ANALYZE');
  const [sizes]: { comments: string; words: string; texts_bytes: string; words_bytes: string; gin_bytes: string; pairs_bytes: string; pairs_gin_bytes: string }[] = await db.query(
    `SELECT (SELECT count(*) FROM game_texts WHERE n > 0) AS comments, (SELECT sum(length(body) - length(replace(body, ' ', '')) + 1) FROM game_texts WHERE n > 0) AS words,
            pg_total_relation_size('game_texts') AS texts_bytes, pg_relation_size('game_words') + coalesce(pg_relation_size(pg_class.reltoastrelid), 0) AS words_bytes,
            pg_relation_size('game_words_words') AS gin_bytes,
            pg_total_relation_size('game_word_pairs') - pg_relation_size('game_word_pairs_pairs') AS pairs_bytes, pg_relation_size('game_word_pairs_pairs') AS pairs_gin_bytes
     FROM pg_class WHERE relname = 'game_words'`,
  );
  const mb = (bytes: string) => `${(Number(bytes) / 1024 ** 2).toFixed(0)} MB`;
  console.log(
    `texts [${label}]: ${GAMES} games, ${sizes.comments} comments, ${sizes.words} words written in ${((written - started) / 1000).toFixed(0)} s, ` +
      `${indexes.length} indexes built in ${((performance.now() - written) / 1000).toFixed(0)} s; game_texts ${mb(sizes.texts_bytes)}, game_words ${mb(sizes.words_bytes)}, its GIN ${mb(sizes.gin_bytes)}; ` +
      `game_word_pairs ${mb(sizes.pairs_bytes)}, its GIN ${mb(sizes.pairs_gin_bytes)}, filled from game_words by the WordPairs migration's statement in ${pairSeconds.toFixed(1)} s ` +
      `(${((pairSeconds * 1e6) / GAMES).toFixed(0)} s per million games like these)`,
  );
}

/** Games are seeded one second apart, the newest at this instant. */
const SEEDED_AT = Date.parse('2026-11-01T00:00:00Z');

/** Go games $1..$2 of $3 (uploaded a second apart up to $4, named from $5 × $6), their files, analyses and players; answers the first id. */
const GAMES_SQL = `
  WITH inserted AS (
    INSERT INTO games (format_id, family_id, indexed, status_reason, sha256, size, media_type, filename, uploaded_at, header_start, header_end, body_start, body_end)
    SELECT (SELECT fm.id FROM formats fm WHERE fm.publisher = 'GoFans' AND fm.version = '2.1'), (SELECT fa.id FROM families fa WHERE fa.name = 'go'),
           true, NULL, sha256(convert_to('texts seed ' || n, 'UTF8')), 400 + n % 600, NULL, 'game-' || n || '.xml',
           $4::timestamptz - make_interval(secs => $3::int - n), 0, 40, 41, 400
    FROM generate_series($1::int, $2::int) AS n
    RETURNING id
  ), files AS (
    INSERT INTO game_files (game_id, raw) SELECT id, convert_to('texts seed ' || id, 'UTF8') FROM inserted
  ), analyses AS (
    INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details, board_width, board_height, date_played, event, event_key, rules)
    SELECT id, 20 + (id * 31) % 300, 'won', true, true, '[]', '{}', 19, 19, date '1995-01-01' + ((id * 7919) % 10950)::int,
           'Cup ' || (id * 13) % 500, 'cup ' || (id * 13) % 500, 'Japanese'
    FROM inserted
  ), people AS (
    SELECT id, seat, (id * 7919 + seat * 104729) % 50000 AS person FROM inserted CROSS JOIN (VALUES (0), (1)) AS s(seat)
  ), players AS (
    INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, rating, declared_points, points, captures, outcome)
    SELECT id, seat, name, lower(name), (10000000 + person)::text, CASE seat WHEN 0 THEN 'black' ELSE 'white' END, NULL, NULL, NULL, NULL,
           CASE seat WHEN 0 THEN 'won' ELSE 'lost' END
    FROM people CROSS JOIN LATERAL (SELECT ($5::text[])[1 + person % 200] || ' ' || ($6::text[])[1 + (person / 200) % 250] AS name) AS named
  )
  SELECT min(id) AS first FROM inserted`;

/**
 * The texts of games $1..$2 as the index writes them: the game's own (event · players) at ply 0,
 * then 0–30 comments (mean ~10) of 5–25 words, word rank r drawn with probability ln((r+1)/r)/ln(V+1)
 * from the vocabulary $3 of V words.
 */
const TEXTS_SQL = `
  WITH own AS (
    INSERT INTO game_texts (game_id, n, ply, body)
    SELECT a.game_id, 0, 0, a.event || ' · ' || string_agg(p.name, ' · ' ORDER BY p.seat)
    FROM game_analyses a JOIN game_players p ON p.game_id = a.game_id
    WHERE a.game_id BETWEEN $1 AND $2 GROUP BY a.game_id, a.event
  ), comments AS (
    -- (0 * g.id: a draw of its own for each game, not one for all)
    SELECT g.id, k, 5 + floor(21 * random())::int AS length
    FROM generate_series($1::bigint, $2::bigint) AS g(id) CROSS JOIN LATERAL generate_series(1, floor(31 * random() ^ 2)::int + 0 * g.id::int) AS k
  )
  INSERT INTO game_texts (game_id, n, ply, body)
  SELECT c.id, c.k, c.k * 5 + floor(5 * random())::int,
         (SELECT string_agg(($3::text[])[floor(power(cardinality($3::text[]) + 1, random()))::int], ' ') FROM generate_series(1, c.length)) || '.'
  FROM comments c`;
