import { ManualClock } from '../support/manual-clock.js';
import { DotsLobby, ListedGame, LobbyPeers, Session } from '../../src/dots-server/lobby.js';
import type { DotsRequest } from '../../src/dots-server/protocol.js';
import { BadRequest, parseRequest } from '../../src/dots-server/protocol.js';
import { MemoryStore } from '../support/dots-server/memory-store.js';

/**
 * The lobby's side of a cluster (issue 32), with the nodes wired together in memory instead of
 * through PostgreSQL (test/e2e/dots-cluster.e2e.spec.ts runs real nodes on a server): which node a
 * request goes to, what comes back, seats taken again from another node, logins claimed once, a
 * node gone. Expected boards are drawn by hand from the rules.
 */
class Cluster {
  readonly store = new MemoryStore();
  readonly clock = new ManualClock(Date.UTC(2026, 10, 23, 1, 0, 0));
  readonly lobbies = new Map<string, DotsLobby>();
  readonly claims = new Map<string, string>();
  readonly gone = new Set<string>();

  node(name: string): DotsLobby {
    const lobby = new DotsLobby(this.store, this.clock, () => undefined, new Peers(this, name));
    this.lobbies.set(name, lobby);
    return lobby;
  }

  others(name: string): [string, DotsLobby][] {
    return [...this.lobbies].filter(([other]) => other !== name && !this.gone.has(other));
  }

  /** The node dies: every other node is told, as the one finding it dead tells them. */
  kill(name: string): void {
    this.gone.add(name);
    for (const [login, node] of this.claims) if (node === name) this.claims.delete(login);
    for (const [, lobby] of this.others(name)) lobby.nodeGone(name);
  }
}

class Peers implements LobbyPeers {
  constructor(
    private readonly cluster: Cluster,
    private readonly name: string,
  ) {}

  async claim(login: string): Promise<boolean> {
    const holder = this.cluster.claims.get(login);
    if (holder !== undefined && holder !== this.name) return false;
    this.cluster.claims.set(login, this.name);
    return true;
  }
  release(login: string): void {
    if (this.cluster.claims.get(login) === this.name) this.cluster.claims.delete(login);
  }
  async listed(): Promise<ListedGame[]> {
    return this.cluster.others(this.name).flatMap(([, lobby]) => lobby.games());
  }
  async homeOf(gameId: number): Promise<string | undefined> {
    return this.cluster.others(this.name).find(([, lobby]) => lobby.games().some((game) => game.id === gameId))?.[0];
  }
  async seatsElsewhere(login: string): Promise<{ id: number; node: string }[]> {
    return this.cluster.others(this.name).flatMap(([node, lobby]) => lobby.games().filter((game) => game.players.includes(login)).map((game) => ({ id: game.id, node })));
  }
  async forward(node: string, login: string, request: DotsRequest | null): Promise<number | null> {
    if (this.cluster.gone.has(node)) throw Object.assign(new Error(`${node} is gone`), { node });
    return this.cluster.lobbies.get(node)!.serveRemote(this.name, login, request);
  }
  detach(node: string, login: string): void {
    if (!this.cluster.gone.has(node)) this.cluster.lobbies.get(node)!.remoteDetached(this.name, login);
  }
  deliver(node: string, login: string, text: string, seat: number | null): void {
    if (!this.cluster.gone.has(node)) this.cluster.lobbies.get(node)!.delivered(this.name, login, text, seat);
  }
  kick(node: string, login: string): void {
    if (!this.cluster.gone.has(node)) this.cluster.lobbies.get(node)!.kicked(login);
  }
}

/** A connection to one node: what it received, answers and pushes alike. */
class Player {
  readonly received: string[] = [];
  closed = false;
  readonly session: Session;

  constructor(private readonly lobby: DotsLobby) {
    this.session = lobby.open({ send: (text) => this.received.push(text), close: () => void (this.closed = true) });
  }

  /** Sends one request line; takes and returns everything received meanwhile (the answer, then any pushes). */
  async say(line: string): Promise<string[]> {
    const from = this.received.length;
    const request = parseRequest(line);
    if (request instanceof BadRequest) this.lobby.refuse(this.session, request);
    else await this.lobby.handle(this.session, request);
    await new Promise((resolve) => setImmediate(resolve));
    return this.received.splice(from);
  }

  async code(line: string): Promise<string> {
    return (await this.say(line))[0].split('\n')[0];
  }

  /** What was received and not taken yet. */
  take(): string[] {
    return this.received.splice(0);
  }

  leave(): void {
    this.lobby.close(this.session);
  }
}

async function loggedIn(lobby: DotsLobby, login: string, register = true): Promise<Player> {
  const player = new Player(lobby);
  if (register) expect(await player.code(`REG ${login} pw`)).toBe('200');
  expect(await player.code(`LOG ${login} pw`)).toBe('200');
  return player;
}

/** A 204 state of a 10×10 game with the given digits at `x,y`. */
function state(acu: string, auf: string, scr: string, dots: Record<string, number> = {}): string {
  const rows = Array.from({ length: 10 }, (_, y) => Array.from({ length: 10 }, (_, x) => dots[`${x},${y}`] ?? 0).join(''));
  return `GSC\n\n\n204\nACU ${acu}\nAUF ${auf}\nSCR ${scr}\n${rows.map((r) => `GAL ${r}\n`).join('')}\n\n`;
}

describe('one lobby across nodes', () => {
  it('lists and joins a game of another node, and carries answers and pushes both ways', async () => {
    const cluster = new Cluster();
    const [a, b] = [cluster.node('a'), cluster.node('b')];
    const ann = await loggedIn(a, 'ann');
    const bob = await loggedIn(b, 'bob');
    const cat = await loggedIn(b, 'cat');
    expect(await ann.say('NEW 2 10 10 30 0')).toEqual(['203\nGID 1\n\n\n']);
    expect(await bob.say('GLS')).toEqual(['202\nGID 1\nGPM 2\nGPC 1\nGAS 10 10\nGTT 30\nGET 0\nGUL ann\n\n\n']);
    expect(await bob.say('JOI 1')).toEqual(['200\n\n\n', state('ann', '1 1', '0 0')]);
    expect(ann.take()).toEqual([state('ann', '1 1', '0 0')]);
    // Full: refused by the game's node, answered on b.
    expect(await cat.say('JOI 1')).toEqual(['406 game_full\n\n\n']);
    // bob sits at a game of a: no other game for him meanwhile.
    expect(await bob.code('NEW 2 10 10 30 0')).toBe('401 not_now already in game 1');
    expect(await bob.code('TRN 4 4')).toBe('408 not_your_turn');
    expect(await ann.say('TRN 4 4')).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', { '4,4': 1 })]);
    expect(bob.take()).toEqual([state('bob', '1 1', '0 0', { '4,4': 1 })]);
    expect(await bob.say('TRN 5 5')).toEqual(['200\n\n\n', state('ann', '1 1', '0 0', { '4,4': 1, '5,5': 2 })]);
    // bob leaves the running game from b: he stops, ann is the last player and takes his dot.
    expect(await bob.say('FIN')).toEqual(['200\n\n\n']);
    expect(ann.take()).toEqual([state('ann', '1 1', '0 0', { '4,4': 1, '5,5': 2 }), state('ann', '1 0', '1 0', { '4,4': 1, '5,5': 2 })]);
    expect(await bob.code('FIN')).toBe('407 not_in_game');
    expect(cluster.store.archived.map((game) => [game.id, game.state, game.players])).toEqual([[1, 'finished', ['ann', 'bob']]]);
    expect(await bob.code('NEW 2 10 10 30 0')).toBe('203');
  });

  it('gives a login one node at a time; a login back on another node takes its seat there again, with the state', async () => {
    const cluster = new Cluster();
    const [a, b] = [cluster.node('a'), cluster.node('b')];
    const ann = await loggedIn(a, 'ann');
    const bob = await loggedIn(a, 'bob');
    expect(await new Player(b).code('LOG ann pw')).toBe('401 not_now the login is live on another node');
    await ann.say('NEW 2 10 10 30 0');
    await bob.say('JOI 1');
    await ann.say('TRN 4 4');
    ann.take();
    bob.take();
    // ann's connection to a goes away mid-game; she logs in on b and finds her game.
    ann.leave();
    const back = new Player(b);
    expect(await back.say('LOG ann pw')).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', { '4,4': 1 })]);
    expect(await back.code('NEW 2 10 10 30 0')).toBe('401 not_now already in game 1');
    expect(await bob.say('TRN 5 5')).toEqual(['200\n\n\n', state('ann', '1 1', '0 0', { '4,4': 1, '5,5': 2 })]);
    expect(back.take()).toEqual([state('ann', '1 1', '0 0', { '4,4': 1, '5,5': 2 })]);
    expect(await back.say('TRN 4 5')).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', { '4,4': 1, '5,5': 2, '4,5': 1 })]);
    // Live on b now: refused on a, until she logs out on b.
    expect(await new Player(a).code('LOG ann pw')).toBe('401 not_now the login is live on another node');
    expect(await back.say('LGT')).toEqual(['200\n\n\n']);
    expect(bob.take()).toEqual([state('bob', '1 1', '0 0', { '4,4': 1, '5,5': 2, '4,5': 1 }), state('bob', '0 1', '0 2', { '4,4': 1, '5,5': 2, '4,5': 1 })]);
    expect(await new Player(a).code('LOG ann pw')).toBe('200');
  });

  it('a waiting seat taken from another node is left when that connection goes away', async () => {
    const cluster = new Cluster();
    const [a, b] = [cluster.node('a'), cluster.node('b')];
    const ann = await loggedIn(a, 'ann');
    const bob = await loggedIn(b, 'bob');
    await ann.say('NEW 3 10 10 30 0');
    expect(await bob.say('JOI 1')).toEqual(['200\n\n\n']);
    expect(a.games().map((game) => game.players)).toEqual([['ann', 'bob']]);
    bob.leave();
    expect(a.games().map((game) => game.players)).toEqual([['ann']]);
  });

  it('when the node of a game is gone, its players elsewhere sit nowhere; when a node with players of a game is gone, their seats are left', async () => {
    const cluster = new Cluster();
    const [a, b, c] = [cluster.node('a'), cluster.node('b'), cluster.node('c')];
    const ann = await loggedIn(a, 'ann');
    const bob = await loggedIn(b, 'bob');
    const cat = await loggedIn(c, 'cat');
    await ann.say('NEW 2 10 10 30 0');
    await bob.say('JOI 1');
    expect(await cat.say('NEW 3 10 10 30 0')).toEqual(['203\nGID 2\n\n\n']);
    expect(await ann.code('JOI 2')).toBe('401 not_now already in game 1');
    const dan = await loggedIn(b, 'dan');
    expect(await dan.say('JOI 2')).toEqual(['200\n\n\n']);
    cluster.kill('a');
    // bob's game lived on a: his seat went with it, his requests are answered as at no game.
    expect(await bob.code('TRN 4 4')).toBe('407 not_in_game');
    expect(await bob.code('GLS')).toBe('202');
    expect((await bob.say('GLS'))[0]).toBe('202\nGID 2\nGPM 3\nGPC 2\nGAS 10 10\nGTT 30\nGET 0\nGUL cat dan\n\n\n');
    // b goes too: dan's waiting seat at c's game is left.
    cluster.kill('b');
    expect(c.games().map((game) => game.players)).toEqual([['cat']]);
  });

  it('a node whose games another node ended (taking it for dead) writes and archives nothing more, and closes its connections', async () => {
    const cluster = new Cluster();
    const a = cluster.node('a');
    const ann = await loggedIn(a, 'ann');
    const bob = await loggedIn(a, 'bob');
    await ann.say('NEW 2 10 10 30 0');
    await bob.say('JOI 1');
    await ann.say('TRN 4 4');
    const before = cluster.store.games.get(1);
    cluster.store.takenOver.add(1);
    // bob's move finds the game no longer this node's: not written, and the node lets go of everything.
    await bob.say('TRN 5 5');
    expect([ann.closed, bob.closed]).toEqual([true, true]);
    expect(cluster.store.games.get(1)).toBe(before);
    expect(a.games()).toEqual([]);
    expect(cluster.store.archived).toEqual([]);
  });
});
