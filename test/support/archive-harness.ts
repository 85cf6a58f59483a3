import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { createApp } from '../../src/app.factory.js';
import type { IndexDefinition } from '../../src/indexes/game-index.js';
import { createScratchDatabase, ScratchDatabase } from './scratch-database.js';
import { loadConfig } from '../../src/common/config.js';
import { createClient } from '../client/generated/client/index.js';
import type { Client } from '../client/generated/client/index.js';
import { checkResponsesOf } from './spec-check.js';

/**
 * A running archive for end-to-end tests: on an in-memory embedded PostgreSQL by default, or on a
 * fresh database of the server named by TABULA_TEST_DATABASE_URL (which `.ci/run` sets for its second
 * pass). The database is created here and dropped again on close.
 */
export interface TestArchive {
  readonly app: INestApplication;
  readonly baseUrl: string;
  /** The client generated from openapi/openapi.json. */
  readonly client: Client;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** LC_CTYPE and LC_COLLATE of the test database on a server (PGlite has its own, fixed). */
  readonly locale?: string;
  /** Indexes registered besides the registry's (an index written in a test), as createApp takes them. */
  readonly indexes?: readonly IndexDefinition[];
}

export async function startArchive(settings: Record<string, string> = {}, options: DatabaseOptions = {}): Promise<TestArchive> {
  // A suite that brings its own DATABASE_URL manages that database itself.
  const database = settings.DATABASE_URL === undefined ? await createTestDatabase(options) : undefined;
  let app: INestApplication;
  try {
    const config = loadConfig({
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'error',
      // Suites send hundreds of requests from loopback; the limits have tests of their own.
      RATE_LIMIT_EXEMPT_LOOPBACK: 'true',
      // No suite may bind the Dots server's default port; its own tests listen on an ephemeral one.
      DOTS_PORT: '0',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...settings,
    });
    app = await createApp(config, { indexes: options.indexes });
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    // A configuration a test expects to be refused must not leave its database behind.
    await database?.drop();
    throw error;
  }
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const stopChecking = checkResponsesOf(baseUrl);
  return {
    app,
    baseUrl,
    client: createClient({ baseUrl }),
    async close() {
      stopChecking();
      await app.close();
      await database?.drop();
    },
  };
}

/**
 * An archive started on a database that `write` filled first, as an earlier version left it (at the
 * schema of the migrations it ran): on a fresh database of the server named by
 * TABULA_TEST_DATABASE_URL, else on an embedded database in a temporary folder. Starting it runs the
 * migrations after. Closing it drops the database or removes the folder.
 */
export async function startArchiveWrittenBefore(write: (url: string) => Promise<void>): Promise<TestArchive> {
  const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
  let archive: TestArchive;
  let cleanUp: () => Promise<void>;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl, 'tabula_test');
    cleanUp = () => scratch.drop();
    await write(scratch.url);
    archive = await startArchive({ DATABASE_URL: scratch.url });
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabula-before-'));
    cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
    const embedded = await EmbeddedPostgres.start(dataDir);
    try {
      await write(embedded.url);
      await embedded.whenNoConnections();
    } finally {
      await embedded.stop();
    }
    archive = await startArchive({ DATA_DIR: dataDir });
  }
  return {
    ...archive,
    async close() {
      await archive.close();
      await cleanUp();
    },
  };
}

async function createTestDatabase(options: DatabaseOptions): Promise<ScratchDatabase | undefined> {
  const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
  return serverUrl ? createScratchDatabase(serverUrl, 'tabula_test', options) : undefined;
}

/** A raw-body upload through fetch, for what the generated client deliberately hides (headers, bytes). */
export async function post(archive: TestArchive, path: string, body: BodyInit | Buffer, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${archive.baseUrl}${path}`, { method: 'POST', body: Buffer.isBuffer(body) ? new Uint8Array(body) : body, headers });
}

/** The ids of a search's first page, in the order served. */
export async function foundIds(archive: TestArchive, query: string): Promise<number[]> {
  const response = await fetch(`${archive.baseUrl}/games?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: number }[] }).items.map((game) => game.id);
}
