import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { databaseOptions, runMigrations } from '../src/database/database-options.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { spoolChunks, spoolFiles, unspool } from '../src/imports/import-body.js';
import { ImportsRepository } from '../src/imports/imports.repository.js';
import { withScratchDatabase } from './served.js';

/**
 * What keeping an import's spooled body in the database costs (issue 32: any node must be able to
 * run an import, whichever received it), beside the spool on disk that was all there was before and
 * is still the first step: for one 100 MB archive body (random bytes, as incompressible as a zip's
 * deflated entries), in one run, on the embedded database and (BENCH_DATABASE_URL) a PostgreSQL
 * server:
 * - the body spooled to disk as it streams in (before, and still now);
 * - the same bytes written into `import_spool` in 1 MiB rows by ImportsRepository.create, which
 *   POST /imports now does before its 202;
 * - copied back out into a folder of another node's (only when a node takes over an import whose
 *   receiving node's disk it cannot reach);
 * - the import's end deleting the rows; and the space the rows take beside the file's size.
 */
const MB = 1024 * 1024;
const BODY_MB = Number(process.env.BENCH_IMPORT_SPOOL_MB ?? 100);
const ROUNDS = 3;

export async function run(): Promise<void> {
  const body = randomBytes(BODY_MB * MB);
  const dataDir = mkdtempSync(join(tmpdir(), 'tabula-bench-spool-'));
  try {
    const embedded = await EmbeddedPostgres.start(join(dataDir, 'db'));
    try {
      await runMigrations(embedded.url);
      await embedded.whenNoConnections();
      await measure('embedded PostgreSQL (PGlite)', embedded.url, EmbeddedPostgres.MAX_CONNECTIONS, body, dataDir);
    } finally {
      await embedded.whenNoConnections().catch(() => undefined);
      await embedded.stop();
    }
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      console.log('import-spool: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
      return;
    }
    await withScratchDatabase(serverUrl, 'tabula_bench_spool', async (url) => {
      await runMigrations(url, { lock: true });
      await measure('PostgreSQL server', url, 10, body, dataDir);
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (from: number) => (performance.now() - from) / 1000;
const rate = (s: number) => `${(BODY_MB / s).toFixed(0)} MB/s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(label: string, url: string, poolSize: number, body: Buffer, scratch: string): Promise<void> {
  const db = new DataSource({ ...databaseOptions(url, poolSize), logging: false });
  await db.initialize();
  const imports = new ImportsRepository(db);
  const times = { disk: [] as number[], into: [] as number[], out: [] as number[], end: [] as number[] };
  let stored = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const folder = join(scratch, `spool-${round}`);
      const other = join(scratch, `other-${round}`);
      await mkdir(folder, { recursive: true });
      try {
        // As spoolImport writes a raw body: the request stream piped into the folder's `body`, then its parts.json.
        let started = performance.now();
        await pipeline(Readable.from(pieces(body, 64 * 1024)), createWriteStream(join(folder, 'body')));
        await writeFile(join(folder, 'parts.json'), JSON.stringify([{ file: 'body', name: 'bench.zip', mediaType: 'application/zip' }]));
        times.disk.push(seconds(started));

        const files = await spoolFiles(folder);
        const before = await spoolSize(db);
        started = performance.now();
        const view = await imports.create('zip', 'bench.zip', 1, folder, null, { files, chunks: spoolChunks(folder, files) });
        times.into.push(seconds(started));
        stored = (await spoolSize(db)) - before;

        started = performance.now();
        if (!(await unspool(other, files, (seq) => imports.spoolChunk(view.id, seq)))) throw new Error('the body was not all in the database');
        times.out.push(seconds(started));
        if ((await stat(join(other, 'body'))).size !== body.length) throw new Error('the copy out of the database has the wrong size');

        const claimed = await imports.claim('bench', 0);
        if (claimed?.id !== view.id) throw new Error(`claimed ${claimed?.id}, not the bench's import ${view.id}`);
        started = performance.now();
        await imports.finish(view.id, 'bench', 'done');
        times.end.push(seconds(started));
      } finally {
        await rm(folder, { recursive: true, force: true });
        await rm(other, { recursive: true, force: true });
      }
    }
  } finally {
    await db.destroy();
  }
  const disk = median(times.disk);
  const into = median(times.into);
  const out = median(times.out);
  const end = median(times.end);
  console.log(`import-spool [${label}] one ${BODY_MB} MB body, median of ${ROUNDS}:`);
  console.log(`  spooled to disk (before, and still first):         ${disk.toFixed(2)} s (${rate(disk)}, into the page cache: not fsynced)`);
  console.log(`  + into the database (now, before the 202):         ${into.toFixed(2)} s (${rate(into)}, committed: ${(into / disk).toFixed(0)}× the spool's own time)`);
  console.log(`  copied out by a node taking it over (only then):   ${out.toFixed(2)} s (${rate(out)})`);
  console.log(`  the import's end deleting its rows:                ${end.toFixed(2)} s`);
  console.log(`  space in the database while it runs:               ${(stored / MB).toFixed(1)} MB for ${BODY_MB} MB on disk`);
}

/** The bytes import_spool takes on disk, its TOAST table and index included (earlier rounds' deleted rows are not vacuumed away meanwhile). */
async function spoolSize(db: DataSource): Promise<number> {
  const [{ bytes }]: { bytes: string }[] = await db.query(`SELECT pg_total_relation_size('import_spool')::bigint AS bytes`);
  return Number(bytes);
}

function* pieces(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
