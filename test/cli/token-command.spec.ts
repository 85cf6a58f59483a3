import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/program.js';
import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';

/**
 * `tabula token …`, `login` and `logout` run in-process against an archive whose admin key is `k`
 * (API_KEYS): tokens made by the command are used for real uploads (`tabula import` of one game
 * each), and refused once revoked. Every run names its own TABULA_CONFIG, so none reads or writes
 * the config of the machine's user.
 */
const GNUGO = new URL('../fixtures/realdata/go/gnugo_regression_games/olympiad2006/9x9/', import.meta.url);
const ADMIN = 'k';
const SECRET = /^tabula_(\d+)_[A-Za-z0-9_-]{43}$/;

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

describe('tabula token, login and logout', () => {
  let archive: TestArchive;
  let work: string;
  /** The config file of runs that name none: never written by them. */
  let noConfig: string;

  async function tabula(env: Record<string, string>, args: string[], stdin?: string): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const status = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WritableStream,
      env: { TABULA_URL: archive.baseUrl, TABULA_CONFIG: noConfig, ...env },
      ...(stdin !== undefined ? { stdin: Readable.from([stdin]) } : {}),
    });
    return { status, stdout, stderr };
  }

  const asAdmin = (...args: string[]) => tabula({ TABULA_TOKEN: ADMIN }, args);

  /** A token made by `tabula token create`, its id read from its secret. */
  async function createToken(account: string, ...scopes: string[]): Promise<{ id: number; secret: string }> {
    const run = await asAdmin('token', 'create', '--account', account, '--name', `${account} uploader`, ...scopes.flatMap((scope) => ['--scope', scope]));
    expect(run.status).toBe(0);
    const secret = run.stdout.trimEnd();
    return { id: Number(SECRET.exec(secret)![1]), secret };
  }

  /** The file names of the games an account owns. */
  async function ownedBy(account: string): Promise<string[]> {
    const page = (await (await fetch(`${archive.baseUrl}/games?owner=${account}&limit=100`)).json()) as { items: { filename: string }[] };
    return page.items.map((game) => game.filename).sort();
  }

  const sgf = (name: string) => new URL(name, GNUGO).pathname;
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: ADMIN });
    work = mkdtempSync(join(tmpdir(), 'tabula-cli-tokens-'));
    noConfig = join(work, 'none', 'config.json');
  });
  afterAll(async () => {
    await archive?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('token create prints the secret alone on stdout; it uploads for its account; list shows it without the secret; revoked, it is refused', async () => {
    const created = await asAdmin('token', 'create', '--account', 'club-a', '--name', 'uploader laptop', '--scope', 'games:write', '--scope', 'games:delete', '--expires', '2099-06-01T00:00:00Z');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^tabula_\d+_[A-Za-z0-9_-]{43}\n$/);
    const secret = created.stdout.trimEnd();
    const id = Number(SECRET.exec(secret)![1]);
    expect(created.stderr).toContain(`token ${id} for the account club-a (uploader laptop): games:write, games:delete; expires 2099-06-01T00:00:00`);
    expect(created.stderr).not.toContain(secret);

    // Without a token the archive refuses the upload; with the new one it is stored as club-a's.
    const anonymous = await tabula({}, ['import', sgf('gnu-crazy.sgf')]);
    expect(anonymous.status).toBe(3);
    expect(anonymous.stderr).toContain('auth.required');
    const upload = await tabula({ TABULA_TOKEN: secret }, ['import', sgf('gnu-crazy.sgf')]);
    expect(upload.stdout).toContain('games stored: 1\n');
    expect(upload.status).toBe(0);
    expect(await ownedBy('club-a')).toEqual(['gnu-crazy.sgf']);

    const table = await asAdmin('token', 'list');
    expect(table.status).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +ACCOUNT +NAME +SCOPES +CREATED +EXPIRES +LAST USED$/);
    const row = lines.find((line) => line.startsWith(`${id} `))!;
    expect(row.split(/ {2,}/).slice(0, 4)).toEqual([String(id), 'club-a', 'uploader laptop', 'games:write,games:delete']);
    expect(row).toContain('2099-06-01T00:00:00Z');
    expect(table.stdout).not.toContain(secret.slice(-43));

    const json = await asAdmin('token', 'list', '--json');
    expect(json.status).toBe(0);
    const listed = (JSON.parse(json.stdout) as { items: Record<string, unknown>[] }).items.find((token) => token.id === id)!;
    expect(Object.keys(listed).sort()).toEqual(['account', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'scopes']);
    expect(listed).toMatchObject({ account: 'club-a', name: 'uploader laptop', scopes: ['games:write', 'games:delete'] });

    // Listing tokens is an admin's: the club's token is valid but lacks the scope.
    const notAdmin = await tabula({ TABULA_TOKEN: secret }, ['token', 'list']);
    expect(notAdmin.status).toBe(3);
    expect(notAdmin.stderr).toMatch(/^tabula: GET \/tokens: auth\.scope: /m);

    const revoked = await asAdmin('token', 'revoke', String(id));
    expect(revoked.status).toBe(0);
    // 401, not the 403 of a valid token without the admin scope.
    const answer = await fetch(`${archive.baseUrl}/tokens`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { code: string }).code).toBe('auth.invalid');
    const refused = await tabula({ TABULA_TOKEN: secret }, ['import', sgf('gnu-aya.sgf')]);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('auth.invalid');
    expect(await ownedBy('club-a')).toEqual(['gnu-crazy.sgf']);

    const again = await asAdmin('token', 'revoke', String(id));
    expect(again.status).toBe(3);
    expect(again.stderr).toContain('token.not_found');
    expect((await asAdmin('token', 'list')).stdout).not.toMatch(new RegExp(`^${id} `, 'm'));
  });

  it('TABULA_API_KEY, the old name, is sent when TABULA_TOKEN is not set', async () => {
    const run = await tabula({ TABULA_API_KEY: ADMIN }, ['token', 'list', '--json']);
    expect(run.status).toBe(0);
    expect(Array.isArray((JSON.parse(run.stdout) as { items: unknown }).items)).toBe(true);
  });

  it('an unknown scope, no scope, or an expiry that is no instant: exit 2 and no token made', async () => {
    const count = async () => ((JSON.parse((await asAdmin('token', 'list', '--json')).stdout) as { items: unknown[] }).items.length);
    const before = await count();
    const base = ['token', 'create', '--account', 'club-x', '--name', 'x'];
    const unknown = await asAdmin(...base, '--scope', 'games:read');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('games:write, games:delete, games:reindex, admin');
    expect((await asAdmin(...base)).status).toBe(2);
    expect((await asAdmin(...base, '--scope', 'admin', '--expires', 'next year')).status).toBe(2);
    expect((await asAdmin('token', 'revoke', 'seven')).status).toBe(2);
    expect(await count()).toBe(before);
  });

  it('login checks the token, saves it 0600 for the URL without printing it, and the next commands send it; logout forgets it', async () => {
    const { secret } = await createToken('club-b', 'games:write');
    const config = join(work, 'login', 'tabula', 'config.json');
    const env = { TABULA_CONFIG: config };

    // From standard input, as `tabula login < file` or typed.
    const login = await tabula(env, ['login'], `${secret}\n`);
    expect(login.status).toBe(0);
    expect(login.stdout).toBe('');
    expect(login.stderr).not.toContain(secret);
    expect(login.stderr).toContain(`saved for ${archive.baseUrl} in ${config}`);
    expect(modeOf(config)).toBe(0o600);
    expect(modeOf(join(work, 'login', 'tabula'))).toBe(0o700);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ [archive.baseUrl]: secret });

    // No token in the environment: the saved one is sent, and the game is club-b's.
    const upload = await tabula(env, ['import', sgf('gnu-aya.sgf')]);
    expect(upload.stdout).toContain('games stored: 1\n');
    expect(upload.status).toBe(0);
    expect(await ownedBy('club-b')).toEqual(['gnu-aya.sgf']);

    // The environment's token goes first: the admin key lists tokens, the saved club token may not.
    expect((await tabula({ ...env, TABULA_TOKEN: ADMIN }, ['token', 'list'])).status).toBe(0);
    const saved = await tabula(env, ['token', 'list']);
    expect(saved.status).toBe(3);
    expect(saved.stderr).toContain('auth.scope');

    const logout = await tabula(env, ['logout']);
    expect(logout.status).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({});
    expect(modeOf(config)).toBe(0o600);
    const after = await tabula(env, ['import', sgf('neurogo-gnu.sgf')]);
    expect(after.status).toBe(3);
    expect(after.stderr).toContain('auth.required');
    expect(await ownedBy('club-b')).toEqual(['gnu-aya.sgf']);
  });

  it('login --token over a file that others could read: the file ends 0600, the other archives kept, the URL without its slash', async () => {
    const { secret } = await createToken('club-c', 'games:write');
    const folder = join(work, 'existing');
    mkdirSync(folder);
    const config = join(folder, 'config.json');
    writeFileSync(config, JSON.stringify({ 'https://elsewhere.example': 'tabula_1_other' }), { mode: 0o644 });
    expect(modeOf(config)).toBe(0o644);

    const login = await tabula({ TABULA_CONFIG: config }, ['--url', `${archive.baseUrl}/`, 'login', '--token', secret]);
    expect(login.status).toBe(0);
    expect(login.stdout + login.stderr).not.toContain(secret);
    expect(modeOf(config)).toBe(0o600);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ 'https://elsewhere.example': 'tabula_1_other', [archive.baseUrl]: secret });
  });

  it('a token the archive refuses (unknown, revoked) fails login with exit 3 and saves nothing', async () => {
    const config = join(work, 'refused', 'config.json');
    const unknown = await tabula({ TABULA_CONFIG: config }, ['login', '--token', `tabula_999999_${'A'.repeat(43)}`]);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toContain(`the archive at ${archive.baseUrl} refused the token (auth.invalid: `);
    expect(unknown.stderr).toContain('nothing was saved');
    expect(existsSync(join(work, 'refused'))).toBe(false);

    const { id, secret } = await createToken('club-d', 'games:write');
    expect((await asAdmin('token', 'revoke', String(id))).status).toBe(0);
    const revoked = await tabula({ TABULA_CONFIG: config }, ['login'], `${secret}\n`);
    expect(revoked.status).toBe(3);
    expect(revoked.stderr).toContain('auth.invalid');
    expect(revoked.stderr).not.toContain(secret);
    expect(existsSync(config)).toBe(false);

    const empty = await tabula({ TABULA_CONFIG: config }, ['login'], '\n');
    expect(empty.status).toBe(2);
    expect(existsSync(config)).toBe(false);
  });

  it('--help names the token environment and the commands', async () => {
    const help = await tabula({}, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/TABULA_TOKEN .*\n(.*\n)*.*TABULA_API_KEY .*\n(.*\n)*.*TABULA_CONFIG /);
    for (const command of ['token', 'login', 'logout']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });
});
