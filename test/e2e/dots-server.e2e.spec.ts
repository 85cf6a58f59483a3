import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { DotsServer } from '../../src/dots-server/dots-server.js';
import { DotsClient } from '../support/dots-client.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import { startArchive, TestArchive } from '../support/archive-harness.js';

// Conformance of the live Dots server over TCP, against a running archive: every request with its
// answers, games played by scripted clients, the pushes, the archived transcripts and UST.
// Move timers are tested with a manual clock in test/dots-server/lobby.spec.ts.

const FAST_HASHES = { DOTS_SCRYPT_COST: '1024' };
/** Every login of a suite registers from loopback; the REG limit has tests of its own (dots-access.e2e.spec.ts). */
const MANY_REGISTRATIONS = { DOTS_REGISTRATIONS_PER_ADDRESS: '1000' };

/** A 10x10 board (GAL rows) with the given digits at x,y. */
function rows(dots: Record<string, number>): string {
  const grid = Array.from({ length: 10 }, () => Array<number>(10).fill(0));
  for (const [xy, digit] of Object.entries(dots)) {
    const [x, y] = xy.split(',').map(Number);
    grid[y][x] = digit;
  }
  return grid.map((r) => `GAL ${r.join('')}\n`).join('');
}

async function player(port: number, login: string): Promise<DotsClient> {
  const client = await DotsClient.open(port);
  const registered = await client.code(`REG ${login} pw-${login}`);
  expect(['200', '400 login_taken']).toContain(registered);
  expect(await logIn(client, login, `pw-${login}`)).toBe('200');
  return client;
}

/**
 * LOG, again after the wait a `403 slow_down` names: every client of a suite is on loopback, and a
 * failed LOG of one makes the LOGs from that address wait a little (dots-access.e2e.spec.ts).
 */
async function logIn(client: DotsClient, login: string, password: string): Promise<string> {
  for (;;) {
    const answer = await client.code(`LOG ${login} ${password}`);
    const wait = /^403 slow_down retry in (\d+) ms$/.exec(answer);
    if (wait === null) return answer;
    await new Promise((resolve) => setTimeout(resolve, Number(wait[1])));
  }
}

interface ArchivedGame {
  id: number;
  publisher: string;
  version: string;
  result: string | null;
  owner: string | null;
  players: { name: string; externalId: string; outcome: string; points: number }[];
  verdict: { legal: boolean; consistent: boolean };
}

async function archivedGamesOf(archive: TestArchive, login: string): Promise<ArchivedGame[]> {
  const page = (await (await fetch(`${archive.baseUrl}/games?externalId=${encodeURIComponent(`tabula-dots:${login}`)}`)).json()) as { items: { id: number }[] };
  return Promise.all(page.items.map(async ({ id }) => (await (await fetch(`${archive.baseUrl}/games/${id}`)).json()) as ArchivedGame));
}

describe('the Dots server over TCP', () => {
  let archive: TestArchive;
  let server: DotsServer;
  let port: number;
  const clients: DotsClient[] = [];

  async function connect(login?: string): Promise<DotsClient> {
    const client = login === undefined ? await DotsClient.open(port) : await player(port, login);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    archive = await startArchive({ ...FAST_HASHES, ...MANY_REGISTRATIONS, DOTS_MAX_LINE: '64' });
    server = archive.app.get(DotsServer);
    port = await server.listen(0);
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await archive.close();
  });

  it('answers every request of the design with its codes', async () => {
    const ann = await connect();
    expect(await ann.code('UST')).toBe('404 not_logged_in');
    expect(await ann.code('GLS')).toBe('404 not_logged_in');
    expect(await ann.code('NEW 2 10 10 15 0')).toBe('404 not_logged_in');
    expect(await ann.code('JOI 1')).toBe('404 not_logged_in');
    expect(await ann.code('FIN')).toBe('404 not_logged_in');
    expect(await ann.code('TRN 1 1')).toBe('404 not_logged_in');
    expect(await ann.code('SRD')).toBe('404 not_logged_in');
    expect(await ann.code('LGT')).toBe('404 not_logged_in');
    expect(await ann.ask('REG conf-ann secret-word')).toBe('200\n\n\n');
    expect(await ann.code('REG conf-ann other-word')).toBe('400 login_taken');
    expect(await ann.code('REG bad login x')).toBe('401 bad_parameter REG takes 2 parameters separated by single spaces');
    expect(await ann.code('LOG conf-ann wrong-word')).toBe('403 wrong_login_or_password');
    // A failed LOG makes the next LOG of the login (and from the address) wait half a second.
    expect(await ann.code('LOG conf-ann secret-word')).toMatch(/^403 slow_down retry in \d+ ms$/);
    expect(await logIn(ann, 'conf-ann', 'secret-word')).toBe('200');
    expect(await ann.code('HEY')).toMatch(/^401 unknown_command /);
    expect(await ann.code('NEW 2 9 10 15 0')).toBe('401 bad_parameter field: 10 to 50 points each way');
    expect(await ann.code('NEW 5 10 10 15 0')).toBe('401 bad_parameter players: 2 to 4');
    expect(await ann.code('NEW 2 10 10 100 0')).toBe('401 bad_parameter time per move: 15 to 90 seconds');
    expect(await ann.code('NEW 2 10 10 15 2')).toBe('401 bad_parameter extra move: 0 or 1');
    expect(await ann.code('JOI 999999')).toBe('405 no_such_game');
    expect(await ann.code('FIN')).toBe('407 not_in_game');
    expect(await ann.code('TRN 1 1')).toBe('407 not_in_game');
    expect(await ann.code('SRD')).toBe('407 not_in_game');
    const created = await ann.ask('NEW 2 10 10 15 0');
    const gid = Number(/^203\nGID (\d+)\n\n\n$/.exec(created)?.[1]);
    expect(gid).toBeGreaterThan(0);
    expect(await ann.ask('GLS')).toBe(`202\nGID ${gid}\nGPM 2\nGPC 1\nGAS 10 10\nGTT 15\nGET 0\nGUL conf-ann\n\n\n`);
    expect(await ann.code('TRN 4 4')).toBe('408 not_started');
    const bob = await connect('conf-bob');
    expect(await bob.code(`JOI ${gid}`)).toBe('200');
    // The game is full and starts: GSC and the 204 state to both.
    const start = `GSC\n\n\n`;
    const empty = `204\nACU conf-ann\nAUF 1 1\nSCR 0 0\n${rows({})}\n\n`;
    expect([await bob.next(), await bob.next()]).toEqual([start, empty]);
    expect([await ann.next(), await ann.next()]).toEqual([start, empty]);
    const cid = await connect('conf-cid');
    expect(await cid.code(`JOI ${gid}`)).toBe('406 game_full');
    expect(await bob.code('TRN 4 4')).toBe('408 not_your_turn');
    expect(await ann.code('TRN 0 0')).toBe('408 outside_start_area');
    expect(await ann.code('LGT')).toBe('200');
    // Ann logged out during the game: she stopped, bob is left alone and the game ends.
    expect(await bob.next()).toBe('GSC\n\n\n');
    expect(await bob.next()).toBe(`204\nACU conf-bob\nAUF 0 1\nSCR 0 0\n${rows({})}\n\n`);
    expect(await bob.code('FIN')).toBe('407 not_in_game');
  });

  it('answers junk with 401 and stays usable', async () => {
    const eve = await connect();
    eve.write(`${'x'.repeat(100)}\n`);
    expect((await eve.next()).split('\n')[0]).toBe('401 line_too_long a line may hold at most 64 bytes');
    eve.write(Buffer.from([0x55, 0x53, 0xff, 0x0a, 0x0a, 0x0a]));
    expect((await eve.next()).split('\n')[0]).toBe('401 not_text a request is UTF-8 text');
    eve.write('GLS\nGLS\n\n\n');
    expect((await eve.next()).split('\n')[0]).toMatch(/^401 bad_framing/);
    expect(await eve.next()).toBe('404 not_logged_in\n\n\n');
    expect(await eve.code('REG conf-eve password')).toBe('200');
  });

  it('lets a second LOG take the account over, closing the first connection', async () => {
    const first = await connect('conf-dan');
    const second = await connect();
    expect(await logIn(second, 'conf-dan', 'pw-conf-dan')).toBe('200');
    await first.whenClosed();
    expect(await second.code('UST')).toBe('201');
  });

  it('plays a game to its end, archives it through the upload path, and counts it in UST', async () => {
    const ann = await connect('game-ann');
    const bob = await connect('game-bob');
    const gid = Number(/GID (\d+)/.exec(await ann.ask('NEW 2 10 10 30 0'))![1]);
    expect(await bob.code(`JOI ${gid}`)).toBe('200');
    for (const client of [ann, bob]) {
      await client.next();
      await client.next();
    }
    const script: [DotsClient, string][] = [
      [ann, 'TRN 4 4'],
      [bob, 'TRN 5 4'],
      [ann, 'TRN 5 3'],
      [bob, 'TRN 0 0'],
      [ann, 'TRN 6 4'],
      [bob, 'TRN 0 1'],
      [ann, 'TRN 5 5'],
    ];
    for (const [client, line] of script) {
      expect(await client.code(line)).toBe('200');
      for (const each of [ann, bob]) {
        expect(await each.next()).toBe('GSC\n\n\n');
        expect((await each.next()).startsWith('204\n')).toBe(true);
      }
    }
    expect(await bob.code('SRD')).toBe('200');
    expect(await bob.next()).toBe('GSC\n\n\n');
    // Ann closed the diamond around bob's 5,4 (captured: 2+4); bob's other dots are on the edge.
    const final = `204\nACU game-ann\nAUF 1 0\nSCR 1 0\n${rows({ '4,4': 1, '5,3': 1, '6,4': 1, '5,5': 1, '5,4': 6, '0,0': 2, '0,1': 2 })}\n\n`;
    expect(await bob.next()).toBe(final);
    expect([await ann.next(), await ann.next()]).toEqual(['GSC\n\n\n', final]);
    await server.lobby.settled();

    const [game] = await archivedGamesOf(archive, 'game-ann');
    expect([game.publisher, game.version]).toEqual(['Dots server', 'transcript']);
    // The Dots server's games are its account's, in the audit trail as it archives them.
    expect(game.owner).toBe('dots-server');
    const audit = (await (await fetch(`${archive.baseUrl}/audit?action=game.archive`)).json()) as { items: { account: string; target: string; status: number }[] };
    expect(audit.items).toContainEqual(expect.objectContaining({ account: 'dots-server', target: String(game.id), status: 201 }));
    expect(game.verdict).toMatchObject({ legal: true, consistent: true });
    expect(game.result).toBe('game-ann was the last player left; game-ann wins 1:0');
    expect(game.players.map((p) => [p.name, p.externalId, p.outcome, p.points])).toEqual([
      ['game-ann', 'tabula-dots:game-ann', 'won', 1],
      ['game-bob', 'tabula-dots:game-bob', 'lost', 0],
    ]);
    const raw = await (await fetch(`${archive.baseUrl}/games/${game.id}/raw`)).text();
    expect(raw.split('\n').slice(0, 9)).toEqual([
      'TABULA DOTS TRANSCRIPT 1', `game ${gid}`, expect.stringMatching(/^started \d{4}-/), 'field 10 10', 'time 30', 'extra 0', 'start central', 'player 1 game-ann', 'player 2 game-bob',
    ]);
    expect(raw).toMatch(/\nmove 1 5 5 \d+\nstop 2 srd \d+\nend last_player \d+\nscore 1 0\n$/);
    // The archived transcript converts to VK and SGF for two players.
    expect((await fetch(`${archive.baseUrl}/games/${game.id}/export?format=${encodeURIComponent('VK Dots/code')}`)).status).toBe(200);
    const sgf = await fetch(`${archive.baseUrl}/games/${game.id}/export?format=${encodeURIComponent('SGF/FF4-Dots')}`);
    expect(sgf.status).toBe(200);
    expect(await sgf.text()).toContain('GM[40]');

    // A second game: ann stops at once, bob is left with her lone dot 4,4 to surround: 0:1.
    const again = Number(/GID (\d+)/.exec(await ann.ask('NEW 2 10 10 30 0'))![1]);
    expect(await bob.reply(`JOI ${again}`)).toBe('200\n\n\n');
    expect(await ann.reply('TRN 4 4')).toBe('200\n\n\n');
    expect(await bob.reply('TRN 5 5')).toBe('200\n\n\n');
    expect(await ann.reply('SRD')).toBe('200\n\n\n');
    await server.lobby.settled();
    expect(await ann.reply('UST')).toBe('201\nLOG game-ann\nNPG 2\nNPW 1\nNPL 1\nNPD 0\n\n\n');
    expect(await bob.reply('UST')).toBe('201\nLOG game-bob\nNPG 2\nNPW 1\nNPL 1\nNPD 0\n\n\n');
  });

  it('plays a four-player game with stops and the extra move, and archives its result', async () => {
    const [a, b, c, d] = await Promise.all(['four-a', 'four-b', 'four-c', 'four-d'].map((login) => connect(login)));
    const gid = Number(/GID (\d+)/.exec(await a.reply('NEW 4 10 10 60 1'))![1]);
    for (const p of [b, c, d]) expect(await p.reply(`JOI ${gid}`)).toBe('200\n\n\n');
    // The central 2x2 first (one point each), then a builds a diamond around d's 2,2; d stops.
    const script: [DotsClient, string][] = [
      [a, 'TRN 4 4'], [b, 'TRN 5 4'], [c, 'TRN 4 5'], [d, 'TRN 5 5'],
      [a, 'TRN 2 1'], [b, 'TRN 9 9'], [c, 'TRN 1 9'], [d, 'TRN 2 2'],
      [a, 'TRN 1 2'], [b, 'TRN 9 8'], [c, 'TRN 2 9'], [d, 'SRD'],
      [a, 'TRN 3 2'], [b, 'TRN 9 7'], [c, 'TRN 3 9'],
      // a closes the diamond, captures d's 2,2 and moves again.
      [a, 'TRN 2 3'], [b, 'TRN 8 8'], [a, 'TRN 7 7'],
      [b, 'SRD'], [c, 'SRD'],
    ];
    const expected: Record<string, string> = { 'b TRN 8 8': '408 not_your_turn\n\n\n' };
    const names = new Map([[a, 'a'], [b, 'b'], [c, 'c'], [d, 'd']]);
    for (const [client, line] of script) {
      expect([line, await client.reply(line)]).toEqual([line, expected[`${names.get(client)} ${line}`] ?? '200\n\n\n']);
    }
    await server.lobby.settled();
    const [game] = await archivedGamesOf(archive, 'four-a');
    // 1 captured + b's 5,4, c's 4,5 and d's 5,5, which are not joined to the edge.
    expect(game.result).toBe('four-a was the last player left; four-a wins 4:0:0:0');
    expect(game.players.map((p) => [p.name, p.outcome, p.points])).toEqual([
      ['four-a', 'won', 4],
      ['four-b', 'lost', 0],
      ['four-c', 'lost', 0],
      ['four-d', 'lost', 0],
    ]);
  });

  it('speaks the same protocol over the WebSocket bridge, one message per answer', async () => {
    const ws = new WebSocket(`${archive.baseUrl.replace(/^http/, 'ws')}/dots/ws`);
    const messages: string[] = [];
    const arrived = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (messages.length >= count ? resolve() : setTimeout(check, 10));
        check();
      });
    ws.on('message', (data) => messages.push(String(data)));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // A request split over two messages, then two requests in one.
    ws.send('REG ws-ann password\n');
    ws.send('\n\n');
    ws.send('LOG ws-ann password\n\n\nUST\n\n\n');
    await arrived(3);
    expect(messages).toEqual(['200\n\n\n', '200\n\n\n', '201\nLOG ws-ann\nNPG 0\nNPW 0\nNPL 0\nNPD 0\n\n\n']);
    ws.close();
  });

  it('frees the seat of a client that vanishes from a waiting game', async () => {
    const gone = await connect('vanish-ann');
    const gid = Number(/GID (\d+)/.exec(await gone.ask('NEW 3 10 10 15 0'))![1]);
    gone.close();
    const other = await connect('vanish-bob');
    for (let i = 0; i < 50 && /GUL vanish-ann/.test(await other.ask('GLS')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await other.code(`JOI ${gid}`)).toBe('405 no_such_game');
  });
});

describe('the Dots server across a restart', () => {
  it('keeps accounts and statistics, and ends a running game as unfinished in the archive', async () => {
    const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
    const scratch = serverUrl === undefined ? undefined : await createScratchDatabase(serverUrl, 'tabula_dots');
    const dataDir = mkdtempSync(join(tmpdir(), 'tabula-dots-'));
    const settings = { ...FAST_HASHES, ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir }) };
    try {
      let archive = await startArchive(settings);
      let port = await archive.app.get(DotsServer).listen(0);
      const ann = await player(port, 'rs-ann');
      const bob = await player(port, 'rs-bob');
      const gid = Number(/GID (\d+)/.exec(await ann.ask('NEW 2 10 10 30 1'))![1]);
      expect(await bob.code(`JOI ${gid}`)).toBe('200');
      // The start's GSC and 204.
      await ann.next();
      await ann.next();
      expect(await ann.code('TRN 4 4')).toBe('200');
      await archive.app.get(DotsServer).lobby.settled();
      ann.close();
      bob.close();
      await archive.close();

      archive = await startArchive(settings);
      const server = archive.app.get(DotsServer);
      await server.recovered();
      port = await server.listen(0);
      const back = await DotsClient.open(port);
      expect(await back.code('LOG rs-ann pw-rs-ann')).toBe('200');
      expect(await back.ask('GLS')).toBe('202\n\n\n');
      expect(await back.ask('UST')).toBe('201\nLOG rs-ann\nNPG 1\nNPW 0\nNPL 0\nNPD 0\n\n\n');
      const [game] = await archivedGamesOf(archive, 'rs-ann');
      expect(game.result).toBeNull();
      expect(game.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
      const raw = await (await fetch(`${archive.baseUrl}/games/${game.id}/raw`)).text();
      expect(raw).toMatch(/\nmove 1 4 4 (\d+)\nend unfinished \1\n$/);
      back.close();
      await archive.close();
    } finally {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an idle connection', () => {
  it('gets 401 idle_timeout and is closed', async () => {
    const archive = await startArchive({ ...FAST_HASHES, DOTS_IDLE_TIMEOUT_MS: '1000' });
    try {
      const port = await archive.app.get(DotsServer).listen(0);
      const client = await DotsClient.open(port);
      expect((await client.next(3000)).split('\n')[0]).toBe('401 idle_timeout no request for 1000 ms');
      await client.whenClosed();
    } finally {
      await archive.close();
    }
  });
});

describe('DOTS_MAX_CONNECTIONS', () => {
  it('counts TCP and WebSocket connections together, refusing any past it until one closes', async () => {
    const archive = await startArchive({ ...FAST_HASHES, DOTS_MAX_CONNECTIONS: '2' });
    const wsUrl = `${archive.baseUrl.replace(/^http/, 'ws')}/dots/ws`;
    /** Whether a WebSocket to the bridge opens or is refused, with the socket. */
    const openWebSocket = () =>
      new Promise<{ opened: boolean; ws: WebSocket }>((resolve) => {
        const ws = new WebSocket(wsUrl);
        ws.once('open', () => resolve({ opened: true, ws }));
        ws.once('error', () => resolve({ opened: false, ws }));
      });
    const sockets: { close(): void }[] = [];
    try {
      const server = archive.app.get(DotsServer);
      const port = await server.listen(0);
      const tcp = await DotsClient.open(port);
      sockets.push(tcp);
      expect(await tcp.code('UST')).toBe('404 not_logged_in');
      const ws = await openWebSocket();
      sockets.push(ws.ws);
      expect(ws.opened).toBe(true);

      // Both places are taken: a third connection is closed at once, over either transport.
      const third = await DotsClient.open(port);
      sockets.push(third);
      await third.whenClosed();
      const fourth = await openWebSocket();
      expect(fourth.opened).toBe(false);

      // Once one closes, its place serves a new connection.
      tcp.close();
      for (let i = 0; i < 100 && server.connections.open > 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const next = await DotsClient.open(port);
      sockets.push(next);
      expect(await next.code('UST')).toBe('404 not_logged_in');
    } finally {
      for (const socket of sockets) socket.close();
      await archive.close();
    }
  });
});
