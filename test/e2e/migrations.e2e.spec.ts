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

  it('leave the player-name trigram index without a pending list, so searches never scan one', async () => {
    const [index]: { reloptions: string[] | null }[] = await dataSource.query(
      `SELECT reloptions FROM pg_class WHERE relname = 'game_players_name_trgm'`,
    );
    expect(index.reloptions).toContain('fastupdate=off');
  });
});
