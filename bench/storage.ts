import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { realGamesAsBars } from '../test/support/checkers/real-games.js';
import { loadDotsSgfCorpus, movesOnly, vkCodeOf } from '../test/support/dots/corpus.js';
import { gnugoGamesAsGoFans11 } from './go-corpus.js';
import { realBoardFiles } from '../test/support/peg-solitaire/boards.js';
import { startInProcess, withScratchDatabase } from './served.js';

/**
 * Bytes the archive stores per game, format by format, beside the raw file: real games uploaded
 * over HTTP (GNU Go's SGF games written as GoFans 1.1, the Dots SGF games as VK codes, the USSR
 * 1947 PDN games as BARS files, the real peg boards, the Dots server's board-state example), then
 * PostgreSQL's own sizes of each row (`pg_column_size` of the row plus its 4-byte line pointer,
 * compressed and out-of-line parts included). Target: the game's own rows ≤ 3× the raw file,
 * the index rows (analysis, players) beside them; B-tree and trigram index bytes are printed per
 * game for the whole archive. Runs on the embedded database and, with BENCH_DATABASE_URL, on a server.
 */
const TARGET_RATIO = 3;

export async function run(): Promise<void> {
  const corpus = await loadCorpus();
  await measure('embedded PostgreSQL (PGlite)', {}, corpus);
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('storage: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_storage', (url) => measure('PostgreSQL server', { DATABASE_URL: url }, corpus));
}

interface Upload {
  readonly bytes: Buffer;
  readonly filename: string;
}

async function loadCorpus(): Promise<Upload[]> {
  const uploads: Upload[] = [];
  for (const { path, xml } of await gnugoGamesAsGoFans11()) uploads.push({ bytes: Buffer.from(xml), filename: `${path}.xml` });
  for (const { name } of loadDotsSgfCorpus()) {
    // Moves only, without the surround records, as this benchmark has always uploaded them.
    const code = await vkCodeOf(name);
    if (code !== null) uploads.push({ bytes: Buffer.from(`${movesOnly(code)}\n`), filename: `${name}.vk` });
  }
  for (const game of await realGamesAsBars('test/fixtures/realdata/checkers/russian/ussr1947.pdn')) {
    if (game.bars !== null) uploads.push({ bytes: Buffer.from(game.bars), filename: `ussr1947-${game.index}.bars` });
  }
  for (const board of realBoardFiles()) uploads.push({ bytes: board.bytes, filename: `${board.folder}/${board.name}` });
  uploads.push({ bytes: readFileSync('test/e2e/fixtures/board-state.204'), filename: 'board-state.204' });
  return uploads;
}

async function measure(label: string, settings: Record<string, string>, corpus: readonly Upload[]): Promise<void> {
  const { app, baseUrl } = await startInProcess(settings);
  try {
    const statuses = new Map<number, number>();
    for (const upload of corpus) {
      const answer = await fetch(`${baseUrl}/games?filename=${encodeURIComponent(upload.filename)}`, {
        method: 'POST',
        body: new Uint8Array(upload.bytes),
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    const db = app.get<DataSource>(getDataSourceToken());
    await db.query('VACUUM ANALYZE');
    console.log(`storage [${label}]: ${corpus.length} uploads answered ${[...statuses].map(([status, n]) => `${status}×${n}`).join(', ')}`);
    console.log(`storage [${label}]: bytes per game (row + 4-byte line pointer; TOAST included)`);
    console.log(`  ${'format'.padEnd(28)} ${'games'.padStart(5)} ${'raw'.padStart(7)} | ${'own rows'.padStart(8)} ${'× raw'.padStart(6)} | ${'analysis'.padStart(8)} ${'players'.padStart(7)} | ${'total'.padStart(7)} ${'× raw'.padStart(6)}`);
    const perGameTables = await existingTables(db, ['game_files', 'game_replays']);
    const ownExtra = perGameTables.map((table) => `coalesce((SELECT sum(pg_column_size(t.*) + 4) FROM ${table} t WHERE t.game_id = g.id), 0)`);
    const rows: { format: string; games: string; raw: number; own: number; analysis: number; players: number }[] = await db.query(
      `SELECT fm.publisher || ' ' || fm.version AS format, count(*) AS games, avg(g.size)::float8 AS raw,
              avg(pg_column_size(g.*) + 4 ${ownExtra.map((sql) => `+ ${sql}`).join(' ')})::float8 AS own,
              avg(coalesce((SELECT sum(pg_column_size(a.*) + 4) FROM game_analyses a WHERE a.game_id = g.id), 0))::float8 AS analysis,
              avg(coalesce((SELECT sum(pg_column_size(p.*) + 4) FROM game_players p WHERE p.game_id = g.id), 0))::float8 AS players
       FROM games g JOIN formats fm ON fm.id = g.format_id WHERE g.indexed GROUP BY 1 ORDER BY 1`,
    );
    for (const row of rows) {
      const total = row.own + row.analysis + row.players;
      const ratio = row.own / row.raw;
      console.log(
        `  ${row.format.padEnd(28)} ${row.games.padStart(5)} ${row.raw.toFixed(0).padStart(7)} | ${row.own.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(6)} | ${row.analysis.toFixed(0).padStart(8)} ${row.players.toFixed(0).padStart(7)} | ${total.toFixed(0).padStart(7)} ${(total / row.raw).toFixed(2).padStart(6)}  ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'} (own rows ≤ ${TARGET_RATIO}× raw)`,
      );
    }
    const [sizes]: { games: string; tables: string; indexes: string }[] = await db.query(
      `SELECT (SELECT count(*) FROM games) AS games,
              sum(pg_table_size(c.oid)) AS tables, sum(pg_indexes_size(c.oid)) AS indexes
       FROM pg_class c WHERE c.relkind = 'r' AND c.relname IN ('games', 'game_files', 'game_analyses', 'game_players', 'game_replays', 'formats', 'families')`,
    );
    const games = Number(sizes.games);
    console.log(
      `storage [${label}]: whole archive ${games} games: tables ${(Number(sizes.tables) / games).toFixed(0)} B/game (pages, partly empty at this size), indexes ${(Number(sizes.indexes) / games).toFixed(0)} B/game`,
    );
  } finally {
    await app.close();
  }
}

async function existingTables(db: DataSource, names: readonly string[]): Promise<string[]> {
  const rows: { name: string }[] = await db.query(`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname = ANY($1)`, [names]);
  return rows.map((row) => row.name);
}
