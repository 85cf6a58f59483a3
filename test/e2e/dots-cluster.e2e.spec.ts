import pg from 'pg';
import { DotsClient } from '../support/dots-client.js';
import { freePort } from '../support/free-port.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';
import { startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

/**
 * One Dots lobby across two nodes on one PostgreSQL database (issue 32): a game made on one node is
 * listed and joined from the other, moves and pushes cross between them, a login is live on one
 * node at a time, and a kill -9 of one node ends its games only, each archived once. Every expected
 * board and score below is worked out by hand from the rules (docs/dots-server.md); only a
 * PostgreSQL server has several processes on one database.
 */
const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

const LEASE_MS = 1500;

interface Node {
  server: RunningServer;
  dotsPort: number;
}

/** The 204 state of a 10×10 game: whose move, who still plays, the scores, and the dots by `x,y` → digit. */
function state(toMove: string, active: string, scores: string, dots: Record<string, number>): string {
  const rows = Array.from({ length: 10 }, (_, y) => Array.from({ length: 10 }, (_, x) => dots[`${x},${y}`] ?? 0).join(''));
  return `GSC\n\n\n204\nACU ${toMove}\nAUF ${active}\nSCR ${scores}\n${rows.map((row) => `GAL ${row}`).join('\n')}\n\n\n`;
}

/** The next push: GSC, then the 204 state (two answers as the client reads them). */
async function pushed(client: DotsClient): Promise<string> {
  return (await client.next()) + (await client.next());
}

onServer('one Dots lobby across two nodes (only on a PostgreSQL server)', () => {
  let database: ScratchDatabase;
  let sql: pg.Client;
  const nodes: Node[] = [];
  const clients: DotsClient[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase(serverUrl!, 'tabula_test_dots_cluster');
    sql = new pg.Client({ connectionString: database.url });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    for (const node of nodes) await stop(node.server, 'SIGKILL');
    await sql?.end();
    await database?.drop();
  });

  async function node(dotsPort?: number): Promise<Node> {
    const port = dotsPort ?? (await freePort());
    const server = await startServer({
      DATABASE_URL: database.url,
      DOTS_PORT: String(port),
      DOTS_NODE_LEASE_MS: String(LEASE_MS),
      DOTS_SCRYPT_COST: '1024',
      ANALYSIS_THREADS: '1',
      LOG_LEVEL: 'warn',
    });
    const started = { server, dotsPort: port };
    nodes.push(started);
    if (nodes.length === 1) await sql.connect();
    return started;
  }

  async function player(on: Node, login: string, register = true): Promise<DotsClient> {
    const client = await DotsClient.open(on.dotsPort);
    clients.push(client);
    if (register) expect(await client.code(`REG ${login} password`)).toBe('200');
    expect(await client.ask(`LOG ${login} password`)).toBe('200\n\n\n');
    return client;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, withinMs: number): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The archive's games of a login (external id tabula-dots:<login>), with each player's outcome. */
  async function archivedOf(on: Node, login: string): Promise<{ id: number; players: { name: string; outcome: string }[] }[]> {
    const page = (await (await fetch(`${on.server.baseUrl}/games?externalId=${encodeURIComponent(`tabula-dots:${login}`)}`)).json()) as { items: { id: number }[] };
    return Promise.all(page.items.map(async ({ id }) => (await (await fetch(`${on.server.baseUrl}/games/${id}`)).json()) as { id: number; players: { name: string; outcome: string }[] }));
  }

  async function gameRow(id: number): Promise<{ state: string; archived: boolean }> {
    const { rows } = await sql.query<{ state: string; archived: boolean }>(`SELECT state, archived_game_id IS NOT NULL AS archived FROM dots_games WHERE id = $1`, [id]);
    return rows[0];
  }

  it('lists a game of one node on the other, joins it from there, and carries every move and push across', async () => {
    const [a, b] = [await node(), await node()];
    const ann = await player(a, 'ann');
    const bob = await player(b, 'bob');
    const gid = Number(/^203\nGID (\d+)\n/.exec(await ann.ask('NEW 2 10 10 60 0'))![1]);

    // Listed on B as on A: one block, ann seated, one seat free.
    const block = `GID ${gid}\nGPM 2\nGPC 1\nGAS 10 10\nGTT 60\nGET 0\nGUL ann`;
    expect(await bob.ask('GLS')).toBe(`202\n${block}\n\n\n`);
    expect(await ann.ask('GLS')).toBe(`202\n${block}\n\n\n`);

    // Joined from B: the game starts, and both players get the empty board, ann to move.
    expect(await bob.ask(`JOI ${gid}`)).toBe('200\n\n\n');
    const start = state('ann', '1 1', '0 0', {});
    expect(await pushed(bob)).toBe(start);
    expect(await pushed(ann)).toBe(start);
    expect(await bob.ask('GLS')).toBe(`202\nGID ${gid}\nGPM 2\nGPC 2\nGAS 10 10\nGTT 60\nGET 0\nGUL ann bob\n\n\n`);

    // A move on A reaches B; a move from B (made on A) reaches both.
    expect(await ann.ask('TRN 4 4')).toBe('200\n\n\n');
    const afterAnn = state('bob', '1 1', '0 0', { '4,4': 1 });
    expect(await pushed(ann)).toBe(afterAnn);
    expect(await pushed(bob)).toBe(afterAnn);
    expect(await bob.ask('TRN 5 5')).toBe('200\n\n\n');
    const afterBob = state('ann', '1 1', '0 0', { '4,4': 1, '5,5': 2 });
    expect(await pushed(bob)).toBe(afterBob);
    expect(await pushed(ann)).toBe(afterBob);
    // Not bob's turn: refused by A, answered on B.
    expect(await bob.ask('TRN 6 6')).toBe('408 not_your_turn\n\n\n');

    // ann stops: bob is the last player and gets ann's dot, which no chain of hers joins to the edge.
    expect(await ann.ask('SRD')).toBe('200\n\n\n');
    const last = state('bob', '0 1', '0 1', { '4,4': 1, '5,5': 2 });
    expect(await pushed(ann)).toBe(last);
    expect(await pushed(bob)).toBe(last);
    expect(await bob.ask('FIN')).toBe('407 not_in_game\n\n\n');

    // Archived once, whichever node is asked.
    const archived = await until('the game in the archive', async () => ((await gameRow(gid)).archived ? true : undefined), 20_000);
    expect(archived).toBe(true);
    for (const on of [a, b]) {
      const games = await archivedOf(on, 'bob');
      expect(games.map((game) => game.players.map((p) => [p.name, p.outcome]))).toEqual([
        [
          ['ann', 'lost'],
          ['bob', 'won'],
        ],
      ]);
    }
    expect(await bob.ask('UST')).toBe('201\nLOG bob\nNPG 1\nNPW 1\nNPL 0\nNPD 0\n\n\n');
  });

  it('keeps a login live on one node at a time: refused on the other until it logs out or its connection closes', async () => {
    const [a, b] = [nodes[0], nodes[1]];
    const onA = await player(a, 'carl');
    const onB = await DotsClient.open(b.dotsPort);
    clients.push(onB);
    expect(await onB.code('LOG carl password')).toBe('401 not_now the login is live on another node');
    expect(await onB.code('GLS')).toBe('404 not_logged_in');
    // The connection on A is untouched.
    expect(await onA.code('GLS')).toBe('202');
    expect(await onA.ask('LGT')).toBe('200\n\n\n');
    await until('the login freed by LGT', async () => ((await onB.code('LOG carl password')) === '200' ? true : undefined), 5000);
    // Now live on B: refused on A, until B's connection closes.
    const again = await DotsClient.open(a.dotsPort);
    clients.push(again);
    expect(await again.code('LOG carl password')).toBe('401 not_now the login is live on another node');
    onB.close();
    await until('the login freed by the closed connection', async () => ((await again.code('LOG carl password')) === '200' ? true : undefined), 5000);
  });

  it('kill -9 of one node mid-game ends its games only, each archived once; the other node plays on', async () => {
    const [a, b] = [nodes[0], nodes[1]];
    // Game X lives on A (dan on A, eve on B); game Y lives on B (fay on B, gus on A).
    const dan = await player(a, 'dan');
    const eve = await player(b, 'eve');
    const fay = await player(b, 'fay');
    const gus = await player(a, 'gus');
    const x = Number(/GID (\d+)/.exec(await dan.ask('NEW 2 10 10 60 0'))![1]);
    const y = Number(/GID (\d+)/.exec(await fay.ask('NEW 2 10 10 60 0'))![1]);
    expect(await eve.reply(`JOI ${x}`)).toBe('200\n\n\n');
    expect(await gus.reply(`JOI ${y}`)).toBe('200\n\n\n');
    expect(await dan.reply('TRN 4 4')).toBe('200\n\n\n');
    expect(await fay.reply('TRN 5 4')).toBe('200\n\n\n');

    a.server.process.kill('SIGKILL');
    await a.server.exited;
    nodes.splice(nodes.indexOf(a), 1);
    const killedAt = Date.now();

    // B finds A dead within its lease and a heartbeat (a third of it), and ends A's game as unfinished, archived.
    await until('game X ended by B', async () => ((await gameRow(x)).state === 'unfinished' ? true : undefined), 4 * LEASE_MS);
    expect(Date.now() - killedAt).toBeLessThanOrEqual(Math.ceil((LEASE_MS * 4) / 3) + 500);
    await until('game X in the archive', async () => ((await gameRow(x)).archived ? true : undefined), 20_000);
    expect((await archivedOf(b, 'dan')).map((game) => game.players.map((p) => [p.name, p.outcome]))).toEqual([
      [
        ['dan', 'unfinished'],
        ['eve', 'unfinished'],
      ],
    ]);

    // The pushes of before the kill have all arrived by now.
    for (const client of [eve, fay]) while (client.unread > 0) await client.next();

    // B's game goes on: gus's connection died with A, so fay plays alone until she stops.
    expect(await gameRow(y)).toEqual({ state: 'running', archived: false });
    expect(await fay.reply('TRN 0 0')).toBe('408 not_your_turn\n\n\n');
    // eve sat at game X: that seat is gone with A, and she is free to start another game on B.
    expect(await eve.ask('TRN 5 5')).toBe('407 not_in_game\n\n\n');
    expect(await eve.code('NEW 2 10 10 60 0')).toBe('203');
    expect(await eve.ask('FIN')).toBe('200\n\n\n');
    // fay stops: gus is the last player left and wins fay's dot (5,4), not joined to the edge.
    expect(await fay.ask('SRD')).toBe('200\n\n\n');
    expect(await pushed(fay)).toBe(state('gus', '0 1', '0 1', { '5,4': 1 }));
    await until('game Y in the archive', async () => ((await gameRow(y)).archived ? true : undefined), 20_000);
    expect(await gameRow(y)).toEqual({ state: 'finished', archived: true });

    // A starts again (same name): nothing of its run before is ended or archived a second time.
    await node(a.dotsPort);
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const { rows } = await sql.query<{ login: string; games: number }>(
      `SELECT substr(external_id, 13) AS login, count(*)::int AS games FROM game_players WHERE external_id LIKE 'tabula-dots:%' GROUP BY external_id ORDER BY 1`,
    );
    expect(rows).toEqual([
      { login: 'ann', games: 1 },
      { login: 'bob', games: 1 },
      { login: 'dan', games: 1 },
      { login: 'eve', games: 1 },
      { login: 'fay', games: 1 },
      { login: 'gus', games: 1 },
    ]);
    expect((await sql.query(`SELECT id, state FROM dots_games WHERE id IN ($1, $2) ORDER BY id`, [x, y])).rows).toEqual([
      { id: String(x), state: 'unfinished' },
      { id: String(y), state: 'finished' },
    ]);
  });
});
