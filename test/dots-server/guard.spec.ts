import { ManualClock } from '../support/manual-clock.js';
import { MemoryStore } from '../support/dots-server/memory-store.js';
import { DotsLobby, Session } from '../../src/dots-server/lobby.js';
import { addressKey, DotsGuard, GuardSettings } from '../../src/dots-server/guard.js';
import { loginKey, skeleton } from '../../src/dots-server/login-key.js';
import { ConnectionBudget } from '../../src/dots-server/connection-budget.js';
import { DotsConnection } from '../../src/dots-server/tcp-server.js';
import { fakeStream } from '../support/dots-server/fake-stream.js';
import { BadRequest, parseRequest } from '../../src/dots-server/protocol.js';

// The Dots server's access limits (guard.ts) through the lobby, on the manual clock: the back-off of
// failed LOGs by login and by address, the password rule and the REGs per address; the login key;
// the per-address connection cap; the login timeout of a connection.

/** The defaults of AppConfig (test/common/config.spec.ts checks them there). */
const DEFAULTS: GuardSettings = {
  minPassword: 8,
  backoffMs: 500,
  backoffMaxMs: 30_000,
  failureMemoryMs: 900_000,
  registrationsPerAddress: 10,
  registrationWindowMs: 3_600_000,
};

/** A store whose logins are unique by key, as the database's unique index makes them. */
class KeyedStore extends MemoryStore {
  readonly keys = new Set<string>();
  /** Passwords checked, in order (the guesses that reached the store). */
  readonly checked: string[] = [];

  override async register(login: string, password: string): Promise<boolean> {
    if (this.keys.has(loginKey(login))) return false;
    const created = await super.register(login, password);
    if (created) this.keys.add(loginKey(login));
    return created;
  }

  override async verify(login: string, password: string): Promise<boolean> {
    this.checked.push(`${login}:${password}`);
    return super.verify(login, password);
  }
}

class Client {
  readonly received: string[] = [];
  closed = false;
  readonly session: Session;

  constructor(
    private readonly lobby: DotsLobby,
    address: string,
  ) {
    this.session = lobby.open({ send: (text) => this.received.push(text), close: () => void (this.closed = true) }, undefined, address);
  }

  async code(line: string): Promise<string> {
    const from = this.received.length;
    const request = parseRequest(line);
    if (request instanceof BadRequest) this.lobby.refuse(this.session, request);
    else await this.lobby.handle(this.session, request);
    return this.received[from].split('\n')[0];
  }
}

function guarded(settings: Partial<GuardSettings> = {}): { store: KeyedStore; clock: ManualClock; lobby: DotsLobby; guard: DotsGuard } {
  const store = new KeyedStore();
  const clock = new ManualClock();
  const guard = new DotsGuard({ ...DEFAULTS, ...settings }, clock);
  return { store, clock, guard, lobby: new DotsLobby(store, clock, () => undefined, null, guard) };
}

/**
 * Guesses until `count` wrong passwords have been checked, as fast as the server lets it: after each
 * `slow_down` the clock moves on 100 ms. Answers the time taken, and every answer seen.
 */
async function guess(clock: ManualClock, count: number, attempt: (n: number) => Promise<string>): Promise<{ ms: number; answers: Set<string> }> {
  const start = clock.now();
  const answers = new Set<string>();
  for (let wrong = 0, n = 0; wrong < count; n++) {
    const answer = await attempt(n);
    answers.add(answer.replace(/\d+ ms$/, 'N ms'));
    if (answer === '403 wrong_login_or_password') wrong++;
    else clock.advance(100);
  }
  return { ms: clock.now() - start, answers };
}

describe('failed LOGs', () => {
  it('slow down guesses at one login from one connection: 30 wrong passwords take at least 15 s', async () => {
    const { store, clock, lobby } = guarded();
    expect(await new Client(lobby, '198.51.100.7').code('REG victim correct-horse')).toBe('200');
    const thief = new Client(lobby, '203.0.113.9');
    const { ms, answers } = await guess(clock, 30, (n) => thief.code(`LOG victim guess-${n}`));
    expect(ms).toBeGreaterThanOrEqual(15_000);
    // 0.5 + 1 + 2 + 4 + 8 + 16 s, then 30 s (the cap) before each of the 23 others.
    expect(ms).toBeGreaterThanOrEqual(31_500 + 23 * 30_000);
    expect(answers).toEqual(new Set(['403 wrong_login_or_password', '403 slow_down retry in N ms']));
    // A refused LOG is answered before its password is checked.
    expect(store.checked.filter((entry) => entry.startsWith('victim:guess-'))).toHaveLength(30);
  });

  it('slow down guesses at one login from many addresses (by login), and at many logins from one address (by address)', async () => {
    const spread = guarded();
    await new Client(spread.lobby, '198.51.100.7').code('REG victim correct-horse');
    const fromEverywhere = await guess(spread.clock, 30, (n) => new Client(spread.lobby, `203.0.113.${n % 250}`).code(`LOG victim guess-${n}`));
    expect(fromEverywhere.ms).toBeGreaterThanOrEqual(15_000);

    const sprayed = guarded();
    const sprayer = new Client(sprayed.lobby, '203.0.113.9');
    const atEveryone = await guess(sprayed.clock, 30, (n) => sprayer.code(`LOG user${n} guess`));
    expect(atEveryone.ms).toBeGreaterThanOrEqual(15_000);
  });

  it('count Victim and vіctim (a Cyrillic і) as guesses at victim', async () => {
    const { clock, lobby } = guarded();
    const thief = new Client(lobby, '203.0.113.9');
    const spellings = ['victim', 'Victim', 'vіctim', 'VICTIM'];
    const { ms } = await guess(clock, 30, (n) => new Client(lobby, `192.0.2.${n % 250}`).code(`LOG ${spellings[n % 4]} guess-${n}`));
    expect(ms).toBeGreaterThanOrEqual(15_000);
    expect(await thief.code('LOG victim guess')).toMatch(/^403 slow_down retry in \d+ ms$/);
  });

  it('hold back guesses sent in parallel as much as guesses sent in turn', async () => {
    const { store, lobby } = guarded();
    await new Client(lobby, '198.51.100.7').code('REG victim correct-horse');
    const thieves = Array.from({ length: 20 }, (_, n) => new Client(lobby, `203.0.113.${n}`));
    const answers = await Promise.all(thieves.map((thief, n) => thief.code(`LOG victim guess-${n}`)));
    expect(answers.filter((answer) => answer === '403 wrong_login_or_password')).toHaveLength(1);
    expect(answers.filter((answer) => answer.startsWith('403 slow_down'))).toHaveLength(19);
    expect(store.checked).toHaveLength(1);
  });

  it('let players behind one address log in side by side while the address has no failures', async () => {
    const { clock, lobby } = guarded();
    const school = Array.from({ length: 10 }, () => new Client(lobby, '198.51.100.7'));
    for (const [n, pupil] of school.entries()) expect(await pupil.code(`REG pupil${n} password-${n}`)).toBe('200');
    expect(await Promise.all(school.map((pupil, n) => pupil.code(`LOG pupil${n} password-${n}`)))).toEqual(school.map(() => '200'));
    // One typo, and the address's LOGs go one at a time for a while.
    for (const pupil of school) expect(await pupil.code('LGT')).toBe('200');
    expect(await school[0].code('LOG pupil0 typo')).toBe('403 wrong_login_or_password');
    clock.advance(500);
    const answers = await Promise.all([school[1].code('LOG pupil1 password-1'), school[2].code('LOG pupil2 password-2')]);
    expect(answers).toEqual(['200', '403 slow_down retry in 1000 ms']);
    expect(await school[2].code('LOG pupil2 password-2')).toBe('200');
  });

  it('lock nobody out for longer than the cap after the last guess, and not the owner at an address it logged in from', async () => {
    const { clock, lobby } = guarded();
    const owner = new Client(lobby, '198.51.100.7');
    expect(await owner.code('REG victim correct-horse')).toBe('200');
    expect(await owner.code('LOG victim correct-horse')).toBe('200');
    expect(await owner.code('LGT')).toBe('200');
    // Forty guesses from a botnet: the login waits 30 s after each.
    await guess(clock, 40, (n) => new Client(lobby, `203.0.${Math.floor(n / 250)}.${n % 250}`).code(`LOG victim guess-${n}`));
    // The owner, at home, is not held back by guesses from elsewhere.
    expect(await owner.code('LOG victim correct-horse')).toBe('200');
    expect(await owner.code('LGT')).toBe('200');
    // From a new address the owner waits as a guesser would, but no longer than the cap: asking
    // meanwhile does not put the end further away.
    const travelling = new Client(lobby, '192.0.2.1');
    const answer = await travelling.code('LOG victim correct-horse');
    const wait = Number(/^403 slow_down retry in (\d+) ms$/.exec(answer)?.[1]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30_000);
    clock.advance(wait - 1);
    expect(await travelling.code('LOG victim correct-horse')).toBe('403 slow_down retry in 1 ms');
    clock.advance(1);
    expect(await travelling.code('LOG victim correct-horse')).toBe('200');
  });

  it('are forgotten once none came for DOTS_LOGIN_FAILURE_MEMORY_MS, and a success takes back only its own count', async () => {
    const { clock, lobby } = guarded();
    const ann = new Client(lobby, '198.51.100.7');
    expect(await ann.code('REG ann-login correct-horse')).toBe('200');
    expect(await ann.code('LOG ann-login typo')).toBe('403 wrong_login_or_password');
    expect(await ann.code('LOG ann-login correct-horse')).toBe('403 slow_down retry in 500 ms');
    clock.advance(500);
    expect(await ann.code('LOG ann-login correct-horse')).toBe('200');
    expect(await ann.code('LGT')).toBe('200');
    // The typo still counts for the address (a success does not wipe it), and waits as before.
    expect(await ann.code('LOG ann-login wrong-again')).toBe('403 wrong_login_or_password');
    expect(await ann.code('LOG ann-login correct-horse')).toBe('403 slow_down retry in 1000 ms');
    clock.advance(900_000);
    expect(await ann.code('LOG ann-login wrong')).toBe('403 wrong_login_or_password');
    expect(await ann.code('LOG ann-login correct-horse')).toBe('403 slow_down retry in 500 ms');
  });

  it('are no failures when the store fails (402): the LOG is taken back', async () => {
    const { store, lobby } = guarded();
    const ann = new Client(lobby, '198.51.100.7');
    expect(await ann.code('REG ann-login correct-horse')).toBe('200');
    store.failing = true;
    expect(await ann.code('LOG ann-login correct-horse')).toBe('402 internal_error');
    store.failing = false;
    expect(await ann.code('LOG ann-login correct-horse')).toBe('200');
  });
});

describe('REG', () => {
  it('refuses a password under 8 characters, counted in code points', async () => {
    const { lobby } = guarded();
    const ann = new Client(lobby, '198.51.100.7');
    expect(await ann.code('REG ann-login 1234567')).toBe('401 bad_parameter password: at least 8 characters');
    expect(await ann.code('REG ann-login 😀😀😀😀')).toBe('401 bad_parameter password: at least 8 characters');
    expect(await ann.code('REG ann-login 12345678')).toBe('200');
    expect(await ann.code('LOG ann-login 12345678')).toBe('200');
  });

  it('refuses Victim and vіctim (a Cyrillic і) as taken once victim exists', async () => {
    const { lobby } = guarded();
    const client = new Client(lobby, '198.51.100.7');
    expect(await client.code('REG victim correct-horse')).toBe('200');
    for (const login of ['Victim', 'vіctim', 'VICTIM', 'vіctіm']) expect([login, await client.code(`REG ${login} other-password`)]).toEqual([login, '400 login_taken']);
    expect(await client.code('REG victor correct-horse')).toBe('200');
  });

  it('lets one address register DOTS_REGISTRATIONS_PER_ADDRESS accounts per window, then answers 401 slow_down', async () => {
    const { clock, lobby } = guarded({ registrationsPerAddress: 3, registrationWindowMs: 60_000 });
    const farm = new Client(lobby, '203.0.113.9');
    for (const n of [1, 2, 3]) expect(await farm.code(`REG bot${n} password-${n}`)).toBe('200');
    expect(await farm.code('REG bot4 password-4')).toBe('401 slow_down retry in 60000 ms');
    // A REG of a taken login counts too (REG is no free oracle of who exists).
    expect(await new Client(lobby, '198.51.100.7').code('REG bot1 password-1')).toBe('400 login_taken');
    expect(await new Client(lobby, '198.51.100.8').code('REG bot4 password-4')).toBe('200');
    clock.advance(60_000);
    expect(await farm.code('REG bot5 password-5')).toBe('200');
  });
});

describe('the login key', () => {
  it('is one for a login, its case variants and its confusables', () => {
    expect(new Set(['victim', 'Victim', 'VICTIM', 'vіctim', 'vіctіm', 'ѵictim'].map(loginKey)).size).toBe(1);
    expect(loginKey('STRASSE')).toBe(loginKey('straße'));
    expect(loginKey('ΣΟΦΟΣ')).toBe(loginKey('σοφος'));
    expect(loginKey('ΣΟΦΟΣ')).toBe(loginKey('σοφοσ'));
    expect(loginKey('BOB0')).toBe(loginKey('bobo'));
    expect(loginKey('modern')).toBe(loginKey('rnodern'));
  });

  it('keeps apart what a reader tells apart', () => {
    expect(loginKey('victim')).not.toBe(loginKey('victor'));
    expect(loginKey('josé')).not.toBe(loginKey('jose'));
    expect(loginKey('ann')).not.toBe(loginKey('anna'));
  });

  it('is UTS #39 skeleton of the folded login: NFD, prototypes, NFD', () => {
    expect(skeleton('vіctim')).toBe('victirn');
    expect(skeleton('é')).toBe('e\u0301');
  });
});

describe('addresses', () => {
  it('count IPv4 as they are and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('have their own cap, below the global one', () => {
    const budget = new ConnectionBudget(60, 32);
    for (let i = 0; i < 32; i++) expect(budget.take('203.0.113.9')).toBeNull();
    expect(budget.take('203.0.113.9')).toBe('address');
    expect(budget.take('2001:db8:1:2::1')).toBeNull();
    expect(budget.take('2001:db8:1:2::2')).toBeNull();
    expect(budget.openFrom('2001:db8:1:2::3')).toBe(2);
    for (let i = 0; i < 26; i++) expect(budget.take(`198.51.100.${i}`)).toBeNull();
    expect(budget.take('192.0.2.1')).toBe('full');
    budget.release('203.0.113.9');
    expect(budget.take('203.0.113.9')).toBeNull();
    expect(budget.open).toBe(60);
  });
});

describe('the login timeout', () => {
  const stream = fakeStream;
  const flush = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const limits = { maxLine: 64, idleTimeoutMs: 600_000, maxPendingBytes: 4096, loginTimeoutMs: 30_000 };

  it('closes a connection not logged in within 30 s; one that logs in stays, until 30 s after its LGT', async () => {
    const clock = new ManualClock();
    const lobby = new DotsLobby(new MemoryStore(), clock);
    const idle = stream();
    const idler = new DotsConnection(lobby, limits, idle, '203.0.113.9', clock);
    const player = stream();
    const playing = new DotsConnection(lobby, limits, player, '198.51.100.7', clock);
    // Requests other than a successful LOG do not put the timeout off.
    idler.receive(Buffer.from('GLS\n\n\nREG ann pw\n\n\n'));
    playing.receive(Buffer.from('REG bob pw\n\n\nLOG bob pw\n\n\n'));
    await flush();
    clock.advance(29_999);
    expect(idle.ended).toBe(false);
    clock.advance(1);
    expect(idle.written.at(-1)).toBe('401 login_timeout not logged in within 30000 ms\n\n\n');
    expect(idle.ended).toBe(true);
    clock.advance(60_000);
    expect(player.ended).toBe(false);
    playing.receive(Buffer.from('LGT\n\n\n'));
    await flush();
    clock.advance(29_999);
    expect(player.ended).toBe(false);
    clock.advance(1);
    expect([player.written.at(-1), player.ended]).toEqual(['401 login_timeout not logged in within 30000 ms\n\n\n', true]);
    idler.gone();
    playing.gone();
  });
});
