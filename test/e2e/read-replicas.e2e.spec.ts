import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { describeIfThere } from '../support/optional.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';

/**
 * Reads on a streaming replica (issue 32), against a real one: the second cluster .ci/run makes
 * with test/support/replica-cluster.sh (`pg_basebackup -R` from the test server), named by
 * TABULA_TEST_REPLICA_URL (any database: the suite's own is put in) and TABULA_TEST_REPLICA_DIR
 * (its folder, to stop and start it). Where a read was served is proven by what the replica does
 * not hold yet: its replay is paused (`pg_wal_replay_pause()`), a game is uploaded to the primary,
 * and the reads routed to the replica do not see it while those that must see it (the upload's
 * answer, the game by its id) do.
 */
const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const replicaServer = process.env.TABULA_TEST_REPLICA_URL;
const replicaDir = process.env.TABULA_TEST_REPLICA_DIR;
const CLUSTER = fileURLToPath(new URL('../support/replica-cluster.sh', import.meta.url));
const TITLE = 'reads on a streaming replica (only on a PostgreSQL server)';

// Long enough for the reads made while the replay is paused to finish within it on a loaded CI machine.
const MAX_LAG_MS = 8000;
const CHECK_MS = 200;

/** A 9×9 Go game of its own players, from the empty board. */
function game(n: number): Buffer {
  return Buffer.from(`(;GM[1]FF[4]SZ[9]PB[Replica Black${n}]PW[Replica White${n}]RE[B+R];B[ee];W[c${String.fromCharCode(98 + n)}];B[gg])`);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (!serverUrl) {
  describe.skip(TITLE, () => {
    it('needs the PostgreSQL server and its replica', () => undefined);
  });
} else {
  describeIfThere(
    TITLE,
    {
      what: 'a streaming replica of the test server',
      missing: replicaServer && replicaDir ? null : 'TABULA_TEST_REPLICA_URL and TABULA_TEST_REPLICA_DIR name no replica (test/support/replica-cluster.sh create DIR makes one, as .ci/run does)',
      requiredBy: 'TABULA_REQUIRE_REPLICA',
    },
    () => {
      let database: ScratchDatabase;
      let archive: TestArchive;
      let replicaUrl: string;
      let paused = false;
      let stopped = false;
      const ids: number[] = [];

      const get = async (path: string): Promise<{ status: number; body: any; text: string }> => {
        const response = await fetch(`${archive.baseUrl}${path}`);
        const text = await response.text();
        return { status: response.status, text, body: /^application\/(problem\+)?json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
      };
      const upload = async (n: number): Promise<number> => {
        const response = await post(archive, '/games', game(n), { 'Content-Type': 'application/x-go-sgf' });
        expect(response.status).toBe(201);
        const body = (await response.json()) as { id: number; status: string };
        expect(body.status).toBe('indexed');
        ids[n] = body.id;
        return body.id;
      };
      /** Whether the search by game n's black player finds it. */
      const found = async (n: number): Promise<boolean> => {
        const { status, body } = await get(`/games?player=${encodeURIComponent(`Replica Black${n}`)}`);
        expect(status).toBe(200);
        return body.items.some((item: { id: number }) => item.id === ids[n]);
      };
      const replicaState = async (): Promise<{ inRotation: boolean; behindMs: number | null }> => {
        const { status, body } = await get('/health');
        expect(status).toBe(200);
        expect(body.replicas).toHaveLength(1);
        return body.replicas[0];
      };
      const inRotation = (wanted: boolean) => until(`the replica ${wanted ? 'in' : 'out of'} rotation`, async () => ((await replicaState()).inRotation === wanted ? true : undefined));
      /** A statement run on the replica itself, on a connection of its own (the replica is stopped in between). */
      const onReplica = async <Row extends pg.QueryResultRow>(sql: string): Promise<Row[]> => {
        const client = new pg.Client({ connectionString: replicaUrl });
        await client.connect();
        try {
          return (await client.query<Row>(sql)).rows;
        } finally {
          await client.end();
        }
      };
      /** The games the replica holds. */
      const replicaGames = async () => (await onReplica<{ id: string }>('SELECT id FROM games ORDER BY id')).map((row) => Number(row.id));
      const pause = async () => {
        await onReplica('SELECT pg_wal_replay_pause()');
        paused = true;
        await until('the replay paused', async () => ((await onReplica<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0].state === 'paused' ? true : undefined));
      };
      const resume = async () => {
        await onReplica('SELECT pg_wal_replay_resume()');
        paused = false;
      };
      const cluster = (command: 'stop' | 'start') => {
        execFileSync('bash', [CLUSTER, command, replicaDir!], { stdio: 'pipe' });
        stopped = command === 'stop';
      };
      /**
       * The proof that searches are served by the replica now: with its replay paused, game n is
       * uploaded to the primary; the search does not find it, its page by id does (a game the
       * replica does not have is looked for on the primary).
       */
      const servedByReplica = async (n: number) => {
        await pause();
        try {
          const id = await upload(n);
          expect(await found(n)).toBe(false);
          const byId = await get(`/games/${id}`);
          expect(byId.status).toBe(200);
          expect(byId.body.id).toBe(id);
        } finally {
          await resume();
        }
      };

      beforeAll(async () => {
        database = await createScratchDatabase(serverUrl, 'tabula_test_replica');
        const url = new URL(replicaServer!);
        url.pathname = `/${database.name}`;
        replicaUrl = url.toString();
        archive = await startArchive({
          DATABASE_URL: database.url,
          DATABASE_REPLICA_URLS: replicaUrl,
          DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
          DATABASE_REPLICA_CHECK_MS: String(CHECK_MS),
          ANALYSIS_THREADS: '1',
        });
      }, 60_000);

      afterAll(async () => {
        // Whatever failed, the replica is left running and replaying.
        if (stopped) cluster('start');
        if (paused) await resume().catch(() => undefined);
        await archive?.close();
        await database?.drop();
      }, 60_000);

      it('serves searches, players, positions and exports from the replica; uploads and a game by its id from the primary', async () => {
        await upload(1);
        await inRotation(true);
        await until('game 1 on the replica', async () => ((await replicaGames()).includes(ids[1]) ? true : undefined));
        await pause();
        const started = Date.now();
        try {
          // The upload's answer is the primary's (it is 201 and indexed, checked in upload()).
          const id = await upload(2);
          expect(await replicaGames()).toEqual([ids[1]]);
          expect(await found(1)).toBe(true);
          expect(await found(2)).toBe(false);
          const byId = await get(`/games/${id}`);
          expect([byId.status, byId.body.id]).toEqual([200, id]);
          const players = await get('/players?name=replica');
          expect(players.status).toBe(200);
          expect(players.body.items.map((player: { name: string }) => player.name).sort()).toEqual(['Replica Black1', 'Replica White1']);
          // Both games start from the empty board: the replica knows one of them.
          const explorer = await get(`/positions/explorer?game=${ids[1]}&ply=0`);
          expect([explorer.status, explorer.body.games]).toEqual([200, 1]);
          const exported = await get('/games/export');
          expect(exported.status).toBe(200);
          expect(exported.text.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual([ids[1]]);
          // All of it within the bound: the replica was still in rotation.
          expect(Date.now() - started).toBeLessThan(MAX_LAG_MS);

          // Past the bound it is out, and the same reads see the primary's game.
          const out = await inRotation(false);
          expect(out).toBe(true);
          expect(Date.now() - started).toBeGreaterThanOrEqual(MAX_LAG_MS - 2 * CHECK_MS);
          expect(await found(2)).toBe(true);
          const explorerNow = await get(`/positions/explorer?game=${ids[1]}&ply=0`);
          expect(explorerNow.body.games).toBe(2);
        } finally {
          await resume();
        }
      }, 60_000);

      it('takes a replica back once it has caught up', async () => {
        await inRotation(true);
        await servedByReplica(3);
      }, 60_000);

      it('answers every read from the primary when the replica is stopped (no 5xx), and takes it back when it starts again', async () => {
        await inRotation(true);
        cluster('stop');
        const reads = [`/games?player=${encodeURIComponent('Replica Black3')}`, `/games/${ids[3]}`, '/players?name=replica', `/positions/explorer?game=${ids[1]}&ply=0`, '/games/export'];
        for (const path of reads) expect([path, (await get(path)).status]).toEqual([path, 200]);
        expect(await found(3)).toBe(true);
        const health = await replicaState();
        expect(health).toEqual({ replica: 1, inRotation: false, behindMs: null });
        const id = await upload(4);
        expect(await found(4)).toBe(true);
        expect((await get(`/games/${id}`)).status).toBe(200);

        cluster('start');
        await inRotation(true);
        await servedByReplica(5);
      }, 60_000);
    },
  );
}
