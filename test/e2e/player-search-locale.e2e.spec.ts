import { readFileSync } from 'node:fs';
import { searchGames } from '../client/generated/sdk.gen.js';
import { TestArchive, post, startArchive } from '../support/archive-harness.js';

const onServer = process.env.TABULA_TEST_DATABASE_URL ? describe : describe.skip;

// PGlite's locale folds Cyrillic; a server database created with the C ctype does not, which is
// where folding names in the application instead of with lower() shows. Runs in CI's server pass.
onServer('player search on a database whose ctype is C (only on a PostgreSQL server)', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({}, { locale: 'C' });
  });
  afterAll(() => archive.close());

  it('still matches Cyrillic names whatever the case of the search', async () => {
    const file = readFileSync(new URL('../formats/plugins/vk-dots/fixtures/full-game.txt', import.meta.url));
    const answer = await post(archive, '/games', file, { 'Content-Type': 'text/plain' });
    expect(answer.status).toBe(201);
    const { id } = (await answer.json()) as { id: number };
    for (const player of ['павел', 'ПАВЕЛ', 'слепнев', 'Павел Слепнев']) {
      const { data } = await searchGames({ client: archive.client, query: { player }, throwOnError: true });
      expect([player, data.items.map((item) => item.id)]).toEqual([player, [id]]);
    }
  });
});
