import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/common/config.js';
import { EmbeddedMaintenance, upkeepOf } from '../../src/database/embedded-maintenance.js';

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

    const maintenance = app.get(EmbeddedMaintenance);
    // The change counters reach the statistics views a moment after the commit.
    let done: Record<string, string> = {};
    for (let attempt = 0; attempt < 50 && done.player_names === undefined; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await maintenance.runOnce();
    }
    expect(done.player_names).toBe('analyze'); // 200 inserted rows: past 50 + 10 %, short of the insert vacuum's 1000
    const after = await db.query(`SELECT reltuples FROM pg_class WHERE relname = 'player_names'`);
    expect(Number(after[0].reltuples)).toBe(200);
    const histogram = await db.query(`SELECT histogram_bounds IS NOT NULL AS has FROM pg_stats WHERE tablename = 'player_names' AND attname = 'name_key'`);
    expect(histogram).toEqual([{ has: true }]);

    expect((await maintenance.runOnce()).player_names).toBeUndefined();
  });
});
