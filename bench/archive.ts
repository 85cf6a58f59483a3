import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { startInProcess, withScratchDatabase } from './served.js';

/**
 * Archive benchmark: upload throughput over HTTP (sequential and 16 concurrent clients), and one
 * large upload of plain text (kept verbatim) beside a bare SQL INSERT of the same bytes over the
 * same connection pool, for the embedded database and, when BENCH_DATABASE_URL names a PostgreSQL
 * server, for that server too (in a database created and dropped here). Search at scale is
 * `bench/search.ts`.
 */
const SEQUENTIAL_UPLOADS = 500;
const CONCURRENT_UPLOADS = 2000;
const CONCURRENCY = 16;
/** Sizes of the large uploads, in MB (MAX_UPLOAD_BYTES is raised for them). */
const LARGE_UPLOADS_MB = [10, 40];

export async function run(): Promise<void> {
  await benchArchive('embedded PostgreSQL (PGlite)', {});
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('archive: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_archive', (url) => benchArchive('PostgreSQL server', { DATABASE_URL: url, DATABASE_POOL_SIZE: '20' }));
}

async function benchArchive(label: string, settings: Record<string, string>): Promise<void> {
  const { app, baseUrl } = await startInProcess({ ...settings, MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) });
  try {
    for (const [kind, makeFile] of Object.entries(UPLOADS)) {
      const sequential = await measureUploads(baseUrl, (i) => makeFile('seq', i), SEQUENTIAL_UPLOADS, 1);
      const concurrent = await measureUploads(baseUrl, (i) => makeFile('par', i), CONCURRENT_UPLOADS, CONCURRENCY);
      console.log(`archive [${label}] uploads of ${kind}: ${sequential.toFixed(0)} games/s sequential, ${concurrent.toFixed(0)} games/s with ${CONCURRENCY} concurrent clients`);
    }
    await measureLargeUploads(label, baseUrl, app.get<DataSource>(getDataSourceToken()));
  } finally {
    await app.close();
  }
}

/** One upload of each of LARGE_UPLOADS_MB of plain text (kept verbatim), beside a bare INSERT of the same bytes into a scratch table. */
async function measureLargeUploads(label: string, baseUrl: string, db: DataSource): Promise<void> {
  await db.query('CREATE TABLE bench_large (raw bytea NOT NULL)');
  try {
    for (const mb of LARGE_UPLOADS_MB) {
      const line = `a line of plain text, which no format reads, in a file of ${mb} MB\n`;
      const bytes = Buffer.from(line.repeat(Math.ceil((mb * 1024 * 1024) / line.length)));
      const started = performance.now();
      const answer = await fetch(`${baseUrl}/games`, { method: 'POST', body: bytes, headers: { 'Content-Type': 'text/plain' } });
      if (answer.status !== 201) throw new Error(`the upload of ${mb} MB answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
      const uploaded = performance.now() - started;
      const inserting = performance.now();
      await db.query('INSERT INTO bench_large (raw) VALUES ($1)', [bytes]);
      const inserted = performance.now() - inserting;
      console.log(`archive [${label}] one upload of ${mb} MB of plain text: ${(uploaded / 1000).toFixed(2)} s; the same bytes by a bare SQL INSERT: ${(inserted / 1000).toFixed(2)} s`);
    }
  } finally {
    await db.query('DROP TABLE bench_large');
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
