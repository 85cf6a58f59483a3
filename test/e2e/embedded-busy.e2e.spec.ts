import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/common/config.js';

/*
 * On the embedded database one connection serves every request, and PGlite runs one statement at a
 * time. A request that arrives while a long statement holds the connection (a large import's batch,
 * the maintenance vacuuming a large table after an import) waits for it. It used to fail with 503
 * after 5 s, when the pool's connect timeout ran out while it waited for its one connection: seen
 * as a 503 in the middle of a benchmark's searches, once the maintenance vacuumed 100,000 games.
 * Always the embedded database, whatever database the suite runs on.
 */
let app: INestApplication;
let baseUrl: string;

beforeAll(async () => {
  app = await createApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'error', RATE_LIMIT_EXEMPT_LOOPBACK: 'true', DOTS_PORT: '0' }));
  await app.listen(0, '127.0.0.1');
  baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
});

afterAll(async () => {
  await app.close();
});

it('answers a search that waited 6 s behind a statement holding the connection', async () => {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const long = dataSource.query('SELECT pg_sleep(6)');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/games`);
  const waited = performance.now() - started;
  expect({ status: answer.status, body: answer.status === 200 ? null : await answer.text() }).toEqual({ status: 200, body: null });
  // It did wait behind the statement, past the 5 s after which it was refused before.
  expect(waited).toBeGreaterThan(5_000);
  await long;
}, 30_000);
