import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as connectTcp, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls, TLSSocket } from 'node:tls';
import WebSocket from 'ws';
import { DotsRepository } from '../../src/dots-server/dots.repository.js';
import { DotsServer } from '../../src/dots-server/dots-server.js';
import { hashPassword, verifyPassword } from '../../src/dots-server/passwords.js';
import { DotsClient } from '../support/dots-client.js';
import { startArchive, TestArchive } from '../support/archive-harness.js';

// Who may reach the live Dots server, and how often (docs/dots-server.md, "Limits"), against a
// running archive: the password rule, logins unique as a reader sees them, the back-off after a
// failed LOG, the per-address connection cap, the login timeout, the WebSocket bridge's origins,
// old password hashes made again at login, and the protocol over TLS. The back-off's arithmetic
// (30 wrong guesses take at least 15 s) is tested on the manual clock in test/dots-server/guard.spec.ts.

const FAST_HASHES = { DOTS_SCRYPT_COST: '1024' };

/** A client of the protocol on any socket: answers end with two empty lines (`\n\n\n`). */
class Reader {
  private buffer = '';
  private readonly answers: string[] = [];
  private wake: (() => void) | null = null;
  closed = false;

  constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n\n\n'); end >= 0; end = this.buffer.indexOf('\n\n\n')) {
        this.answers.push(this.buffer.slice(0, end + 3));
        this.buffer = this.buffer.slice(end + 3);
      }
      this.wake?.();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  /** The first line of the next answer; null once the connection closed without one. */
  async next(timeoutMs = 5000): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.answers.length === 0 && !this.closed) {
      if (Date.now() > deadline) throw new Error(`no answer within ${timeoutMs} ms (unread: ${JSON.stringify(this.buffer)})`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
      this.wake = null;
    }
    return this.answers.shift()?.split('\n')[0] ?? null;
  }

  async code(line: string): Promise<string | null> {
    this.socket.write(`${line}\n\n\n`);
    return this.next();
  }

  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.socket.once('close', () => resolve()));
  }
}

/** A TCP connection to the Dots port from a loopback address of its own (127.0.0.1 by default). */
function openFrom(port: number, localAddress = '127.0.0.1'): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ port, host: '127.0.0.1', localAddress }, () => resolve(new Reader(socket)));
    socket.once('error', reject);
  });
}

/** Whether a WebSocket to the bridge opens (101), or the HTTP status it is refused with. */
function openBridge(archive: TestArchive, origin?: string, localAddress = '127.0.0.1', headers: Record<string, string> = {}): Promise<{ status: number; ws: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${archive.baseUrl.replace(/^http/, 'ws')}/dots/ws`, { localAddress, headers, ...(origin === undefined ? {} : { origin }) });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0, ws }));
    ws.once('error', () => resolve({ status: 0, ws }));
  });
}

async function waitFor(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the Dots server limits', () => {
  let archive: TestArchive;
  let server: DotsServer;
  let port: number;
  const open: { close(): void }[] = [];

  beforeAll(async () => {
    archive = await startArchive({
      ...FAST_HASHES,
      DOTS_MAX_CONNECTIONS: '60',
      DOTS_LOGIN_TIMEOUT_MS: '5000',
      DOTS_WS_ORIGINS: 'https://play.example',
      // One proxy in front: the bridge reads the client's address from X-Forwarded-For.
      TRUST_PROXY_HOPS: '1',
    });
    server = archive.app.get(DotsServer);
    port = await server.listen(0);
  });

  afterAll(async () => {
    for (const socket of open) socket.close();
    await archive.close();
  });

  async function client(): Promise<DotsClient> {
    const made = await DotsClient.open(port);
    open.push(made);
    return made;
  }

  /** A connection from a loopback address of its own (each test its own, so that no test's failures hold another back). */
  async function from(localAddress: string): Promise<Reader> {
    const reader = await openFrom(port, localAddress);
    open.push({ close: () => reader.socket.destroy() });
    return reader;
  }

  it('refuses a password of 7 characters and takes one of 8', async () => {
    const ann = await client();
    expect(await ann.code('REG acc-ann 1234567')).toBe('401 bad_parameter password: at least 8 characters');
    expect(await ann.code('REG acc-ann 12345678')).toBe('200');
    expect(await ann.code('LOG acc-ann 12345678')).toBe('200');
  });

  it('refuses Victim and vіctim (a Cyrillic і) as taken once victim is registered', async () => {
    const someone = await from('127.0.0.2');
    expect(await someone.code('REG victim correct-horse')).toBe('200');
    expect(await someone.code('REG Victim battery-staple')).toBe('400 login_taken');
    expect(await someone.code('REG vіctim battery-staple')).toBe('400 login_taken');
    expect(await someone.code('REG VICTIM battery-staple')).toBe('400 login_taken');
    // Only the login as registered logs in.
    expect(await someone.code('LOG vіctim correct-horse')).toBe('403 wrong_login_or_password');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await someone.code('LOG victim correct-horse')).toBe('200');
  });

  it('answers a LOG that comes before the back-off after a failure is over with 403 slow_down, without checking it', async () => {
    const owner = await from('127.0.0.3');
    expect(await owner.code('REG guarded-login correct-horse')).toBe('200');
    const thief = await from('127.0.0.4');
    expect(await thief.code('LOG guarded-login guess-1')).toBe('403 wrong_login_or_password');
    expect(await thief.code('LOG guarded-login guess-2')).toMatch(/^403 slow_down retry in (\d+) ms$/);
    expect(await thief.code('LOG guarded-login correct-horse')).toMatch(/^403 slow_down retry in (\d+) ms$/);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await thief.code('LOG guarded-login guess-3')).toBe('403 wrong_login_or_password');
    expect(await thief.code('LOG guarded-login guess-4')).toMatch(/^403 slow_down retry in (\d+) ms$/);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await owner.code('LOG guarded-login correct-horse')).toBe('200');
  });

  it('caps the connections of one address below the global cap, and closes those not logged in within DOTS_LOGIN_TIMEOUT_MS', async () => {
    expect(server.connections.maxPerAddress).toBe(32);
    // Seventy connections from one address, none of which logs in (the 70 against a cap of 60).
    const flood = await Promise.all(Array.from({ length: 70 }, () => from('127.0.0.9')));
    const firstLines = await Promise.all(flood.map((reader) => reader.next(1000).catch(() => 'silent')));
    expect(firstLines.filter((line) => line === '401 too_many_connections at most 32 open from one address')).toHaveLength(38);
    expect(firstLines.filter((line) => line === 'silent')).toHaveLength(32);
    expect(server.connections.openFrom('127.0.0.9')).toBe(32);
    // The bridge counts for the same address: refused with 429.
    expect((await openBridge(archive, undefined, '127.0.0.9')).status).toBe(429);
    // Another client still gets in, and plays.
    const other = await from('127.0.0.10');
    expect(await other.code('REG other-client correct-horse')).toBe('200');
    expect(await other.code('LOG other-client correct-horse')).toBe('200');
    // The flood did not log in: each is told so and closed 5 s after it opened.
    const kept = flood.filter((_, i) => firstLines[i] === 'silent');
    expect(await Promise.all(kept.map((reader) => reader.next(10_000)))).toEqual(kept.map(() => '401 login_timeout not logged in within 5000 ms'));
    await Promise.all(flood.map((reader) => reader.whenClosed()));
    await waitFor('the places given back', () => server.connections.openFrom('127.0.0.9') === 0);
    // The logged-in client is still there; the address gets its places back.
    expect(await other.code('UST')).toBe('201');
    const back = await from('127.0.0.9');
    expect(await back.code('GLS')).toBe('404 not_logged_in');
  });

  it('lets pages of the archive and of DOTS_WS_ORIGINS open the bridge, and refuses other origins with 403', async () => {
    const evil = await openBridge(archive, 'https://evil.example');
    expect(evil.status).toBe(403);
    const allowed = await Promise.all([openBridge(archive, 'https://play.example'), openBridge(archive, archive.baseUrl), openBridge(archive)]);
    expect(allowed.map((opened) => opened.status)).toEqual([101, 101, 101]);
    for (const opened of allowed) opened.ws.close();
  });

  it('counts bridge connections behind a trusted proxy by the address X-Forwarded-For names', async () => {
    const behind = (client: string) => openBridge(archive, undefined, '127.0.0.20', { 'X-Forwarded-For': client });
    const many = await Promise.all(Array.from({ length: 32 }, () => behind('198.51.100.1')));
    expect(many.every((opened) => opened.status === 101)).toBe(true);
    expect((await behind('198.51.100.1')).status).toBe(429);
    const someoneElse = await behind('198.51.100.2');
    expect(someoneElse.status).toBe(101);
    for (const opened of [...many, someoneElse]) opened.ws.close();
  });
});

describe('the Dots server over TLS', () => {
  let folder: string;
  let archive: TestArchive;
  let port: number;
  let cert: Buffer;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tabula-dots-tls-'));
    const [certPath, keyPath] = [join(folder, 'cert.pem'), join(folder, 'key.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      { stdio: 'ignore' },
    );
    cert = readFileSync(certPath);
    // The default scrypt cost (2^17): the hash upgrade below is to it.
    archive = await startArchive({ DOTS_TLS_CERT: certPath, DOTS_TLS_KEY: keyPath });
    port = await archive.app.get(DotsServer).listen(0);
  });

  afterAll(async () => {
    await archive?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  function tlsClient(): Promise<Reader> {
    return new Promise((resolve, reject) => {
      const socket: TLSSocket = connectTls({ port, host: '127.0.0.1', servername: 'localhost', ca: cert }, () => resolve(new Reader(socket)));
      socket.once('error', reject);
    });
  }

  it('serves the protocol to a TLS client that checks the certificate', async () => {
    const ann = await tlsClient();
    expect(ann.socket instanceof TLSSocket && ann.socket.authorized).toBe(true);
    expect(await ann.code('REG tls-ann correct-horse')).toBe('200');
    expect(await ann.code('LOG tls-ann correct-horse')).toBe('200');
    expect(await ann.code('UST')).toBe('201');
    ann.socket.destroy();
  });

  it('speaks no clear text on the TLS port', async () => {
    const plain = await openFrom(port);
    expect(await plain.code('GLS')).toBeNull();
    await plain.whenClosed();
  });

  it('makes a hash of N = 2^14 again at N = 2^17 at the next successful LOG', async () => {
    const repository = archive.app.get(DotsRepository);
    expect(await repository.insertAccount('old-timer', await hashPassword('old-password', 2 ** 14))).toBe(true);
    expect((await repository.account('old-timer'))?.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    const client = await tlsClient();
    expect(await client.code('LOG old-timer old-password')).toBe('200');
    const upgraded = (await repository.account('old-timer'))!.passwordHash;
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('old-password', upgraded)).toBe(true);
    expect(await client.code('LGT')).toBe('200');
    expect(await client.code('LOG old-timer old-password')).toBe('200');
    expect((await repository.account('old-timer'))!.passwordHash).toBe(upgraded);
    client.socket.destroy();
  }, 60_000);
});
