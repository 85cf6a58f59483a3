import { DotsClient } from '../support/dots-client.js';
import { freePort } from '../support/free-port.js';
import { createStore, serverUrl, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

// Issue 31, defect 7: a Dots move answered 200 is durable. The built server is killed (SIGKILL)
// shortly after a move's answer; after the restart the game must be in the archive as unfinished,
// with every move that was answered 200.

const FAST_HASHES = { DOTS_SCRYPT_COST: '1024' };

interface ArchivedGame {
  id: number;
  players: { name: string; outcome: string }[];
}

async function player(port: number, login: string): Promise<DotsClient> {
  const client = await DotsClient.open(port);
  expect(await client.code(`REG ${login} password`)).toBe('200');
  expect(await client.code(`LOG ${login} password`)).toBe('200');
  return client;
}

/** The archived games of a login, polled until one is there or `ms` have passed (the restart archives in the background). */
async function archivedOf(baseUrl: string, login: string, ms: number): Promise<ArchivedGame[]> {
  const until = Date.now() + ms;
  for (;;) {
    const page = (await (await fetch(`${baseUrl}/games?externalId=${encodeURIComponent(`tabula-dots:${login}`)}`)).json()) as { items: { id: number }[] };
    if (page.items.length > 0 || Date.now() > until) {
      return Promise.all(page.items.map(async ({ id }) => (await (await fetch(`${baseUrl}/games/${id}`)).json()) as ArchivedGame));
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe(`the Dots server killed right after a move (${serverUrl ? 'PostgreSQL server' : 'embedded database'})`, () => {
  let store: Awaited<ReturnType<typeof createStore>>;
  let server: RunningServer | undefined;
  const clients: DotsClient[] = [];

  beforeAll(async () => {
    store = await createStore();
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await stop(server, 'SIGKILL');
    await store?.remove();
  });

  async function restart(dotsPort: number): Promise<RunningServer> {
    server = await startServer({ ...store.settings, ...FAST_HASHES, DOTS_PORT: String(dotsPort) });
    return server;
  }

  /** Plays the moves (each answered 200), kills the server `delayMs` after the last answer, restarts it. */
  async function killAfterMoves(prefix: string, moves: [0 | 1, string][], delayMs: number): Promise<{ restarted: RunningServer; gid: number }> {
    await stop(server);
    const dotsPort = await freePort();
    const running = await restart(dotsPort);
    const ann = await player(dotsPort, `${prefix}-ann`);
    const bob = await player(dotsPort, `${prefix}-bob`);
    clients.push(ann, bob);
    const gid = Number(/GID (\d+)/.exec(await ann.ask('NEW 2 10 10 60 0'))![1]);
    expect(await bob.reply(`JOI ${gid}`)).toBe('200\n\n\n');
    for (const [who, line] of moves) expect([line, await [ann, bob][who].reply(line)]).toEqual([line, '200\n\n\n']);
    const answered = Date.now();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    // The kill comes before the old once-a-second save could have run (timed at the signal: once
    // sent, the process runs nothing more, however long a loaded machine takes to report its exit).
    const killedAfter = Date.now() - answered;
    running.process.kill('SIGKILL');
    expect(await running.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(killedAfter).toBeLessThan(1000);
    return { restarted: await restart(dotsPort), gid };
  }

  it('archives the game as unfinished with the move answered 0.3 s before the kill', async () => {
    const { restarted, gid } = await killAfterMoves('k300', [[0, 'TRN 4 4']], 300);
    const games = await archivedOf(restarted.baseUrl, 'k300-ann', 20_000);
    expect(games).toHaveLength(1);
    expect(games[0].players.map((p) => [p.name, p.outcome])).toEqual([
      ['k300-ann', 'unfinished'],
      ['k300-bob', 'unfinished'],
    ]);
    const raw = await (await fetch(`${restarted.baseUrl}/games/${games[0].id}/raw`)).text();
    expect(raw).toMatch(new RegExp(`^TABULA DOTS TRANSCRIPT 1\ngame ${gid}\n`));
    expect(raw).toMatch(/\nmove 1 4 4 \d+\nend unfinished \d+\n$/);
  });

  it('keeps every move answered when the kill follows the last answer at once', async () => {
    const moves: [0 | 1, string][] = [
      [0, 'TRN 4 4'],
      [1, 'TRN 5 5'],
      [0, 'TRN 0 0'],
    ];
    const { restarted } = await killAfterMoves('k0', moves, 0);
    const games = await archivedOf(restarted.baseUrl, 'k0-ann', 20_000);
    expect(games).toHaveLength(1);
    const raw = await (await fetch(`${restarted.baseUrl}/games/${games[0].id}/raw`)).text();
    expect(raw).toMatch(/\nmove 1 4 4 \d+\nmove 2 5 5 \d+\nmove 1 0 0 \d+\nend unfinished \d+\n$/);
  });
});
