import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { TestArchive, startArchive } from './archive-harness.js';

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

  it('leave one trigram index on the player-name keys, without a pending list, so searches never scan one', async () => {
    const indexes: { relname: string; reloptions: string[] | null }[] = await dataSource.query(
      `SELECT c.relname, c.reloptions FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'game_players'::regclass AND c.relname LIKE '%trgm'`,
    );
    expect(indexes).toEqual([{ relname: 'game_players_name_key_trgm', reloptions: ['fastupdate=off'] }]);
  });
});
