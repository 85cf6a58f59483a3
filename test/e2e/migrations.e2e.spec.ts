import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { TestArchive, startArchive } from '../support/archive-harness.js';

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
});
