import { ManualClock } from '../support/manual-clock.js';
import { DotsLobby, SAVE_RETRY_MS, Session } from '../../src/dots-server/lobby.js';
import { BadRequest, parseRequest } from '../../src/dots-server/protocol.js';
import { MemoryStore } from '../support/dots-server/memory-store.js';

/** A scripted player: what it received, split into answers (code line + body). */
class Player {
  readonly received: string[] = [];
  closed = false;
  readonly session: Session;

  constructor(private readonly lobby: DotsLobby) {
    this.session = lobby.open({ send: (text) => this.received.push(text), close: () => void (this.closed = true) });
  }

  /** Sends one request line; returns everything received for it (the answer, then any pushes). */
  async say(line: string): Promise<string[]> {
    const from = this.received.length;
    const request = parseRequest(line);
    if (request instanceof BadRequest) this.lobby.refuse(this.session, request);
    else await this.lobby.handle(this.session, request);
    return this.received.slice(from);
  }

  /** The first line of the answer to `line`. */
  async code(line: string): Promise<string> {
    return (await this.say(line))[0].split('\n')[0];
  }

  take(): string[] {
    return this.received.splice(0);
  }
}

function setting(): { store: MemoryStore; clock: ManualClock; lobby: DotsLobby } {
  const store = new MemoryStore();
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 1, 0, 0));
  return { store, clock, lobby: new DotsLobby(store, clock) };
}

async function loggedIn(lobby: DotsLobby, login: string): Promise<Player> {
  const player = new Player(lobby);
  expect(await player.code(`REG ${login} pw-${login}`)).toBe('200');
  expect(await player.code(`LOG ${login} pw-${login}`)).toBe('200');
  return player;
}

/** A 204 state as the design writes it, from rows drawn as digits. */
function state(acu: string, auf: string, scr: string, rows: string[]): string {
  return `GSC\n\n\n204\nACU ${acu}\nAUF ${auf}\nSCR ${scr}\n${rows.map((r) => `GAL ${r}\n`).join('')}\n\n`;
}

/** A 10x10 board with the given digits at x,y. */
function board(dots: Record<string, number>): string[] {
  const rows = Array.from({ length: 10 }, () => Array<number>(10).fill(0));
  for (const [xy, digit] of Object.entries(dots)) {
    const [x, y] = xy.split(',').map(Number);
    rows[y][x] = digit;
  }
  return rows.map((r) => r.join(''));
}

describe('accounts', () => {
  it('registers, refuses a taken login, logs in and out', async () => {
    const { lobby } = setting();
    const ann = new Player(lobby);
    expect(await ann.code('REG ann secret')).toBe('200');
    expect(await ann.code('REG ann other')).toBe('400 login_taken');
    expect(await ann.code('UST')).toBe('404 not_logged_in');
    expect(await ann.code('GLS')).toBe('404 not_logged_in');
    expect(await ann.code('LGT')).toBe('404 not_logged_in');
    expect(await ann.code('LOG ann wrong')).toBe('403 wrong_login_or_password');
    expect(await ann.code('LOG nobody secret')).toBe('403 wrong_login_or_password');
    expect(await ann.code('LOG ann secret')).toBe('200');
    expect(await ann.code('LOG ann secret')).toBe('200');
    expect(await ann.code('REG bob pw')).toBe('200');
    expect(await ann.code('LOG bob pw')).toBe('401 not_now log out (LGT) first');
    expect(await ann.code('LGT')).toBe('200');
    expect(await ann.code('UST')).toBe('404 not_logged_in');
  });

  it('lets a second LOG of the account take over: the first connection is closed', async () => {
    const { lobby } = setting();
    const first = await loggedIn(lobby, 'ann');
    const second = new Player(lobby);
    expect(await second.code('LOG ann pw-ann')).toBe('200');
    expect(first.closed).toBe(true);
    expect(await first.code('UST')).toBe('404 not_logged_in');
    expect(await second.say('UST')).toEqual(['201\nLOG ann\nNPG 0\nNPW 0\nNPL 0\nNPD 0\n\n\n']);
  });

  it('answers UST from the store, and 402 when the store fails', async () => {
    const { lobby, store } = setting();
    const ann = await loggedIn(lobby, 'ann');
    store.stats.set('ann', { played: 5, won: 2, lost: 2, drawn: 1 });
    expect(await ann.say('UST')).toEqual(['201\nLOG ann\nNPG 5\nNPW 2\nNPL 2\nNPD 1\n\n\n']);
    store.failing = true;
    expect(await ann.say('UST')).toEqual(['402 internal_error\n\n\n']);
  });

  it('answers unreadable requests 401', async () => {
    const { lobby } = setting();
    const ann = new Player(lobby);
    expect(await ann.code('NEW 2 10 10 10 0')).toBe('401 bad_parameter time per move: 15 to 90 seconds');
  });
});

describe('the game list', () => {
  it('creates, lists, joins, refuses full and unknown games, leaves', async () => {
    const { lobby } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    const cid = await loggedIn(lobby, 'cid');
    expect(await ann.say('GLS')).toEqual(['202\n\n\n']);
    expect(await ann.say('NEW 3 20 15 30 1')).toEqual(['203\nGID 1\n\n\n']);
    expect(await ann.code('NEW 2 10 10 15 0')).toBe('401 not_now already in game 1');
    expect(await bob.say('NEW 2 10 12 15 0')).toEqual(['203\nGID 2\n\n\n']);
    expect(await cid.say('GLS')).toEqual([
      '202\nGID 1\nGPM 3\nGPC 1\nGAS 20 15\nGTT 30\nGET 1\nGUL ann\n\nGID 2\nGPM 2\nGPC 1\nGAS 10 12\nGTT 15\nGET 0\nGUL bob\n\n\n',
    ]);
    expect(await cid.code('JOI 9')).toBe('405 no_such_game');
    expect(await cid.code('JOI 1')).toBe('200');
    expect(await cid.code('JOI 2')).toBe('401 not_now already in game 1');
    expect(await bob.code('FIN')).toBe('200');
    // Bob's game had only him: it is gone.
    expect(lobby.games().map((g) => g.id)).toEqual([1]);
    expect(await bob.code('FIN')).toBe('407 not_in_game');
    expect(await bob.code('TRN 1 1')).toBe('407 not_in_game');
    expect(await bob.code('SRD')).toBe('407 not_in_game');
    expect(await cid.code('TRN 1 1')).toBe('408 not_started');
    expect(await cid.code('SRD')).toBe('401 not_now the game has not started');
    expect(await bob.code('JOI 1')).toBe('200');
    const dan = await loggedIn(lobby, 'dan');
    expect(await dan.code('JOI 1')).toBe('406 game_full');
    expect(lobby.games()).toEqual([{ id: 1, state: 'running', options: { players: 3, width: 20, height: 15, seconds: 30, extraMove: true }, players: ['ann', 'cid', 'bob'] }]);
  });

  it('frees the seat of a connection that goes away before the game starts', async () => {
    const { lobby } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 3 10 10 15 0');
    await bob.say('JOI 1');
    lobby.close(bob.session);
    expect(lobby.games()[0].players).toEqual(['ann']);
  });
});

describe('a two-player game', () => {
  it('plays first dots in the centre, turns, a surround, SRD and the end, pushing every state', async () => {
    const { lobby, store, clock } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 30 0');
    ann.take();
    const empty = board({});
    // The game starts when bob joins: both get GSC and the empty board, ann to move.
    expect(await bob.say('JOI 1')).toEqual(['200\n\n\n', state('ann', '1 1', '0 0', empty)]);
    expect(ann.take()).toEqual([state('ann', '1 1', '0 0', empty)]);
    // 10x10: first dots go to x 4..5, y 4..5.
    expect(await ann.code('TRN 3 4')).toBe('408 outside_start_area');
    expect(await bob.code('TRN 4 4')).toBe('408 not_your_turn');
    clock.advance(1000);
    expect(await ann.say('TRN 4 4')).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', board({ '4,4': 1 }))]);
    expect(await ann.code('TRN 0 0')).toBe('408 not_your_turn');
    expect(await bob.code('TRN 4 4')).toBe('408 occupied');
    expect(await bob.code('TRN 10 4')).toBe('408 off_board');
    const script: [Player, string][] = [
      [bob, 'TRN 5 4'],
      [ann, 'TRN 5 3'],
      [bob, 'TRN 0 0'],
      [ann, 'TRN 6 4'],
      [bob, 'TRN 0 1'],
    ];
    for (const [who, line] of script) {
      clock.advance(1000);
      expect(await who.code(line)).toBe('200');
    }
    clock.advance(1000);
    // Ann closes the diamond 5,3 / 4,4 / 6,4 / 5,5 around bob's 5,4: captured, digit 2+4.
    const after = board({ '4,4': 1, '5,3': 1, '6,4': 1, '5,5': 1, '5,4': 6, '0,0': 2, '0,1': 2 });
    expect(await ann.say('TRN 5 5')).toEqual(['200\n\n\n', state('bob', '1 1', '1 0', after)]);
    expect(await bob.code('TRN 5 4')).toBe('408 occupied');
    bob.take();
    ann.take();
    clock.advance(500);
    // Bob stops (the turn passes to ann): ann is the last player left and the game ends. Bob's
    // live dots are on the edge: nothing more to surround, 1:0.
    expect(await bob.say('SRD')).toEqual(['200\n\n\n', state('ann', '1 0', '1 0', after)]);
    expect(ann.take()).toEqual([state('ann', '1 0', '1 0', after)]);
    expect(lobby.games()).toEqual([]);
    expect(await ann.code('TRN 1 1')).toBe('407 not_in_game');
    await lobby.shutdown();
    expect(store.archived.map((g) => g.transcript)).toEqual([
      [
        'TABULA DOTS TRANSCRIPT 1',
        'game 1',
        'started 2026-11-23T01:00:00.000Z',
        'field 10 10',
        'time 30',
        'extra 0',
        'start central',
        'player 1 ann',
        'player 2 bob',
        'move 1 4 4 1000',
        'move 2 5 4 2000',
        'move 1 5 3 3000',
        'move 2 0 0 4000',
        'move 1 6 4 5000',
        'move 2 0 1 6000',
        'move 1 5 5 7000',
        'stop 2 srd 7500',
        'end last_player 7500',
        'score 1 0',
        '',
      ].join('\n'),
    ]);
    expect(store.games.get(1)?.state).toBe('finished');
  });
});

describe('move timers', () => {
  it('stop the player whose time runs out; a move restarts the timer of the next player', async () => {
    const { lobby, store, clock } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 15 0');
    await bob.say('JOI 1');
    clock.advance(10_000);
    await ann.say('TRN 4 4');
    ann.take();
    bob.take();
    // Bob has 15 s from ann's move, not from the start.
    clock.advance(14_999);
    expect(bob.take()).toEqual([]);
    clock.advance(1);
    // The state is pushed once the stop is committed.
    await lobby.settled();
    // Bob is out of time (the turn passes to ann): ann is left alone with nothing to surround, 0:0.
    expect(bob.take()).toEqual([state('ann', '1 0', '0 0', board({ '4,4': 1 }))]);
    await lobby.shutdown();
    expect(store.archived[0].transcript).toContain('move 1 4 4 10000\nstop 2 timeout 25000\nend last_player 25000\nscore 0 0\n');
  });

  it('run out for a player whose connection is gone, unless the account logs in again', async () => {
    const { lobby, clock } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 15 0');
    await bob.say('JOI 1');
    await ann.say('TRN 4 4');
    lobby.close(bob.session);
    clock.advance(5000);
    // Bob comes back on a new connection: the state at once, and his seat.
    const again = new Player(lobby);
    const answers = await again.say('LOG bob pw-bob');
    expect(answers).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', board({ '4,4': 1 }))]);
    expect(await again.code('TRN 5 5')).toBe('200');
    lobby.close(again.session);
    lobby.close(ann.session);
    // Both gone: ann's time runs out 15 s after bob's move, which leaves bob alone: the end.
    clock.advance(14_999);
    expect(lobby.games()).toHaveLength(1);
    clock.advance(1);
    expect(lobby.games()).toHaveLength(0);
  });
});

describe('a four-player game with the extra move', () => {
  it('plays on after a stop, gives the surrounder another move, and ends with the last player taking what it can surround', async () => {
    const { lobby, store } = setting();
    const [a, b, c, d] = [await loggedIn(lobby, 'a'), await loggedIn(lobby, 'b'), await loggedIn(lobby, 'c'), await loggedIn(lobby, 'd')];
    await a.say('NEW 4 10 10 60 1');
    for (const p of [b, c, d]) expect(await p.code('JOI 1')).toBe('200');
    const script: [Player, string][] = [
      // The central 2x2: one point each.
      [a, 'TRN 4 4'], [b, 'TRN 5 4'], [c, 'TRN 4 5'], [d, 'TRN 5 5'],
      [a, 'TRN 2 1'], [b, 'TRN 9 9'], [c, 'TRN 1 9'], [d, 'TRN 2 2'],
      [a, 'TRN 1 2'], [b, 'TRN 9 8'], [c, 'TRN 2 9'], [d, 'SRD'],
      // D has stopped: the turn goes a, b, c.
      [a, 'TRN 3 2'], [b, 'TRN 9 7'], [c, 'TRN 3 9'],
    ];
    for (const [who, line] of script) expect([line, await who.code(line)]).toEqual([line, '200']);
    // A closes the diamond around d's 2,2 and, by the extra move, plays again.
    expect(await a.code('TRN 2 3')).toBe('200');
    expect(await b.code('TRN 8 8')).toBe('408 not_your_turn');
    a.take();
    expect(await a.code('TRN 7 7')).toBe('200');
    expect(a.take()[1]).toContain('ACU b\nAUF 1 1 1 0\nSCR 1 0 0 0\n');
    expect(await b.code('SRD')).toBe('200');
    expect(await c.code('SRD')).toBe('200');
    // A alone: b's 5,4, c's 4,5 and d's 5,5 are not joined to the edge (b's and c's other dots
    // are on it): 1 + 3.
    const last = a.take();
    expect(last[last.length - 1]).toContain('AUF 1 0 0 0\nSCR 4 0 0 0\n');
    await lobby.shutdown();
    expect(store.archived[0].transcript).toMatch(/stop 4 srd \d+\n[^]*stop 2 srd \d+\nstop 3 srd \d+\nend last_player \d+\nscore 4 0 0 0\n$/);
  });
});

describe('saving progress', () => {
  it('answers a move only once it is committed, and pushes the state after the answer', async () => {
    const { lobby, store } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 30 0');
    expect(await bob.code('JOI 1')).toBe('200');
    // The game's start was committed before bob's 200.
    expect(store.games.get(1)?.state).toBe('running');
    ann.take();
    bob.take();
    let open!: () => void;
    store.gate = new Promise((resolve) => (open = resolve));
    const move = ann.say('TRN 4 4');
    await new Promise((resolve) => setImmediate(resolve));
    // The commit is held: no answer, no push, nothing written yet.
    expect([ann.received, bob.received, store.games.get(1)?.transcript]).toEqual([[], [], expect.not.stringContaining('move 1 4 4')]);
    open();
    store.gate = null;
    expect(await move).toEqual(['200\n\n\n', state('bob', '1 1', '0 0', board({ '4,4': 1 }))]);
    expect(store.games.get(1)?.transcript).toMatch(/\nmove 1 4 4 0\n$/);
    expect(bob.take()).toEqual([state('bob', '1 1', '0 0', board({ '4,4': 1 }))]);
    await ann.say('SRD');
    await lobby.settled();
    expect(store.games.get(1)?.state).toBe('finished');
    expect(store.archived).toHaveLength(1);
  });

  it('puts the changes made while a commit is written into one next commit', async () => {
    const { lobby, store } = setting();
    const players = await Promise.all(['a1', 'b1', 'a2', 'b2', 'a3', 'b3'].map((login) => loggedIn(lobby, login)));
    for (let g = 0; g < 3; g++) {
      await players[2 * g].say('NEW 2 10 10 30 0');
      expect(await players[2 * g + 1].code(`JOI ${g + 1}`)).toBe('200');
    }
    store.commits.length = 0;
    let open!: () => void;
    store.gate = new Promise((resolve) => (open = resolve));
    // Game 1's move starts a commit; the moves of games 2 and 3 arrive while it is written.
    const first = players[0].code('TRN 4 4');
    await new Promise((resolve) => setImmediate(resolve));
    const others = [players[2].code('TRN 4 4'), players[4].code('TRN 5 5')];
    await new Promise((resolve) => setImmediate(resolve));
    open();
    store.gate = null;
    expect(await Promise.all([first, ...others])).toEqual(['200', '200', '200']);
    expect(store.commits).toEqual([[1], [2, 3]]);
  });

  it('answers 402 when the commit fails, and writes the change again once the store is back', async () => {
    const { lobby, store, clock } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 30 0');
    await bob.say('JOI 1');
    store.savesFailing = true;
    expect(await ann.code('TRN 4 4')).toBe('402 internal_error');
    expect(store.games.get(1)?.transcript).not.toContain('move 1 4 4');
    store.savesFailing = false;
    clock.advance(SAVE_RETRY_MS);
    await lobby.settled();
    expect(store.games.get(1)?.transcript).toMatch(/\nmove 1 4 4 0\n$/);
  });

  it('has written everything when the lobby shuts down', async () => {
    const { lobby, store } = setting();
    const ann = await loggedIn(lobby, 'ann');
    const bob = await loggedIn(lobby, 'bob');
    await ann.say('NEW 2 10 10 30 0');
    await bob.say('JOI 1');
    await ann.say('TRN 4 4');
    await lobby.shutdown();
    expect(store.games.get(1)?.state).toBe('running');
    expect(store.games.get(1)?.transcript).toMatch(/\nmove 1 4 4 0\n$/);
  });
});
