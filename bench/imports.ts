import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import type { DataSource } from 'typeorm';
import yauzl from 'yauzl';
import { GamesExportRepository } from '../src/games/games-export.repository.js';
import { GamesViewRepository } from '../src/games/games-view.repository.js';
import { GAME_INDEXES } from '../src/indexes/registry.js';
import { apply } from '../src/rules/symmetry.js';
import type { Transform } from '../src/rules/symmetry.js';
import { TYGEM_GAMES, realdataForBench } from '../test/support/realdata.js';
import { timeExport } from './export.js';
import { startInProcess, withScratchDatabase } from './served.js';

/**
 * Bulk import benchmark: BENCH_IMPORT_GAMES real-shaped Go games (default 100,000) — the TYGEM games
 * of January to June 2006 in the shared real data (TABULA_REALDATA, default ../shared/realdata; never
 * copied into the project: the bench stops, saying so, without them), each month's moves wrapped
 * as SGF with the index's players, date and result, repeated with a game name telling the copies
 * apart when more games are asked for than the 39,589 there are — packed as SGF collections of
 * 5,000 games (about 7 MB, under the default MAX_UPLOAD_BYTES of 10 MB) into one tar, sent to POST /imports of an archive on the
 * embedded database in a temporary DATA_DIR (and, with BENCH_DATABASE_URL, of one on that server), polled until done. Printed in one run: import games/s,
 * the same rows written again by bare SQL into empty copies of the same tables with their indexes,
 * checks and foreign keys (a binary COPY of every table the import writes, the physical limit, goal ≥ 35 % of it; the same COPY
 * without the foreign keys beside it; and INSERT … SELECT), the process's RSS
 * during the import (the server runs in this process; the client only streams a file), and the same
 * games exported as NDJSON (goal ≥ 10,000 games/s, taken by curl in a process of its own) beside the
 * export's own database reads of them, with the RSS during the export. Then BENCH_IMPORT_SINGLE_GAMES
 * games (default 2,000) imported as a folder of single-game files, as most clubs keep them, beside the
 * same games packed in collections, each into a fresh archive: the per-game cost of a file of one
 * game (goal: at most 4× a collection's). Each timed phase starts from a CHECKPOINT.
 * BENCH_IMPORT_EMBEDDED=false: the server alone.
 */
const MONTHS = ['2006-01', '2006-02', '2006-03', '2006-04', '2006-05', '2006-06'];
const PER_FILE = 5_000;
/** Games an export lists a query (the export service's batch). */
const EXPORT_BATCH = 2000;
/**
 * The tables an import writes, each after those it refers to: the kept files and their games, every
 * index's tables (src/indexes/registry.ts), and the files' and the import's records.
 */
const TABLES = ['uploads', 'games', ...GAME_INDEXES.flatMap((index) => index.tables), 'upload_games', 'import_entries'];
/** Games imported as single-game files, and again as collections, for the per-game cost of a file (BENCH_IMPORT_SINGLE_GAMES). */
const SINGLE_GAMES = Number(process.env.BENCH_IMPORT_SINGLE_GAMES ?? 2_000);

export async function run(): Promise<void> {
  const tygem = realdataForBench('imports', TYGEM_GAMES);
  const wanted = Number(process.env.BENCH_IMPORT_GAMES ?? 100_000);
  const folder = await mkdtemp(join(tmpdir(), 'tabula-bench-imports-'));
  try {
    const made = performance.now();
    const tarPath = join(folder, 'games.tar');
    const { games, files } = await packGames(tygem, wanted, tarPath);
    console.log(`imports: ${games} TYGEM games as ${files} SGF collections, ${((await stat(tarPath)).size / 1e6).toFixed(1)} MB of tar, made in ${((performance.now() - made) / 1000).toFixed(1)} s`);

    const singles = join(folder, 'singles.tar');
    const packed = join(folder, 'packed.tar');
    const single = await packGames(tygem, SINGLE_GAMES, singles, { perFile: 1 });
    await packGames(tygem, SINGLE_GAMES, packed);
    console.log(`imports: the first ${single.games} of them as ${single.files} single-game files, and as collections`);

    // BENCH_IMPORT_EMBEDDED=false: the server alone.
    if (process.env.BENCH_IMPORT_EMBEDDED !== 'false') {
      await measure('embedded PostgreSQL (PGlite)', tarPath, { DATA_DIR: join(folder, 'data') });
      await measureSingles('embedded PostgreSQL (PGlite)', singles, packed, single.games, (name) => ({ DATA_DIR: join(folder, name) }));
    }
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      console.log('imports: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
      return;
    }
    await withScratchDatabase(serverUrl, 'tabula_bench_imports', (url) => measure('PostgreSQL server', tarPath, { DATABASE_URL: url }));
    await withScratchDatabase(serverUrl, 'tabula_bench_singles', (singlesUrl) =>
      withScratchDatabase(serverUrl, 'tabula_bench_packed', (packedUrl) =>
        measureSingles('PostgreSQL server', singles, packed, single.games, (name) => ({ DATABASE_URL: name === 'singles' ? singlesUrl : packedUrl })),
      ),
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** One import of the tar into a fresh archive with `settings`, and the figures beside it. */
async function measure(label: string, tarPath: string, settings: Record<string, string>): Promise<void> {
  {
    const { app, baseUrl } = await startInProcess({ ...settings, MAX_IMPORT_BYTES: String(4 * 1024 ** 3) });
    try {
      const db = app.get<DataSource>(getDataSourceToken());
      // Each timed phase starts from a checkpoint: none pays for flushing the writes of the one before.
      await db.query('CHECKPOINT');
      const rss = () => process.memoryUsage.rss() / 1024 / 1024;
      const before = rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
      const started = performance.now();
      const { state, acceptedMs } = await sendImport(baseUrl, tarPath);
      const ms = performance.now() - started;
      clearInterval(sampler);
      console.log(
        `imports [${label}]: ${state.gamesStored} games stored (${state.duplicates} duplicates, ${state.refused} files refused, state ${state.state}) ` +
          `in ${(ms / 1000).toFixed(1)} s: ${rate(state.gamesStored, ms)} games/s (202 after ${(acceptedMs / 1000).toFixed(1)} s)`,
      );
      console.log(`imports [${label}]: RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during the import`);

      const copy = await timeRawCopy(db, true);
      const share = (copy / ms) * 100;
      console.log(
        `imports [${label}]: raw COPY of the same rows (binary, from files written by COPY TO) into empty copies of ${TABLES.join(', ')} ` +
          `with their indexes, checks and foreign keys: ${rate(state.gamesStored, copy)} games/s`,
      );
      console.log(`imports [${label}]: the import runs at ${share.toFixed(1)} % of it (goal ≥ 35 %): ${share >= 35 ? 'met' : 'NOT met'}`);
      const unchecked = await timeRawCopy(db, false);
      console.log(
        `imports [${label}]: the same COPY into copies without foreign keys: ${rate(state.gamesStored, unchecked)} games/s (the import at ${((unchecked / ms) * 100).toFixed(1)} % of it)`,
      );
      const bare = await timeBareCopy(db);
      console.log(`imports [${label}]: INSERT … SELECT of the same rows into empty copies: ${rate(state.gamesStored, bare)} games/s`);

      await db.query('CHECKPOINT');
      const reads = await timeExportReads(app.get(GamesExportRepository), app.get(GamesViewRepository));
      console.log(`imports [${label}]: the export's own reads of the same games (keys, then views a batch of ${EXPORT_BATCH} at a time), no JSON, no HTTP: ${rate(state.gamesStored, reads)} games/s`);
      const exported = await timeExport(`${baseUrl}/games/export?limit=${state.gamesStored}`, 'application/x-ndjson');
      const exportRate = state.gamesStored / (exported.ms / 1000);
      console.log(
        `imports [${label}]: the same games exported as NDJSON: ${exportRate.toFixed(0)} games/s (goal ≥ 10,000/s: ${exportRate >= 10_000 ? 'met' : 'NOT met'}), ` +
          `${(exported.bytes / 1e6).toFixed(1)} MB; RSS ${exported.before.toFixed(0)} MB before, peak ${exported.peak.toFixed(0)} MB during`,
      );
    } finally {
      await app.close();
    }
  }
}

/**
 * The same games imported as single-game files and as collections, each into a fresh archive (the
 * settings `settingsFor('singles')` and `settingsFor('packed')`): games/s of each, and how many
 * times a collection's per-game cost a single file's is.
 */
async function measureSingles(label: string, singles: string, packed: string, games: number, settingsFor: (name: 'singles' | 'packed') => Record<string, string>): Promise<void> {
  const timed = async (name: 'singles' | 'packed', tarPath: string) => {
    const { app, baseUrl } = await startInProcess(settingsFor(name));
    try {
      await app.get<DataSource>(getDataSourceToken()).query('CHECKPOINT');
      const started = performance.now();
      const { state } = await sendImport(baseUrl, tarPath);
      if (state.gamesStored !== games) throw new Error(`the ${name} import stored ${state.gamesStored} of ${games} games (state ${state.state}, ${state.refused} refused)`);
      return performance.now() - started;
    } finally {
      await app.close();
    }
  };
  const one = await timed('singles', singles);
  const many = await timed('packed', packed);
  const ratio = one / many;
  console.log(
    `imports [${label}]: ${games} games as single-game files: ${rate(games, one)} games/s (${(one / games).toFixed(1)} ms a file); ` +
      `as collections: ${rate(games, many)} games/s; a single file costs ${ratio.toFixed(1)}× a collection's game (goal ≤ 4×): ${ratio <= 4 ? 'met' : 'NOT met'}`,
  );
}

/** The tar sent to POST /imports, then its progress polled until it ends: the last progress, and when the 202 came (ms after the send). */
export async function sendImport(baseUrl: string, tarPath: string): Promise<{ state: Progress; acceptedMs: number }> {
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/imports`, {
    method: 'POST',
    body: Readable.toWeb(createReadStream(tarPath)) as ReadableStream,
    headers: { 'Content-Type': 'application/x-tar' },
    duplex: 'half',
    // Not `follow`: fetch would keep a copy of the whole body, to send again after a redirect, in the
    // process whose peak RSS the benches measure (the tar's size, 140 MB at 100,000 games).
    redirect: 'error',
  } as RequestInit);
  if (answer.status !== 202) throw new Error(`POST /imports answered ${answer.status}: ${await answer.text()}`);
  const acceptedMs = performance.now() - started;
  const location = answer.headers.get('location');
  let state: Progress = { state: 'running', filesDone: 0, gamesStored: 0, duplicates: 0, refused: 0 };
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    // A collection's games are stored in one transaction; a poll meanwhile may be answered 503 (the embedded database's one connection is busy).
    const polled = await fetch(`${baseUrl}${location}`);
    if (polled.status === 200) state = (await polled.json()) as Progress;
    else await polled.arrayBuffer();
  } while (state.state === 'running');
  return { state, acceptedMs };
}

const rate = (games: number, ms: number) => (games / (ms / 1000)).toFixed(0);

/**
 * Every row the import wrote, loaded again by COPY into empty copies of its tables (indexes and
 * checks; with `foreignKeys`, the tables' foreign keys too, among the copies or to the tables they
 * name), in one transaction: the rows are first written out by COPY TO into the database server's
 * own files (binary format), and only the COPY FROM is timed — what loading these rows into these
 * tables costs at the least. An import cannot skip the foreign keys' checks; `LIKE` copies no foreign key.
 */
async function timeRawCopy(db: DataSource, foreignKeys: boolean): Promise<number> {
  const file = (table: string) => `/tmp/tabula-bench-${process.pid}-${table}.copy`;
  for (const table of TABLES) {
    await db.query(`CREATE TABLE bench_${table} (LIKE ${table} INCLUDING ALL)`);
    await db.query(`COPY ${table} TO '${file(table)}' WITH (FORMAT binary)`);
  }
  if (foreignKeys) {
    const keys: { table: string; definition: string }[] = await db.query(
      `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::regclass[])`,
      [TABLES],
    );
    for (const key of keys) {
      const definition = key.definition.replace(/REFERENCES (\w+)\(/, (whole, table: string) => (TABLES.includes(table) ? `REFERENCES bench_${table}(` : whole));
      await db.query(`ALTER TABLE bench_${key.table} ADD ${definition}`);
    }
  }
  // As the import did, the COPY starts from a checkpoint: it pays for no flush of the writes before it.
  await db.query('CHECKPOINT');
  const started = performance.now();
  await db.transaction(async (manager) => {
    for (const table of TABLES) await manager.query(`COPY bench_${table} FROM '${file(table)}' WITH (FORMAT binary)`);
  });
  const ms = performance.now() - started;
  await db.query(`DROP TABLE ${TABLES.map((table) => `bench_${table}`).join(', ')}`);
  // A server writes the files on this machine's disk (PGlite keeps them in its own memory).
  for (const table of TABLES) await rm(file(table), { force: true });
  return ms;
}

/** The games an export of everything reads, as it reads them: their keys, then their views with problems and details as text. */
async function timeExportReads(games: GamesExportRepository, views: GamesViewRepository): Promise<number> {
  const started = performance.now();
  let pastId: number | undefined;
  for (;;) {
    const keys = await games.exportKeys({ pastId }, EXPORT_BATCH);
    if (keys.length === 0) break;
    await views.viewsWithJsonTextOf(keys.map((key) => key.id));
    pastId = keys[keys.length - 1].id;
  }
  return performance.now() - started;
}

/** Every row the import wrote, written again into copies of its tables (indexes and all) in one transaction. */
async function timeBareCopy(db: DataSource): Promise<number> {
  for (const table of TABLES) await db.query(`CREATE TABLE bench_${table} (LIKE ${table} INCLUDING ALL)`);
  await db.query('CHECKPOINT');
  const started = performance.now();
  await db.transaction(async (manager) => {
    for (const table of TABLES) await manager.query(`INSERT INTO bench_${table} OVERRIDING SYSTEM VALUE SELECT * FROM ${table}`);
  });
  const ms = performance.now() - started;
  await db.query(`DROP TABLE ${TABLES.map((table) => `bench_${table}`).join(', ')}`);
  return ms;
}

export interface Progress {
  readonly state: string;
  readonly filesDone: number;
  readonly gamesStored: number;
  readonly duplicates: number;
  readonly refused: number;
}

interface Played {
  readonly date: string;
  readonly black: string;
  readonly white: string;
  readonly result: string;
}

/**
 * The games of the TYGEM folder as SGF, in collections of `perFile` (PER_FILE unless said), written as a tar: counts of games and files.
 * `turnCopies`: the copies past the 39,589 games there are are turned through a symmetry of the board
 * (the second copy a quarter turn, and so on through the eight), not only named apart.
 */
export async function packGames(tygem: string, wanted: number, path: string, { turnCopies = false, perFile = PER_FILE, ranks = false } = {}): Promise<{ games: number; files: number }> {
  const pack = tar.pack();
  const writing = pipeline(pack, createWriteStream(path));
  let games = 0;
  let files = 0;
  let collection: string[] = [];
  const flush = async () => {
    if (collection.length === 0) return;
    const text = Buffer.from(collection.join('\n'));
    await new Promise<void>((resolve, reject) => pack.entry({ name: `tygem/${String(files++).padStart(4, '0')}.sgf`, size: text.length }, text, (error) => (error ? reject(error) : resolve())));
    collection = [];
  };
  for await (const sgf of tygemSgf(tygem, wanted, { turnCopies, ranks })) {
    collection.push(sgf);
    games++;
    if (collection.length === perFile) await flush();
  }
  await flush();
  pack.finalize();
  await writing;
  return { games, files };
}

/**
 * The first `wanted` games of the TYGEM folder as SGF texts, repeated (and with `turnCopies`, turned) past the end.
 * With `ranks`, each player gets a rank (`BR`/`WR`): the index's rank codes are not ranks, so it is drawn
 * once a player from the player's id (see {@link benchRank}).
 */
export async function* tygemSgf(tygem: string, wanted: number, { turnCopies = false, ranks = false } = {}): AsyncGenerator<string> {
  const index = await readIndex(tygem);
  let games = 0;
  for (let copy = 1; games < wanted; copy++) {
    const turn = turnCopies ? (copy - 1) % 8 : 0;
    for (const month of MONTHS) {
      for await (const line of zipLines(join(tygem, `${month}.zip`))) {
        if (games >= wanted) break;
        const tab = line.indexOf('\t');
        if (tab < 0) continue;
        const id = line.slice(0, tab);
        const played = index.get(id);
        const ranked = played && ranks ? `BR[${benchRank(played.black)}]WR[${benchRank(played.white)}]` : '';
        const tags = played ? `PB[${escape(played.black)}]PW[${escape(played.white)}]DT[${played.date}]RE[${escape(played.result)}]${ranked}` : '';
        const moves = line.slice(tab + 1).trim();
        yield `(;GM[1]FF[4]CA[UTF-8]SZ[19]GN[TYGEM ${id}${copy > 1 ? ` copy ${copy}` : ''}]${tags}${turn === 0 ? moves : turnedMoves(moves, turn)})`;
        games++;
      }
    }
  }
}

/**
 * A made-up rank for a bench's player, the same for every game of that player: a server's spread, most
 * players dan (1d–9d, more of them near the middle), a fifth kyu (15k–1k). Written in the forms files use.
 */
export function benchRank(player: string): string {
  let hash = 2166136261;
  for (let i = 0; i < player.length; i++) hash = Math.imul(hash ^ player.charCodeAt(i), 16777619) >>> 0;
  const draw = hash % 100;
  if (draw < 20) return `${15 - (hash >>> 8) % 15}k`;
  const dan = 1 + (((hash >>> 8) % 5) + ((hash >>> 16) % 5));
  return `${dan}${['d', 'D', '段', ' dan'][(hash >>> 24) % 4]}`;
}

/** SGF move points of a 19x19 game turned by a symmetry (`tt` and empty values, passes, stay). */
function turnedMoves(moves: string, transform: number): string {
  return moves.replace(/\[([a-s])([a-s])\]/g, (_, x: string, y: string) => {
    const [tx, ty] = apply(transform as Transform, x.charCodeAt(0) - 97, y.charCodeAt(0) - 97, 19, 19);
    return `[${String.fromCharCode(97 + tx)}${String.fromCharCode(97 + ty)}]`;
  });
}

const escape = (text: string) => text.replace(/[\\\]]/g, (c) => `\\${c}`);

async function readIndex(tygem: string): Promise<Map<string, Played>> {
  const index = new Map<string, Played>();
  for await (const line of zipLines(join(tygem, 'index-2006.zip'))) {
    const [id, when, black, , , white, , , result] = line.split('\t');
    const date = /^C(\d{4})\.(\d{2})\.(\d{2})/.exec(when ?? '');
    if (id && date) index.set(id, { date: `${date[1]}-${date[2]}-${date[3]}`, black, white, result });
  }
  return index;
}

/** The lines of the one text file in a zip. */
async function* zipLines(path: string): AsyncGenerator<string> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true });
  try {
    const entry = await new Promise<yauzl.Entry>((resolve, reject) => {
      zip.once('entry', resolve);
      zip.once('error', reject);
      zip.readEntry();
    });
    let rest = '';
    for await (const chunk of await zip.openReadStreamPromise(entry)) {
      const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) yield line.replace(/\r$/, '');
    }
    if (rest.length > 0) yield rest;
  } finally {
    zip.close();
  }
}
