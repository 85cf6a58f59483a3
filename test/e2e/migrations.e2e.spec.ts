import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { readdirSync, readFileSync } from 'node:fs';
import { TestArchive, post, startArchive } from '../support/archive-harness.js';

const GO_GAMES = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);

describe('migrations on start', () => {
  let archive: TestArchive;
  let dataSource: DataSource;

  beforeAll(async () => {
    archive = await startArchive();
    dataSource = archive.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => archive.close());

  it('have all run, in order, once each', async () => {
    const applied: { name: string }[] = await dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => new migration().name));
  });

  it('leave one trigram index, on the distinct player-name keys, without a pending list, so searches never scan one', async () => {
    const indexes: { table: string; relname: string; reloptions: string[] | null }[] = await dataSource.query(
      `SELECT t.relname AS table, c.relname, c.reloptions FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       WHERE c.relname LIKE '%trgm'`,
    );
    expect(indexes).toEqual([{ table: 'player_names', relname: 'player_names_name_key_trgm', reloptions: ['fastupdate=off'] }]);
  });

  it('gather no planner statistics for the packed index columns (no query filters on them), and still gather those of the opening keys', async () => {
    for (const name of readdirSync(GO_GAMES).filter((file) => file.endsWith('.sgf')).slice(0, 12)) {
      expect((await post(archive, `/games?filename=${encodeURIComponent(name)}`, readFileSync(new URL(name, GO_GAMES)))).status).toBe(201);
    }
    await dataSource.query('ANALYZE game_positions, game_identities, game_patterns');
    const stats: { table: string; column: string }[] = await dataSource.query(
      `SELECT tablename AS table, attname AS column FROM pg_stats WHERE tablename IN ('game_positions', 'game_identities', 'game_patterns') ORDER BY 1, 2`,
    );
    const columns = (table: string) => stats.filter((row) => row.table === table).map((row) => row.column);
    expect(columns('game_positions')).toEqual(expect.arrayContaining(['game_id', 'openings', 'plies']));
    for (const [table, packed] of [['game_positions', ['buckets', 'head', 'tail']], ['game_identities', ['sequence']], ['game_patterns', ['first', 'second', 'changes']]] as const) {
      expect(columns(table).filter((column) => (packed as readonly string[]).includes(column))).toEqual([]);
    }
    expect(columns('game_identities')).toEqual(expect.arrayContaining(['head', 'whole']));
  });
});
