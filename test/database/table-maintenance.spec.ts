import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/common/config.js';
import { TableMaintenance, upkeepOf } from '../../src/database/table-maintenance.js';
import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';

/**
 * PGlite runs no autovacuum: the archive's own round must give an embedded archive planner
 * statistics. Thresholds are PostgreSQL's documented defaults (autovacuum_analyze_threshold 50,
 * _scale_factor 0.1; vacuum 50 + 0.2 of dead rows; insert vacuum 1000 + 0.2).
 */
describe('upkeep thresholds', () => {
  const table = (change: Partial<Parameters<typeof upkeepOf>[0]>) => ({ live: 1000, dead: 0, modifiedSinceAnalyze: 0, insertedSinceVacuum: 0, ...change });

  it('analyses past 50 + 10 % changed rows', () => {
    expect(upkeepOf(table({ modifiedSinceAnalyze: 150 }))).toBe('none');
    expect(upkeepOf(table({ modifiedSinceAnalyze: 151 }))).toBe('analyze');
    expect(upkeepOf(table({ live: 0, modifiedSinceAnalyze: 51 }))).toBe('analyze');
  });

  it('vacuums past 50 + 20 % dead rows or 1000 + 20 % inserted ones', () => {
    expect(upkeepOf(table({ dead: 250 }))).toBe('none');
    expect(upkeepOf(table({ dead: 251 }))).toBe('vacuum');
    expect(upkeepOf(table({ insertedSinceVacuum: 1200 }))).toBe('none');
    expect(upkeepOf(table({ insertedSinceVacuum: 1201, modifiedSinceAnalyze: 1201 }))).toBe('vacuum');
  });

  it('on a server\'s tables, which it only analyses, the analysis\'s threshold alone', () => {
    expect(upkeepOf(table({ dead: 900, insertedSinceVacuum: 5000, modifiedSinceAnalyze: 150 }), false)).toBe('none');
    expect(upkeepOf(table({ insertedSinceVacuum: 5000, modifiedSinceAnalyze: 151 }), false)).toBe('analyze');
  });
});

/**
 * Rounds until one does something to the table. The change counters reach the statistics views a
 * while after the commit: PostgreSQL 15 flushes a backend's counters when it goes idle, at most once a
 * second, and otherwise up to 10 s later (PGSTAT_IDLE_INTERVAL), so the rounds go on for 20 s.
 */
async function roundFor(maintenance: TableMaintenance, table: string): Promise<Record<string, string>> {
  let done: Record<string, string> = {};
  for (let attempt = 0; attempt < 200 && done[table] === undefined; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await maintenance.runOnce();
  }
  return done;
}

describe('the maintenance round on the database the suite runs on (a server when TABULA_TEST_DATABASE_URL names one)', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ EMBEDDED_MAINTENANCE_MS: '0' });
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('analyses a server\'s tables only when its autovacuum is off, and never vacuums them', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const maintenance = archive.app.get(TableMaintenance);
    const embedded = process.env.TABULA_TEST_DATABASE_URL === undefined;
    const [{ autovacuum }] = (await db.query(`SELECT current_setting('autovacuum') AS autovacuum`)) as { autovacuum: string }[];
    // 1,500 rows: past the insert vacuum's threshold as well as the analysis's.
    await db.query(`INSERT INTO player_names (name_key) SELECT 'player ' || n FROM generate_series(1, 1500) AS n`);
    if (!embedded && autovacuum === 'on') {
      // The server's own autovacuum keeps the statistics: the archive leaves its tables alone.
      expect(await maintenance.isActive()).toBe(false);
      expect(await maintenance.runOnce()).toEqual({});
      return;
    }
    expect(await maintenance.isActive()).toBe(true);
    const done = await roundFor(maintenance, 'player_names');
    expect(done.player_names).toBe(embedded ? 'vacuum' : 'analyze');
    const after = await db.query(`SELECT reltuples FROM pg_class WHERE relname = 'player_names'`);
    expect(Number(after[0].reltuples)).toBe(1500);
  });
});

describe('the embedded database\'s maintenance round', () => {
  let app: INestApplication;
  let db: DataSource;

  beforeAll(async () => {
    // Always the embedded database: the round is for it alone.
    app = await createApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'error', EMBEDDED_MAINTENANCE_MS: '0' }));
    db = app.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await app.close();
  });

  it('gives a table that changed enough its planner statistics, and leaves it alone after', async () => {
    const before = await db.query(`SELECT reltuples FROM pg_class WHERE relname = 'player_names'`);
    expect(Number(before[0].reltuples)).toBeLessThanOrEqual(0);
    await db.query(`INSERT INTO player_names (name_key) SELECT 'player ' || n FROM generate_series(1, 200) AS n`);

    const maintenance = app.get(TableMaintenance);
    const done = await roundFor(maintenance, 'player_names');
    expect(done.player_names).toBe('analyze'); // 200 inserted rows: past 50 + 10 %, short of the insert vacuum's 1000
    const after = await db.query(`SELECT reltuples FROM pg_class WHERE relname = 'player_names'`);
    expect(Number(after[0].reltuples)).toBe(200);
    const histogram = await db.query(`SELECT histogram_bounds IS NOT NULL AS has FROM pg_stats WHERE tablename = 'player_names' AND attname = 'name_key'`);
    expect(histogram).toEqual([{ has: true }]);

    expect((await maintenance.runOnce()).player_names).toBeUndefined();
  });
});
