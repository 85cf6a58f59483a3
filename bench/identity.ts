import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { TYGEM_GAMES, realdataForBench } from '../test/support/realdata.js';
import { packGames } from './imports.js';
import { importInto } from './positions.js';
import { percentile, timedGet } from './served.js';
import { createScratchDatabase } from '../test/support/scratch-database.js';

/**
 * Game identities at scale (issue 30): BENCH_IDENTITY_GAMES real Go games (default 100,000: the
 * TYGEM games of TABULA_REALDATA, each copy past the 39,589 there turned through a symmetry of the
 * board, so most games have relatives) imported into fresh archives in the same run, without
 * identities (GAME_IDENTITY=false) and with them, alternating, BENCH_IDENTITY_ROUNDS times each
 * (default 2): the rates side by side and the ratio of their means. Then BENCH_IDENTITY_SAMPLES
 * games drawn at random, each asked over HTTP for its relatives (GET /games/{id}/relatives) and its
 * signature's games (GET /games?signature=), beside the bare SQL of each on the archive's
 * connection. Embedded database (on disk) unless BENCH_IDENTITY_EMBEDDED=false; a PostgreSQL server
 * with BENCH_DATABASE_URL.
 */
const SAMPLES = Number(process.env.BENCH_IDENTITY_SAMPLES ?? 200);
/** Imports without identities and with them, alternating, this many times each: one import's rate varies by some 10 % from run to run here. */
const ROUNDS = Number(process.env.BENCH_IDENTITY_ROUNDS ?? 2);

/** A fresh archive's settings, and how to remove it. */
type Fresh = (name: string) => Promise<{ readonly settings: Record<string, string>; drop(): Promise<void> }>;
const GOAL_MS = 20;

export async function run(): Promise<void> {
  const tygem = realdataForBench('identity', TYGEM_GAMES);
  const wanted = Number(process.env.BENCH_IDENTITY_GAMES ?? 100_000);
  const folder = await mkdtemp(join(tmpdir(), 'tabula-bench-identity-'));
  try {
    const tarPath = join(folder, 'games.tar');
    const { games, files } = await packGames(tygem, wanted, tarPath, { turnCopies: true });
    console.log(`identity: ${games} TYGEM games (copies turned) as ${files} SGF collections`);
    // BENCH_IDENTITY_EMBEDDED=false: the PostgreSQL server alone.
    if (process.env.BENCH_IDENTITY_EMBEDDED !== 'false') {
      await measure('embedded PostgreSQL (PGlite)', tarPath, async (name) => {
        const dataDir = join(folder, `data-${name}`);
        return { settings: { DATA_DIR: dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
      });
    }
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      console.log('identity: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
      return;
    }
    await measure('PostgreSQL server', tarPath, async (name) => {
      const database = await createScratchDatabase(serverUrl, `tabula_bench_identity_${name}`);
      return { settings: { DATABASE_URL: database.url }, drop: () => database.drop() };
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function measure(label: string, tarPath: string, fresh: Fresh): Promise<void> {
  const rates: Record<'without' | 'with', number[]> = { without: [], with: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ['without', 'with'] as const) {
      const target = await fresh(`${kind}_${round}`);
      try {
        await importInto({ ...target.settings, ...(kind === 'without' ? { GAME_IDENTITY: 'false' } : {}) }, tarPath, async (db, baseUrl, imported) => {
          rates[kind].push(imported.rate);
          // The searches on the archive of the last import with identities.
          if (round === ROUNDS && kind === 'with') await searches(label, db, baseUrl, imported.games, rates);
        });
      } finally {
        await target.drop();
      }
    }
  }
}

async function searches(label: string, db: DataSource, baseUrl: string, count: number, rates: Record<'without' | 'with', number[]>): Promise<void> {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const share = (mean(rates.with) / mean(rates.without)) * 100;
  console.log(
    `identity [${label}]: import with identities ${rates.with.map((rate) => rate.toFixed(0)).join(', ')} games/s, without ${rates.without.map((rate) => rate.toFixed(0)).join(', ')} games/s ` +
      `(${count} games, alternating, ${ROUNDS} each): the means ${share.toFixed(0)} % (goal ≥ 90 %: ${share >= 90 ? 'met' : 'NOT met'})`,
  );
  await db.query('VACUUM ANALYZE game_identities');
  const [size] = await db.query<{ total: string; rows: string; plies: string }[]>(
    `SELECT pg_total_relation_size('game_identities') AS total, (SELECT count(*) FROM game_identities) AS rows, (SELECT sum(plies) FROM game_identities) AS plies`,
  );
  console.log(
    `identity [${label}]: ${Number(size.rows)} identities in ${(Number(size.total) / 1e6).toFixed(1)} MB with their indexes: ` +
      `${(Number(size.total) / Number(size.rows)).toFixed(0)} bytes a game, ${(Number(size.total) / Number(size.plies)).toFixed(1)} a ply`,
  );
  const samples: { game_id: string; signature: string | null }[] = await db.query(
    `SELECT game_id, signature FROM game_identities TABLESAMPLE BERNOULLI (5) ORDER BY random() LIMIT $1`,
    [SAMPLES],
  );
  const http = (path: string) => timedGet(baseUrl, path);
  const sql = async (text: string, params: unknown[]) => {
    const started = performance.now();
    await db.query(text, params);
    return performance.now() - started;
  };
  const timed: Record<string, number[]> = { relatives: [], 'relatives, bare SQL': [], signature: [], 'signature, bare SQL': [] };
  let relatives = 0;
  for (const sample of samples) {
    timed.relatives.push(await http(`/games/${sample.game_id}/relatives`));
    relatives += ((await (await fetch(`${baseUrl}/games/${sample.game_id}/relatives`)).json()) as { items: unknown[] }).items.length;
    timed['relatives, bare SQL'].push(
      await sql(
        `SELECT x.game_id FROM game_identities i JOIN game_identities x ON x.head = i.head AND x.game_id <> i.game_id
           AND (x.whole = i.whole OR substring(x.sequence FROM 1 FOR least(length(x.sequence), length(i.sequence))) = substring(i.sequence FROM 1 FOR least(length(x.sequence), length(i.sequence))))
         WHERE i.game_id = $1 ORDER BY x.game_id LIMIT 100`,
        [sample.game_id],
      ),
    );
    if (sample.signature) {
      timed.signature.push(await http(`/games?signature=${sample.signature}`));
      timed['signature, bare SQL'].push(await sql(`SELECT game_id FROM game_identities WHERE signature = $1 ORDER BY game_id DESC LIMIT 21`, [sample.signature]));
    }
  }
  console.log(`identity [${label}]: ${samples.length} games drawn, ${(relatives / Math.max(1, samples.length)).toFixed(1)} relatives each on average`);
  for (const [name, times] of Object.entries(timed)) {
    const sorted = [...times].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const goal = name.includes('bare SQL') ? '' : ` (goal ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? 'met' : 'NOT met'})`;
    console.log(`identity [${label}]: ${name.padEnd(20)} ${String(sorted.length).padStart(4)} asked, p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms${goal}`);
  }
}
