import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/common/config.js';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', MAX_UPLOAD_BYTES: 10 * 1024 * 1024, ANALYSIS_BUDGET_MS: 2000 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.apiKeys).toEqual([]);
  });

  it('reads every setting it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/tabula',
      API_KEYS: ' a , b ,,',
      MAX_UPLOAD_BYTES: '1024',
      ANALYSIS_BUDGET_MS: '0',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({ PORT: 8080, DATABASE_URL: 'postgres://u:p@db:5432/tabula', MAX_UPLOAD_BYTES: 1024, ANALYSIS_BUDGET_MS: 0, LOG_LEVEL: 'warn' });
    expect(config.apiKeys).toEqual(['a', 'b']);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['MAX_UPLOAD_BYTES', '0'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'xml'],
    ['API_KEYS', ' , '],
    ['API_KEYS', ','],
    ['ANALYSIS_TIMEOUT_MS', '1500'],
    ['ANALYSIS_THREADS', '0'],
    ['ANALYSIS_QUEUE', '-1'],
    ['MAX_PLIES', '0'],
    ['MAX_PLIES', '1.5'],
    ['MAX_BOARD_SIDE', '12abc'],
    ['RATE_LIMIT_PER_MINUTE', '-5'],
    ['RATE_LIMIT_KEY_WRITES_PER_MINUTE', 'lots'],
    ['RATE_LIMIT_EXEMPT_LOOPBACK', 'maybe'],
    ['REQUEST_TIMEOUT_MS', '10'],
    ['IMPORT_TAKEOVER_MS', '2999'],
    ['IMPORT_TAKEOVER_MS', '3600001'],
    ['IMPORT_TAKEOVER_MS', 'soon'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('takes an import over within 30 s by default, IMPORT_TAKEOVER_MS being read from 3 s to an hour', () => {
    expect(loadConfig({}).IMPORT_TAKEOVER_MS).toBe(30_000);
    expect(loadConfig({ IMPORT_TAKEOVER_MS: '3000' }).IMPORT_TAKEOVER_MS).toBe(3000);
    expect(loadConfig({ IMPORT_TAKEOVER_MS: '3600000' }).IMPORT_TAKEOVER_MS).toBe(3_600_000);
  });

  it('gives the hardening settings their documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      ANALYSIS_TIMEOUT_MS: 15_000,
      ANALYSIS_QUEUE: 16,
      ANALYSIS_MEMORY_MB: 512,
      MAX_PLIES: 10_000,
      MAX_BOARD_SIDE: 64,
      MAX_VARIATION_DEPTH: 500,
      MAX_LINE_LENGTH: 65_536,
      RATE_LIMIT_PER_MINUTE: 600,
      RATE_LIMIT_WRITES_PER_MINUTE: 120,
      RATE_LIMIT_KEY_PER_MINUTE: 6000,
      RATE_LIMIT_KEY_WRITES_PER_MINUTE: 3000,
      RATE_LIMIT_EXEMPT_LOOPBACK: false,
      LOG_FORMAT: 'text',
    });
    expect(config.ANALYSIS_THREADS).toBeGreaterThanOrEqual(1);
    expect(config.limits).toEqual({ maxPlies: 10_000, maxBoardSide: 64, maxVariationDepth: 500, maxLineLength: 65_536 });
  });

  it('leaves the event loop a core with the embedded database only: with a server every core reads games', () => {
    const cores = availableParallelism();
    expect(loadConfig({}).ANALYSIS_THREADS).toBe(Math.max(1, cores - 1));
    expect(loadConfig({ DATABASE_URL: 'postgres://db/tabula' }).ANALYSIS_THREADS).toBe(cores);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/tabula', ANALYSIS_THREADS: '1' }).ANALYSIS_THREADS).toBe(1);
  });

  it('reads the hardening settings', () => {
    const config = loadConfig({ MAX_PLIES: '200', RATE_LIMIT_EXEMPT_LOOPBACK: 'yes', LOG_FORMAT: 'json', ANALYSIS_TIMEOUT_MS: '3000', API_KEYS: 'k1' });
    expect(config).toMatchObject({ MAX_PLIES: 200, RATE_LIMIT_EXEMPT_LOOPBACK: true, LOG_FORMAT: 'json', ANALYSIS_TIMEOUT_MS: 3000 });
    expect(config.limits.maxPlies).toBe(200);
    expect(config.apiKeys).toEqual(['k1']);
  });

  it('says why API_KEYS without a usable key stops the boot', () => {
    expect(() => loadConfig({ API_KEYS: ' , ' })).toThrow(/API_KEYS: is set but holds no key/);
  });
});

describe('the Dots server settings', () => {
  it('default to port 7777 on every interface, with the bridge at /dots/ws', () => {
    const config = loadConfig({});
    expect([config.DOTS_PORT, config.DOTS_HOST, config.DOTS_WS_PATH]).toEqual([7777, '0.0.0.0', '/dots/ws']);
    expect([config.DOTS_IDLE_TIMEOUT_MS, config.DOTS_MAX_LINE, config.DOTS_SCRYPT_COST]).toEqual([300_000, 256, 131_072]);
  });

  it('turn off with port 0 and the path "off"', () => {
    const config = loadConfig({ DOTS_PORT: '0', DOTS_WS_PATH: 'off' });
    expect([config.DOTS_PORT, config.DOTS_WS_PATH]).toEqual([0, 'off']);
    // An empty variable counts as unset, as for every setting.
    expect(loadConfig({ DOTS_WS_PATH: '' }).DOTS_WS_PATH).toBe('/dots/ws');
  });

  it.each([
    ['DOTS_PORT', '70000'],
    ['DOTS_PORT', 'seven'],
    ['DOTS_IDLE_TIMEOUT_MS', '10'],
    ['DOTS_MAX_LINE', '10'],
    ['DOTS_SCRYPT_COST', '1000'],
    ['DOTS_WS_PATH', 'dots'],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});

describe('CORS_ORIGINS', () => {
  it('lists no origin by default: CORS is off', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
  });

  it('reads origins separated by commas, blanks ignored', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://club.example ,http://localhost:5173,, https://[::1]:8443' }).corsOrigins).toEqual([
      'https://club.example',
      'http://localhost:5173',
      'https://[::1]:8443',
    ]);
  });

  it.each([
    ['https://club.example/', 'https://club.example'],
    ['https://club.example/games', 'https://club.example'],
    ['https://Club.Example', 'https://club.example'],
    ['https://club.example:443', 'https://club.example'],
    ['https://user@club.example', 'https://club.example'],
    ['club.example', undefined],
    ['*', undefined],
    ['null', undefined],
    ['ftp://club.example', undefined],
    ['file:///srv/page.html', undefined],
  ])('refuses %s, naming the setting (and the origin meant, when there is one)', (value, meant) => {
    const refusal = () => loadConfig({ CORS_ORIGINS: `https://ok.example,${value}` });
    expect(refusal).toThrow(ConfigError);
    expect(refusal).toThrow(/CORS_ORIGINS: each must be an origin/);
    if (meant !== undefined) expect(refusal).toThrow(`(${meant}?)`);
  });

  it('refuses a value that names no origin at all', () => {
    expect(() => loadConfig({ CORS_ORIGINS: ' , ' })).toThrow(/CORS_ORIGINS: is set but names no origin/);
  });
});

describe('the Dots server access limits', () => {
  const pem = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'tabula-config-'));
    const path = join(dir, name);
    writeFileSync(path, 'not checked here, only read\n');
    return path;
  };

  it('default to 8-character passwords, back-off from 0.5 s to 30 s, 10 REGs an hour, 32 connections an address, a 30 s login and scrypt N = 2^17', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      DOTS_MIN_PASSWORD: 8,
      DOTS_LOGIN_BACKOFF_MS: 500,
      DOTS_LOGIN_BACKOFF_MAX_MS: 30_000,
      DOTS_LOGIN_FAILURE_MEMORY_MS: 900_000,
      DOTS_REGISTRATIONS_PER_ADDRESS: 10,
      DOTS_REGISTRATION_WINDOW_MS: 3_600_000,
      DOTS_MAX_CONNECTIONS_PER_ADDRESS: 32,
      DOTS_LOGIN_TIMEOUT_MS: 30_000,
      DOTS_SCRYPT_COST: 2 ** 17,
      DOTS_TLS_CERT: '',
      DOTS_TLS_KEY: '',
    });
    expect(config.dotsWsOrigins).toEqual([]);
  });

  it('keep the per-address cap within DOTS_MAX_CONNECTIONS: unset it follows a smaller one, set above it stops the boot', () => {
    expect(loadConfig({ DOTS_MAX_CONNECTIONS: '60' }).DOTS_MAX_CONNECTIONS_PER_ADDRESS).toBe(32);
    expect(loadConfig({ DOTS_MAX_CONNECTIONS: '2' }).DOTS_MAX_CONNECTIONS_PER_ADDRESS).toBe(2);
    expect(loadConfig({ DOTS_MAX_CONNECTIONS: '60', DOTS_MAX_CONNECTIONS_PER_ADDRESS: '5' }).DOTS_MAX_CONNECTIONS_PER_ADDRESS).toBe(5);
    expect(() => loadConfig({ DOTS_MAX_CONNECTIONS: '60', DOTS_MAX_CONNECTIONS_PER_ADDRESS: '61' })).toThrow(/DOTS_MAX_CONNECTIONS_PER_ADDRESS: must be at most DOTS_MAX_CONNECTIONS \(60\)/);
  });

  it('read the WebSocket origins as a list of origins or *', () => {
    expect(loadConfig({ DOTS_WS_ORIGINS: 'https://play.example, http://localhost:5173' }).dotsWsOrigins).toEqual(['https://play.example', 'http://localhost:5173']);
    expect(loadConfig({ DOTS_WS_ORIGINS: '*' }).dotsWsOrigins).toEqual(['*']);
  });

  it('take TLS from a readable certificate and key, both given', () => {
    const cert = pem('cert.pem');
    const key = pem('key.pem');
    expect(loadConfig({ DOTS_TLS_CERT: cert, DOTS_TLS_KEY: key })).toMatchObject({ DOTS_TLS_CERT: cert, DOTS_TLS_KEY: key });
    expect(() => loadConfig({ DOTS_TLS_CERT: cert })).toThrow(/DOTS_TLS_KEY: TLS needs both/);
    expect(() => loadConfig({ DOTS_TLS_KEY: key })).toThrow(/DOTS_TLS_CERT: TLS needs both/);
    expect(() => loadConfig({ DOTS_TLS_CERT: cert, DOTS_TLS_KEY: `${key}.missing` })).toThrow(/DOTS_TLS_KEY: cannot read the file/);
  });

  it.each([
    ['DOTS_MIN_PASSWORD', '7'],
    ['DOTS_MIN_PASSWORD', '129'],
    ['DOTS_LOGIN_BACKOFF_MS', '0'],
    ['DOTS_LOGIN_BACKOFF_MAX_MS', '400'],
    ['DOTS_LOGIN_FAILURE_MEMORY_MS', '1000'],
    ['DOTS_REGISTRATIONS_PER_ADDRESS', '0'],
    ['DOTS_REGISTRATION_WINDOW_MS', 'hourly'],
    ['DOTS_MAX_CONNECTIONS_PER_ADDRESS', '0'],
    ['DOTS_LOGIN_TIMEOUT_MS', '999'],
    ['DOTS_WS_ORIGINS', 'play.example'],
    ['DOTS_WS_ORIGINS', 'https://play.example/'],
    ['DOTS_WS_ORIGINS', ' , '],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('refuse a back-off cap under its start, and failures forgotten before the cap', () => {
    expect(() => loadConfig({ DOTS_LOGIN_BACKOFF_MS: '5000', DOTS_LOGIN_BACKOFF_MAX_MS: '2000' })).toThrow(/DOTS_LOGIN_BACKOFF_MAX_MS: must be at least DOTS_LOGIN_BACKOFF_MS/);
    expect(() => loadConfig({ DOTS_LOGIN_BACKOFF_MAX_MS: '600000', DOTS_LOGIN_FAILURE_MEMORY_MS: '300000' })).toThrow(/DOTS_LOGIN_FAILURE_MEMORY_MS: must be at least/);
  });
});
