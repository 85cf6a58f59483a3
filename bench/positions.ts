import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { TableMaintenance } from '../src/database/table-maintenance.js';
import { rankText } from '../src/formats/families/go/ranks.js';
import { GoPosition } from '../src/rules/go/index.js';
import { BLACK, WHITE } from '../src/rules/go/types.js';
import type { Stone } from '../src/rules/go/types.js';
import { Indexes } from '../src/indexes/indexes.js';
import { RUN_BITS, gamesInRow } from '../src/indexes/positions/postings.js';
import { bucketAt, keyTopAt } from '../src/indexes/positions/position-rows.js';
import { TYGEM_GAMES, realdataForBench } from '../test/support/realdata.js';
import { packGames, sendImport, tygemSgf } from './imports.js';
import { percentile, startInProcess, timedGet, withScratchDatabase } from './served.js';

/**
 * The position index at scale (issue 28): BENCH_POSITIONS_GAMES real Go games (default 100,000: the
 * TYGEM games of January to June 2006, TABULA_REALDATA, each copy past the 39,589 there are turned
 * through a symmetry of the board) imported three times into fresh archives in the same run: with the
 * position index; without it (POSITION_INDEX=false: the replay still makes the identities and the
 * pattern rows, not the positions' keys); and without any replay (GAME_IDENTITY=false too): the
 * rates side by side and the peak RSS. Then
 * the index's size per indexed ply (PostgreSQL's own sizes: table, its TOAST and indexes), and
 * BENCH_POSITIONS_SAMPLES positions drawn from the stored games at plies 0–150 (a tenth at plies 0–6,
 * where the openings everyone plays are), each asked three ways: over HTTP (GET /positions/games,
 * the explorer, and both narrowed by a month of play or by a player), by a bare SQL query giving the
 * same games (the key's opening rows and the runs' candidates, confirmed by the key) on the archive's connection, and once, as the
 * floor a search without an index has, by a brute-force replay of every game with the rules engine
 * comparing boards under the eight symmetries. Embedded database (on disk) always; a PostgreSQL
 * server with BENCH_DATABASE_URL (BENCH_POSITIONS_EMBEDDED=false: the server alone, for a million games;
 * BENCH_POSITIONS_BASELINES=false: the import with the index alone, whose goals at a million games are
 * the searches' and the index's build time).
 */
const SAMPLES = Number(process.env.BENCH_POSITIONS_SAMPLES ?? 200);
/** BENCH_POSITIONS_BASELINES=false: only the import with the index (a million games: the pace goal is the 100,000-game run's). */
const BASELINES = process.env.BENCH_POSITIONS_BASELINES !== 'false';
/** The issue's goals (p95, ms): at 100,000 games, and at a million on a server. */
const goalsFor = (games: number) =>
  games >= 1_000_000 ? { games: 50, explorer: 250, filtered: 300, history: 200, byYear: 400 } : { games: 20, explorer: 100, filtered: 300, history: 50, byYear: 150 };

export async function run(): Promise<void> {
  const tygem = realdataForBench('positions', TYGEM_GAMES);
  const wanted = Number(process.env.BENCH_POSITIONS_GAMES ?? 100_000);
  const folder = await mkdtemp(join(tmpdir(), 'tabula-bench-positions-'));
  try {
    const tarPath = join(folder, 'games.tar');
    const made = performance.now();
    const { games, files } = await packGames(tygem, wanted, tarPath, { turnCopies: true, ranks: true });
    console.log(`positions: ${games} TYGEM games (copies turned) as ${files} SGF collections, ${((await stat(tarPath)).size / 1e6).toFixed(1)} MB, made in ${((performance.now() - made) / 1000).toFixed(1)} s`);
    // BENCH_POSITIONS_EMBEDDED=false: the PostgreSQL server alone (a million games).
    if (process.env.BENCH_POSITIONS_EMBEDDED !== 'false') {
      await measure('embedded PostgreSQL (PGlite)', tarPath, { DATA_DIR: join(folder, 'data') }, { DATA_DIR: join(folder, 'data-without') }, { DATA_DIR: join(folder, 'data-bare') });
    }
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (serverUrl) {
      // The baselines' archives only when they are imported (BENCH_POSITIONS_BASELINES).
      await withScratchDatabase(serverUrl, 'tabula_bench_positions', (url) =>
        BASELINES
          ? withScratchDatabase(serverUrl, 'tabula_bench_positions_without', (without) =>
              withScratchDatabase(serverUrl, 'tabula_bench_positions_bare', (bare) => measure('PostgreSQL server', tarPath, { DATABASE_URL: url }, { DATABASE_URL: without }, { DATABASE_URL: bare })),
            )
          : measure('PostgreSQL server', tarPath, { DATABASE_URL: url }, {}, {}),
      );
    } else {
      console.log('positions: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    }
    // Last: its replay of every game in this process would otherwise raise the imports' peak RSS.
    const brute = await bruteForceFloor(tygem, wanted);
    console.log(
      `positions: brute force, the position after ply 30 of the first game looked for in all ${brute.games} games by replaying each with the rules engine ` +
        `and comparing boards under 8 symmetries: ${(brute.ms / 1000).toFixed(1)} s, ${brute.found} games found`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function measure(label: string, tarPath: string, settings: Record<string, string>, without: Record<string, string>, bareSettings: Record<string, string>): Promise<void> {
  // Without any replay: no positions, no identities, no pattern rows (they come from the same replay).
  const bare = BASELINES ? await importInto({ ...bareSettings, POSITION_INDEX: 'false', GAME_IDENTITY: 'false' }, tarPath, async () => undefined) : undefined;
  // Without the position index: the replay makes the identities and pattern rows, not the positions' keys.
  const unindexed = BASELINES ? await importInto({ ...without, POSITION_INDEX: 'false' }, tarPath, async () => undefined) : undefined;
  await importInto(settings, tarPath, async (db, baseUrl, imported) => {
    const goals = goalsFor(imported.games);
    const withIndex = `import with the position index ${imported.rate.toFixed(0)} games/s (${imported.games} games, peak RSS ${imported.peakMb.toFixed(0)} MB; peak ≤ 1 GB: ${imported.peakMb <= 1024 ? 'met' : 'NOT met'})`;
    if (unindexed === undefined || bare === undefined) console.log(`positions [${label}]: ${withIndex}; no import without the index (BENCH_POSITIONS_BASELINES=false)`);
    else {
      const share = (imported.rate / unindexed.rate) * 100;
      console.log(
        `positions [${label}]: ${withIndex}, without it ${unindexed.rate.toFixed(0)} games/s (peak RSS ${unindexed.peakMb.toFixed(0)} MB): ${share.toFixed(0)} % (goal ≥ 50 %: ${share >= 50 ? 'met' : 'NOT met'}); ` +
          `without any replay (no identities, no pattern rows either) ${bare.rate.toFixed(0)} games/s: ${((imported.rate / bare.rate) * 100).toFixed(0)} %`,
      );
    }
    // The archive's connections cancel a statement after 30 s, which a REINDEX of 100,000 games passes,
    // and a VACUUM ANALYZE of a million: on a server they run on a connection of their own, without the
    // timeouts. The embedded database has one connection, the archive's: REINDEX is not timed there.
    const embedded = settings.DATABASE_URL === undefined;
    const own = async (statement: string): Promise<void> => {
      const client = new pg.Client({ connectionString: settings.DATABASE_URL });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    const rebuilt = performance.now();
    if (!embedded) await own('REINDEX TABLE game_positions');
    console.log(
      `positions [${label}]: the import took ${(imported.games / imported.rate).toFixed(0)} s with the index${unindexed === undefined ? '' : `, ${(unindexed.games / unindexed.rate).toFixed(0)} s without`}; ` +
        (embedded ? 'REINDEX not timed on the embedded database' : `building the table's indexes again from its rows (REINDEX) ${((performance.now() - rebuilt) / 1000).toFixed(1)} s`),
    );
    for (const table of ['game_positions', 'opening_positions', 'position_postings', 'position_runs', 'position_counts']) {
      if (embedded) await db.query(`VACUUM ANALYZE ${table}`);
      else await own(`VACUUM ANALYZE ${table}`);
    }
    // The index is the positions' table (rows, out of line, indexes), the opening positions' rows, the runs of postings and the opening keys' counts.
    const [size] = await db.query<{ heap: string; toast: string; indexes: string; openings: string; postings: string; counts: string; plies: string; rows: string }[]>(
      `SELECT pg_relation_size('game_positions') AS heap,
              pg_total_relation_size('game_positions') - pg_relation_size('game_positions') - pg_indexes_size('game_positions') AS toast,
              pg_indexes_size('game_positions') AS indexes,
              pg_total_relation_size('opening_positions') AS openings,
              pg_total_relation_size('position_postings') + pg_total_relation_size('position_runs') AS postings,
              pg_total_relation_size('position_counts') AS counts,
              (SELECT sum(plies + 1) FROM game_positions) AS plies, (SELECT count(*) FROM game_positions) AS rows`,
    );
    const total = Number(size.heap) + Number(size.toast) + Number(size.indexes) + Number(size.openings) + Number(size.postings) + Number(size.counts);
    const perPly = total / Number(size.plies);
    const mb = (bytes: string | number) => (Number(bytes) / 1e6).toFixed(1);
    console.log(
      `positions [${label}]: ${Number(size.rows)} games, ${Number(size.plies)} positions indexed in ${mb(total)} MB ` +
        `(rows ${mb(size.heap)}, out of line ${mb(size.toast)}, indexes ${mb(size.indexes)}, opening positions ${mb(size.openings)}, runs of postings ${mb(size.postings)}, opening counts ${mb(size.counts)}): ` +
        `${perPly.toFixed(1)} bytes per indexed ply (goal ≤ 24: ${perPly <= 24 ? 'met' : 'NOT met'})`,
    );
    const samples: { game_id: string; ply: number; key: Buffer; date: string | null; player: string | null; low_rank: number | null; high_rank: number | null }[] = await db.query(
      `WITH drawn AS (
         SELECT p.game_id, CASE WHEN n % 10 = 0 THEN floor(random() * least(p.plies, 6) + 0.5)::int ELSE floor(random() * (least(p.plies, 150) + 1))::int END AS ply
         FROM (SELECT game_id, plies, row_number() OVER () AS n FROM game_positions TABLESAMPLE BERNOULLI (5) ORDER BY random() LIMIT $1) p
       )
       SELECT d.game_id, d.ply,
              substring(p.head || coalesce(p.tail, ''::bytea) FROM d.ply * 11 + 1 FOR 8) AS key,
              to_char(a.date_played, 'YYYY-MM') AS date, (SELECT name FROM game_players WHERE game_id = d.game_id ORDER BY seat LIMIT 1) AS player,
              r.low_rank, r.high_rank
       FROM drawn d JOIN game_positions p ON p.game_id = d.game_id LEFT JOIN game_analyses a ON a.game_id = d.game_id
       LEFT JOIN game_ranks r ON r.game_id = d.game_id`,
      [SAMPLES],
    );
    const http = (path: string) => timedGet(baseUrl, path);
    const timed: Record<string, number[]> = {
      games: [],
      explorer: [],
      'games, a month of play': [],
      'explorer, a month of play': [],
      'games, a player': [],
      'explorer, a player': [],
      'bare SQL': [],
      // Issue 46: the position's history and the explorer by year, beside the bare SQL of the history.
      history: [],
      'explorer by year': [],
      'bare SQL of the history': [],
      // The explorer by rank: the drawn game's own band (both players within it), and every dan player.
      "explorer, the game's ranks": [],
      'explorer, dan players': [],
    };
    for (const sample of samples) {
      const at = `game=${sample.game_id}&ply=${sample.ply}`;
      timed.games.push(await http(`/positions/games?${at}`));
      timed.explorer.push(await http(`/positions/explorer?${at}`));
      if (sample.date) {
        const [year, month] = sample.date.split('-').map(Number);
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const period = `playedFrom=${sample.date}-01&playedTo=${sample.date}-${last}`;
        timed['games, a month of play'].push(await http(`/positions/games?${at}&${period}`));
        timed['explorer, a month of play'].push(await http(`/positions/explorer?${at}&${period}`));
      }
      if (sample.player) {
        const player = `player=${encodeURIComponent(sample.player)}`;
        timed['games, a player'].push(await http(`/positions/games?${at}&${player}`));
        timed['explorer, a player'].push(await http(`/positions/explorer?${at}&${player}`));
      }
      timed['bare SQL'].push(await bareSql(db, sample.key));
      timed.history.push(await http(`/positions/history?${at}`));
      timed['explorer by year'].push(await http(`/positions/explorer?${at}&by=year`));
      timed['bare SQL of the history'].push(await bareHistorySql(db, sample.key));
      if (sample.low_rank !== null && sample.high_rank !== null) {
        const band = `rankMin=${encodeURIComponent(rankText(sample.low_rank))}&rankMax=${encodeURIComponent(rankText(sample.high_rank))}`;
        timed["explorer, the game's ranks"].push(await http(`/positions/explorer?${at}&${band}`));
      }
      timed['explorer, dan players'].push(await http(`/positions/explorer?${at}&rankMin=1d`));
    }
    for (const [name, times] of Object.entries(timed)) {
      const sorted = [...times].sort((a, b) => a - b);
      const goal =
        name === 'games' ? goals.games
        : name === 'explorer' ? goals.explorer
        : name === 'history' ? goals.history
        : name === 'explorer by year' ? goals.byYear
        : name.startsWith('bare SQL') ? null
        : goals.filtered;
      const p95 = percentile(sorted, 95);
      console.log(
        `positions [${label}]: ${name.padEnd(26)} ${String(sorted.length).padStart(4)} positions, p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms` +
          (goal === null ? ' (the same games, their count and first plies, on the archive connection)' : ` (goal ≤ ${goal} ms: ${p95 <= goal ? 'met' : 'NOT met'})`),
      );
    }
  });
}

export interface Imported {
  readonly games: number;
  readonly rate: number;
  readonly peakMb: number;
}

/** A fresh archive with `settings` importing the tar; `then` runs on it before it closes. */
export async function importInto(settings: Record<string, string>, tarPath: string, then: (db: DataSource, baseUrl: string, imported: Imported) => Promise<void>): Promise<Imported> {
  const { app, baseUrl } = await startInProcess({ ...settings, MAX_IMPORT_BYTES: String(4 * 1024 ** 3) });
  try {
    const db = app.get<DataSource>(getDataSourceToken());
    await db.query('CHECKPOINT');
    const rss = () => process.memoryUsage.rss() / 1024 / 1024;
    let peak = rss();
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
    const started = performance.now();
    const { state } = await sendImport(baseUrl, tarPath);
    // The import is done when its postings are merged as far as they are due: the merges are its cost.
    await app.get(Indexes).idle();
    const ms = performance.now() - started;
    clearInterval(sampler);
    const imported = { games: state.gamesStored, rate: state.gamesStored / (ms / 1000), peakMb: peak };
    // The archive's maintenance round after the import (on the embedded database it vacuums and
    // analyses the tables the import filled; on a server without autovacuum it analyses them) would
    // run within a minute, holding a connection for seconds while searches wait: it runs now, before
    // any search is timed, as it would have before a user's. A server with autovacuum analyses them
    // itself within its naptime (a minute): the bench analyses them in its stead.
    const upkept = performance.now();
    const maintenance = app.get(TableMaintenance);
    if (await maintenance.isActive()) {
      const done = await maintenance.runOnce();
      console.log(`  (the archive's maintenance after the import: ${Object.keys(done).length} tables vacuumed or analysed in ${((performance.now() - upkept) / 1000).toFixed(1)} s)`);
    } else {
      const client = new pg.Client({ connectionString: settings.DATABASE_URL });
      await client.connect();
      await client.query('ANALYZE').finally(() => client.end());
      console.log(`  (the server's autovacuum would analyse the tables after the import: ANALYZE took ${((performance.now() - upkept) / 1000).toFixed(1)} s)`);
    }
    await then(db, baseUrl, imported);
    return imported;
  } finally {
    await app.close();
  }
}

/**
 * The CTE `hit` of the bare queries: each game holding the key ($1; its bucket $2, its first 8 bytes
 * $3, the games the runs name $4) with `column` of its position rows and where in them the key stands.
 */
function hitsOf(column: 'game_id' | 'played'): string {
  return `WITH hit AS (
       SELECT ${column}, ply * 11 AS at FROM opening_positions WHERE key = $3::bigint
       UNION ALL
       SELECT ${column}, octet_length(head) + position($1::bytea IN tail) - 1 FROM game_positions
       WHERE (game_id = ANY($4::bigint[]) OR buckets @> ARRAY[$2::int]) AND NOT openings @> ARRAY[$3::bigint] AND position($1::bytea IN tail) > 0
     )`;
}

/** The games the runs of postings name for a key's top bits: the bucket's row of each run, decoded here. */
async function postedGames(db: DataSource, top: number): Promise<number[]> {
  const rows: { bits: number; part: number; shift: number; base: string; games: Buffer }[] = await db.query(
    `SELECT p.bits, p.part, p.shift, p.base, p.games FROM unnest($2::int[]) AS b(bits) CROSS JOIN LATERAL generate_series(0, b.bits) AS s(shift)
     CROSS JOIN LATERAL (SELECT bits, part, shift, base, games FROM position_postings WHERE shift = s.shift AND part = ($1::bigint >> (32 - b.bits + s.shift))::int AND bits = b.bits OFFSET 0) p`,
    [top, RUN_BITS],
  );
  const later: number[] = [];
  for (const row of rows) gamesInRow({ ...row, base: Number(row.base) }, top >>> (32 - row.bits), later);
  return later;
}

/**
 * The games holding a key, their count and first plies, as hand-written queries on the archive's
 * connection: the bucket's row of each run of postings, decoded here, then the games by either index.
 */
async function bareSql(db: DataSource, key: Buffer): Promise<number> {
  const top = keyTopAt(key, 0);
  const bucket = bucketAt(key, 0);
  const started = performance.now();
  const later = await postedGames(db, top);
  await db.query(
    `${hitsOf('game_id')}
     SELECT game_id, at / 11 AS ply, count(*) OVER () AS total FROM hit WHERE at >= 0 AND at % 11 = 0 ORDER BY game_id DESC LIMIT 20`,
    [key, bucket, key.readBigInt64BE(0).toString(), later],
  );
  return performance.now() - started;
}

/**
 * A position's history as hand-written queries: the candidates as {@link bareSql} reads them, then
 * every game holding the key (each once, at its first arrival) counted by the year of its row's day.
 */
async function bareHistorySql(db: DataSource, key: Buffer): Promise<number> {
  const top = keyTopAt(key, 0);
  const bucket = bucketAt(key, 0);
  const started = performance.now();
  const later = await postedGames(db, top);
  await db.query(
    `${hitsOf('played')}
     SELECT extract(year FROM played)::int AS year, count(*) AS games FROM hit WHERE at >= 0 AND at % 11 = 0 GROUP BY 1`,
    [key, bucket, key.readBigInt64BE(0).toString(), later],
  );
  return performance.now() - started;
}

/**
 * A search without any index: every game replayed by the rules engine, the board after each ply
 * compared with the sought one turned by each of the eight symmetries (stone counts first).
 */
async function bruteForceFloor(tygem: string, wanted: number): Promise<{ games: number; found: number; ms: number }> {
  // The games are read as they are replayed (a million of them would not fit in memory as text): the
  // time includes reading them from the zips, which the first game's replay below measures apart.
  let first: string | undefined;
  for await (const sgf of tygemSgf(tygem, 1)) first = sgf;
  const movesOf = (sgf: string) => [...sgf.matchAll(/;([BW])\[([a-s]{2})?\]/g)].map((m) => ({ stone: (m[1] === 'B' ? BLACK : WHITE) as Stone, point: m[2] }));
  const replayTo = (moves: ReturnType<typeof movesOf>, plies: number, visit?: (position: GoPosition, ply: number) => boolean): GoPosition => {
    const position = new GoPosition(19);
    for (let i = 0; i < Math.min(plies, moves.length); i++) {
      const { stone, point } = moves[i];
      if (point) position.play(stone, point.charCodeAt(0) - 97, point.charCodeAt(1) - 97);
      else position.pass();
      if (visit?.(position, i + 1)) break;
    }
    return position;
  };
  const sought = replayTo(movesOf(first!), 30).cells;
  const turn = (cells: Uint8Array, t: number) => {
    const out = new Uint8Array(361);
    for (let y = 0; y < 19; y++) {
      for (let x = 0; x < 19; x++) {
        const [tx, ty] = [
          [x, y],
          [18 - y, x],
          [18 - x, 18 - y],
          [y, 18 - x],
          [18 - x, y],
          [x, 18 - y],
          [y, x],
          [18 - y, 18 - x],
        ][t];
        out[ty * 19 + tx] = cells[y * 19 + x];
      }
    }
    return out;
  };
  const turned = Array.from({ length: 8 }, (_, t) => turn(sought, t));
  const stones = sought.reduce((n, cell) => n + (cell === 0 ? 0 : 1), 0);
  const started = performance.now();
  let found = 0;
  let games = 0;
  for await (const sgf of tygemSgf(tygem, wanted, { turnCopies: true })) {
    games++;
    let hit = false;
    replayTo(movesOf(sgf), Infinity, (position) => {
      let count = 0;
      for (let i = 0; i < 361; i++) if (position.cells[i] !== 0) count++;
      if (count !== stones) return false;
      hit = turned.some((board) => board.every((cell, i) => cell === position.cells[i]));
      return hit;
    });
    if (hit) found++;
  }
  return { games, found, ms: performance.now() - started };
}
