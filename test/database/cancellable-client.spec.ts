import pg from 'pg';
import { clientSignal, withDeadline } from '../../src/common/client-gone.js';
import { searchTimeout } from '../../src/common/problem-codes.js';
import { CancellableClient } from '../../src/database/cancellable-client.js';

const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

onServer('CancellableClient (only on a PostgreSQL server)', () => {
  let pool: pg.Pool;
  let watcher: pg.Client;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: serverUrl, max: 2, Client: CancellableClient, application_name: 'tabula-cancel-test' });
    watcher = new pg.Client({ connectionString: serverUrl });
    await watcher.connect();
  });
  afterAll(async () => {
    await pool?.end();
    await watcher?.end();
  });

  const sleeping = async () =>
    (await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'tabula-cancel-test' AND query LIKE 'SELECT pg_sleep%' AND state = 'active'`)).rows[0].n;

  it("cancels a request's statement on the server when its deadline passes", async () => {
    const started = Date.now();
    const error = await withDeadline(300, () => searchTimeout(300), () => pool.query('SELECT pg_sleep(10)')).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'search.timeout' });
    // The server stops the statement within moments, not after its 10 s.
    for (let tries = 0; tries < 40 && (await sleeping()) > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sleeping()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    // The connection serves the next statement.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('leaves statements sent outside a request alone', async () => {
    expect(clientSignal()).toBeUndefined();
    const answer = await pool.query('SELECT pg_sleep(0.2), 2 AS two');
    expect(answer.rows[0].two).toBe(2);
  });
});
