import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';
import { DEFAULT_LIMITS, ReadLimits } from '../core/limits.js';

/** An integer setting: its default when unset, and its allowed range. */
function IntSetting(fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => (value === undefined ? fallback : /^-?\d+$/.test(String(value).trim()) ? Number(value) : Number.NaN))(target, key);
    IsInt()(target, key);
    Min(min)(target, key);
    Max(max)(target, key);
  };
}

function BooleanSetting(fallback: boolean | undefined): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => {
      if (value === undefined) return fallback;
      const text = String(value).trim().toLowerCase();
      return ['1', 'true', 'yes', 'on'].includes(text) ? true : ['0', 'false', 'no', 'off'].includes(text) ? false : text;
    })(target, key);
    IsBoolean({ message: `${String(key)} must be true or false` })(target, key);
  };
}

/**
 * Analysis threads by default. With the embedded database one core is left to the database's own
 * thread and the event loop; with a PostgreSQL server (DATABASE_URL) the event loop only passes
 * requests and rows along, and every core reads games.
 */
const ANALYSIS_THREADS_DEFAULT = Math.max(1, availableParallelism() - 1);
const ANALYSIS_THREADS_WITH_SERVER = availableParallelism();

/**
 * The service's settings, read from the environment once at boot. A bad value stops the
 * process with a message naming the variable, rather than surfacing later as odd behaviour.
 */
export class AppConfig {
  /** HTTP port. */
  @IntSetting(3000, 0, 65535)
  PORT = 3000;

  /** Interface to listen on. */
  @IsString()
  HOST = '0.0.0.0';

  /** Where the embedded database keeps its files when no DATABASE_URL is given (`memory://` keeps nothing). */
  @IsString()
  DATA_DIR = './data';

  /** A PostgreSQL connection string; without it the embedded PostgreSQL (PGlite) is used. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// connection string' })
  DATABASE_URL?: string;

  /**
   * How often the embedded database looks for tables changed enough to need fresh planner
   * statistics or a vacuum (PGlite runs no autovacuum), in ms; 0 turns it off. With DATABASE_URL,
   * only when the server's autovacuum is off, and then it analyses only.
   */
  @IntSetting(60_000, 0)
  EMBEDDED_MAINTENANCE_MS = 60_000;

  /** Connections in the pool to an external PostgreSQL server. */
  @IntSetting(10, 1, 200)
  DATABASE_POOL_SIZE = 10;

  /**
   * Comma-separated PostgreSQL URLs of streaming replicas of DATABASE_URL's server (the same
   * database name on each): searches, exports, pictures, player statistics and the position
   * explorer read from them (src/database/read-replicas.ts). Needs DATABASE_URL.
   */
  @IsOptional()
  @IsString()
  DATABASE_REPLICA_URLS?: string;

  /** A replica serves reads only while it has replayed everything the primary had written this long ago, in ms. */
  @IntSetting(5_000, 100, 3_600_000)
  DATABASE_REPLICA_MAX_LAG_MS = 5_000;

  /** How often each replica's replay position is compared with the primary's WAL position, in ms. */
  @IntSetting(1_000, 50, 600_000)
  DATABASE_REPLICA_CHECK_MS = 1_000;

  /**
   * Comma-separated API keys, each an admin token of the account `admin` (docs/accounts.md). When
   * set, the archive is closed: every write needs a token with the scope it names.
   */
  @IsOptional()
  @IsString()
  API_KEYS?: string;

  /**
   * Whether an archive without API_KEYS may start: unset, it starts open and says so in its log (one
   * person's archive on their own machine); `false` refuses to start without API_KEYS (the Docker
   * image sets it); `true` runs open on purpose.
   */
  @IsOptional()
  @BooleanSetting(undefined)
  OPEN_ARCHIVE?: boolean;

  /** `false`: every read needs a token too (any scope). Needs API_KEYS. */
  @BooleanSetting(true)
  PUBLIC_READS = true;

  /**
   * How long a node trusts what it read of a token (valid, its scopes, not revoked), in ms: a
   * revocation reaches every node within this time. At most 5 s.
   */
  @IntSetting(2_000, 0, 5_000)
  TOKEN_CACHE_MS = 2_000;

  /**
   * Format plugins kept outside the archive's code: absolute paths of ES modules whose default
   * export is a plugin or a list of plugins, separated by commas. Loaded after the built-in ones.
   */
  @IsOptional()
  @IsString()
  FORMAT_PLUGIN_MODULES?: string;

  /** Largest accepted upload in bytes. */
  @IntSetting(10 * 1024 * 1024, 1)
  MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

  /** Largest accepted bulk import (POST /imports: a zip, a tar, a multipart batch) in bytes, as sent. */
  @IntSetting(1024 * 1024 * 1024, 1)
  MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

  /** Most bytes the files of one import may hold once unpacked (all entries of a zip or tar together). */
  @IntSetting(4 * 1024 * 1024 * 1024, 1)
  MAX_IMPORT_EXPANDED_BYTES = 4 * 1024 * 1024 * 1024;

  /** Most files (archive entries or multipart parts) one import may hold. */
  @IntSetting(1_000_000, 1, 100_000_000)
  MAX_IMPORT_ENTRIES = 1_000_000;

  /**
   * With DATABASE_URL, the most time in ms between the death of the node running an import and
   * another node taking it over: a node says it still works on its import every sixth of it, an
   * import whose last word is two thirds of it old may be claimed, and idle nodes look for one every
   * sixth of it. Ignored by the embedded database (one process, which resumes its imports at start).
   */
  @IntSetting(30_000, 3_000, 3_600_000)
  IMPORT_TAKEOVER_MS = 30_000;

  /**
   * Runs of an import that may begin in a row at the same entry — each ended by a failure outside
   * a file's own tries, or by the death of the node running it — before the import ends as failed
   * (500 `import.stuck`, the errors in the log): without a bound such an import was taken up forever.
   */
  @IntSetting(5, 1, 1000)
  IMPORT_ATTEMPTS = 5;

  /** Archives within archives: 1 refuses an archive found inside an import (per entry); 2 unpacks it once, and so on. */
  @IntSetting(1, 1, 4)
  MAX_IMPORT_DEPTH = 1;

  /**
   * The indexes kept of each game stored (docs/architecture.md: facts, players, positions,
   * identities, patterns), comma-separated; unset: every one. `facts` is always on. Games stored
   * without an index get it from `POST /reindex?indexes=…` once it is on again.
   */
  @IsOptional()
  @IsString()
  INDEXES?: string;

  /**
   * Index every position of each game stored (docs/positions.md): what GET/POST /positions/… search.
   * false stores games without it (imports a little faster, about 20 bytes a ply less); games stored
   * so are indexed by POST /reindex once it is true again. The same as leaving `positions` out of INDEXES.
   */
  @BooleanSetting(true)
  POSITION_INDEX = true;

  /**
   * Give each game stored an identity (docs/identity.md): what GET /games/{id}/relatives, `unique`
   * and `signature` search. false stores games without it; POST /reindex gives it once it is true again.
   * The same as leaving `identities` out of INDEXES.
   */
  @BooleanSetting(true)
  GAME_IDENTITY = true;

  /** Most games one uploaded file (an SGF collection, a PDN database) may hold. */
  @IntSetting(10_000, 1, 1_000_000)
  MAX_GAMES_PER_FILE = 10_000;

  /** Time a plugin may spend on open-ended analysis of one upload (e.g. solving a peg board), in ms. */
  @IntSetting(2000, 0)
  ANALYSIS_BUDGET_MS = 2000;

  /** Hard limit on one upload's analysis once it has a thread, in ms: the thread is ended, the upload refused. */
  @IntSetting(15_000, 100)
  ANALYSIS_TIMEOUT_MS = 15_000;

  /** Analysis threads; by default one per core, one fewer with the embedded database (see loadConfig). */
  @IntSetting(ANALYSIS_THREADS_DEFAULT, 1, 256)
  ANALYSIS_THREADS = ANALYSIS_THREADS_DEFAULT;

  /** Uploads that may wait for an analysis thread; past that, 503 with Retry-After. */
  @IntSetting(16, 0, 100_000)
  ANALYSIS_QUEUE = 16;

  /**
   * Analysis threads only writes (uploads, collections, imports, the Dots server's archive) use,
   * beside ANALYSIS_THREADS, which reads (pictures, replays, conversions) share with them: a stream
   * of pictures never holds up an upload.
   */
  @IntSetting(1, 0, 64)
  ANALYSIS_WRITE_THREADS = 1;

  /** Pictures, replays and conversions that may wait for an analysis thread; past that, 503 with Retry-After. */
  @IntSetting(16, 0, 100_000)
  ANALYSIS_READ_QUEUE = 16;

  /** Board pictures kept drawn, by ETag, in MB (0: none kept; a picture asked for by many at once is still drawn once). */
  @IntSetting(32, 0, 4096)
  PICTURE_CACHE_MB = 32;

  /**
   * How long a position or pattern search may take, in ms; past it the answer is 503 search.timeout
   * and, on a PostgreSQL server, its statements are cancelled (PGlite cannot stop one).
   */
  @IntSetting(10_000, 100, 600_000)
  SEARCH_TIMEOUT_MS = 10_000;

  /** Heap of one analysis thread in MB; an analysis needing more is stopped and refused. */
  @IntSetting(512, 32, 65_536)
  ANALYSIS_MEMORY_MB = 512;

  /** Most plies in one game (every variation counted). */
  @IntSetting(DEFAULT_LIMITS.maxPlies, 1)
  MAX_PLIES = DEFAULT_LIMITS.maxPlies;

  /** Largest board side (points, squares or holes). */
  @IntSetting(DEFAULT_LIMITS.maxBoardSide, 1, 1000)
  MAX_BOARD_SIDE = DEFAULT_LIMITS.maxBoardSide;

  /** Deepest nesting of variations. */
  @IntSetting(DEFAULT_LIMITS.maxVariationDepth, 0)
  MAX_VARIATION_DEPTH = DEFAULT_LIMITS.maxVariationDepth;

  /** Longest line of a line-based text format, in characters. */
  @IntSetting(DEFAULT_LIMITS.maxLineLength, 80)
  MAX_LINE_LENGTH = DEFAULT_LIMITS.maxLineLength;

  /**
   * Units of reads per minute from one client address (docs/limits.md: a plain read costs 1, a
   * 2048 px PNG 34, a pattern or position search 15, a bulk export 30; /health nothing); 0 turns
   * the limit off. Counted in the database with DATABASE_URL, so every node shares it.
   */
  @IntSetting(600, 0)
  RATE_LIMIT_PER_MINUTE = 600;

  /** Writes (uploads, imports, deletes) per minute from one client address, apart from its reads; 0 turns the limit off. */
  @IntSetting(120, 0)
  RATE_LIMIT_WRITES_PER_MINUTE = 120;

  /** Units of reads per minute with one valid token (counted by token, not address); 0 turns the limit off. */
  @IntSetting(6000, 0)
  RATE_LIMIT_KEY_PER_MINUTE = 6000;

  /** Writes per minute with one valid token, apart from its reads; 0 turns the limit off. */
  @IntSetting(3000, 0)
  RATE_LIMIT_KEY_WRITES_PER_MINUTE = 3000;

  /** Exempt loopback clients (127.0.0.1, ::1) from the rate limits, e.g. for local tests and tools. */
  @BooleanSetting(false)
  RATE_LIMIT_EXEMPT_LOOPBACK = false;

  /**
   * Expensive reads (10 units or more: large PNGs, pattern and position searches, bulk exports) one
   * client may have running at once on this node; the next is answered 429 at once. 0 turns it off.
   */
  @IntSetting(2, 0, 1000)
  EXPENSIVE_IN_FLIGHT_PER_CLIENT = 2;

  /** Proxies in front of the archive whose X-Forwarded-For is trusted to name the client (0: none). */
  @IntSetting(0, 0, 10)
  TRUST_PROXY_HOPS = 0;

  /** Time a client has to send its request headers, in ms. */
  @IntSetting(20_000, 1000)
  HEADERS_TIMEOUT_MS = 20_000;

  /** Time a client has to send its whole request, body included, in ms. */
  @IntSetting(120_000, 1000)
  REQUEST_TIMEOUT_MS = 120_000;

  /** Least severe log level printed. */
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** `text`: one readable line per event (coloured only on a terminal); `json`: one JSON object per line. */
  @IsIn(['text', 'json'])
  LOG_FORMAT: 'text' | 'json' = 'text';

  /** TCP port of the live Dots server (docs/dots-server.md); 0 turns the server off. */
  @IntSetting(7777, 0, 65535)
  DOTS_PORT = 7777;

  /** Interface the Dots server listens on. */
  @IsString()
  DOTS_HOST = '0.0.0.0';

  /**
   * A Dots connection that sends no valid request for this long, in ms, while its player sits at
   * no game, gets `401 idle_timeout` and is closed.
   */
  @IntSetting(300_000, 1000)
  DOTS_IDLE_TIMEOUT_MS = 300_000;

  /** Longest Dots request line in bytes; a longer one is answered 401 and skipped. */
  @IntSetting(256, 64, 65_536)
  DOTS_MAX_LINE = 256;

  /** Most Dots connections open at once; more are refused at accept. */
  @IntSetting(10_000, 1, 1_000_000)
  DOTS_MAX_CONNECTIONS = 10_000;

  /**
   * Bytes a Dots connection may leave unread (answers and pushes not yet taken by the client)
   * plus requests it may queue unanswered, in bytes; past it the connection is closed.
   */
  @IntSetting(1024 * 1024, 4096)
  DOTS_MAX_PENDING_BYTES = 1024 * 1024;

  /**
   * HTTP path of the Dots server's WebSocket bridge (the same protocol for browsers, one message per
   * answer); `off` turns it off. Served on the HTTP port whatever DOTS_PORT says.
   */
  @Matches(/^(off|\/[A-Za-z0-9._~/-]*)$/, { message: 'DOTS_WS_PATH must be a path starting with / or "off"' })
  DOTS_WS_PATH = '/dots/ws';

  /**
   * scrypt cost (N, a power of two) of new Dots account password hashes; stored with each hash, and
   * a hash of a lower cost is made again at its account's next successful LOG. Each hash takes
   * 1 KiB × N of memory while it is made (128 MiB at the default 2^17).
   */
  @IntSetting(131_072, 1024, 1_048_576)
  DOTS_SCRYPT_COST = 131_072;

  /**
   * With DATABASE_URL, this node's name among the Dots servers on the database (docs/dots-server.md,
   * "One lobby across nodes"): a restart under the same name ends the games of the run before at once.
   * Empty (the default): the host name and the Dots port (the HTTP port when DOTS_PORT is 0).
   */
  @Matches(/^[A-Za-z0-9._:-]{0,100}$/, { message: 'DOTS_NODE_ID must be up to 100 letters, digits, ".", "_", ":" or "-"' })
  DOTS_NODE_ID = '';

  /**
   * With DATABASE_URL, how long in ms a Dots node's heartbeat lasts: a node beats every third of it,
   * and another node ends the games of one silent for longer (a killed or stopped node), within
   * four thirds of it.
   */
  @IntSetting(30_000, 1000, 3_600_000)
  DOTS_NODE_LEASE_MS = 30_000;

  /** Fewest characters of a new Dots account's password (REG); LOG checks only the password's hash. */
  @IntSetting(8, 8, 128)
  DOTS_MIN_PASSWORD = 8;

  /**
   * Dots connections open at once from one address (an IPv6 address counts by its /64), TCP and
   * WebSocket together; at most DOTS_MAX_CONNECTIONS. Unset: 32, or DOTS_MAX_CONNECTIONS if smaller.
   */
  @IntSetting(32, 1, 1_000_000)
  DOTS_MAX_CONNECTIONS_PER_ADDRESS = 32;

  /** A Dots connection not logged in for this long, in ms (from its start, or from its LGT), gets `401 login_timeout` and is closed. */
  @IntSetting(30_000, 1000, 3_600_000)
  DOTS_LOGIN_TIMEOUT_MS = 30_000;

  /**
   * After a failed Dots LOG, the next LOG of that login, and the next from that address, waits this
   * long, in ms; each further failure doubles the wait, up to DOTS_LOGIN_BACKOFF_MAX_MS.
   */
  @IntSetting(500, 100, 60_000)
  DOTS_LOGIN_BACKOFF_MS = 500;

  /** The longest wait between two Dots LOGs of one login, or from one address, after failures, in ms. */
  @IntSetting(30_000, 1000, 3_600_000)
  DOTS_LOGIN_BACKOFF_MAX_MS = 30_000;

  /** Failed Dots LOGs of a login or an address are forgotten once none has come for this long, in ms. */
  @IntSetting(900_000, 60_000, 86_400_000)
  DOTS_LOGIN_FAILURE_MEMORY_MS = 900_000;

  /** Dots accounts one address may ask for (REG) per DOTS_REGISTRATION_WINDOW_MS. */
  @IntSetting(10, 1, 1_000_000)
  DOTS_REGISTRATIONS_PER_ADDRESS = 10;

  /** The window DOTS_REGISTRATIONS_PER_ADDRESS counts over, in ms. */
  @IntSetting(3_600_000, 1000, 604_800_000)
  DOTS_REGISTRATION_WINDOW_MS = 3_600_000;

  /**
   * Comma-separated origins (`https://play.example`) whose pages may open the Dots WebSocket bridge
   * besides the archive's own (an Origin whose host name is the request's Host's), or `*` for any. Empty
   * (the default): the archive's own pages only. A client that sends no Origin (not a browser) is
   * let in either way.
   */
  @IsString()
  DOTS_WS_ORIGINS = '';

  /** PEM certificate (chain) file: with DOTS_TLS_KEY, the Dots TCP protocol is served over TLS only. */
  @IsString()
  DOTS_TLS_CERT = '';

  /** PEM private key file of DOTS_TLS_CERT. */
  @IsString()
  DOTS_TLS_KEY = '';

  /**
   * Comma-separated origins (`https://club.example`: scheme, host and port, no path) of the sites
   * whose pages may call the API from the browser (CORS; with a token, never cookies). Unset: none.
   */
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  get apiKeys(): readonly string[] {
    return commaList(this.API_KEYS);
  }

  get replicaUrls(): readonly string[] {
    return commaList(this.DATABASE_REPLICA_URLS);
  }

  get formatPluginModules(): readonly string[] {
    return commaList(this.FORMAT_PLUGIN_MODULES);
  }

  /** INDEXES as a list; undefined when unset (every index). */
  get indexNames(): readonly string[] | undefined {
    return this.INDEXES === undefined ? undefined : commaList(this.INDEXES);
  }

  get corsOrigins(): readonly string[] {
    return commaList(this.CORS_ORIGINS);
  }

  /** DOTS_WS_ORIGINS as a list (`*` for any). */
  get dotsWsOrigins(): readonly string[] {
    return commaList(this.DOTS_WS_ORIGINS);
  }

  get limits(): ReadLimits {
    return {
      maxPlies: this.MAX_PLIES,
      maxBoardSide: this.MAX_BOARD_SIDE,
      maxVariationDepth: this.MAX_VARIATION_DEPTH,
      maxLineLength: this.MAX_LINE_LENGTH,
    };
  }
}

/** The non-blank items of a comma-separated setting, trimmed. */
function commaList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export class ConfigError extends Error {}

const SETTINGS = Object.keys(new AppConfig()).concat('DATABASE_URL', 'DATABASE_REPLICA_URLS', 'API_KEYS', 'OPEN_ARCHIVE', 'FORMAT_PLUGIN_MODULES', 'CORS_ORIGINS', 'INDEXES');

/** Reads and validates the settings; throws a {@link ConfigError} listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const given = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => SETTINGS.includes(key) && value !== undefined && value !== ''),
  );
  const config = plainToInstance(AppConfig, given);
  if (given.ANALYSIS_THREADS === undefined && config.DATABASE_URL !== undefined) config.ANALYSIS_THREADS = ANALYSIS_THREADS_WITH_SERVER;
  const lines = validateSync(config, { forbidUnknownValues: true }).flatMap((error) =>
    Object.values(error.constraints ?? {}).map((text) => `  ${error.property}: ${text}`),
  );
  if (env.API_KEYS !== undefined && env.API_KEYS !== '' && config.apiKeys.length === 0) {
    lines.push('  API_KEYS: is set but holds no key (keys are separated by commas; blanks are ignored): unset it to run open, or give a key');
  }
  if (config.apiKeys.length === 0 && config.OPEN_ARCHIVE === false) {
    lines.push('  API_KEYS: is not set and OPEN_ARCHIVE is false: give the admin keys, or set OPEN_ARCHIVE=true to let anyone who reaches the archive write to it');
  }
  if (config.apiKeys.length === 0 && !config.PUBLIC_READS) {
    lines.push('  PUBLIC_READS: false needs API_KEYS (an open archive has no tokens to read with)');
  }
  if (config.ANALYSIS_TIMEOUT_MS <= config.ANALYSIS_BUDGET_MS) {
    lines.push(`  ANALYSIS_TIMEOUT_MS: must be larger than ANALYSIS_BUDGET_MS (${config.ANALYSIS_BUDGET_MS}), the budget the solver stops itself at`);
  }
  if ((config.DOTS_SCRYPT_COST & (config.DOTS_SCRYPT_COST - 1)) !== 0) {
    lines.push(`  DOTS_SCRYPT_COST: must be a power of two (scrypt's N), got ${config.DOTS_SCRYPT_COST}`);
  }
  if (config.replicaUrls.length > 0) {
    if (config.DATABASE_URL === undefined) lines.push('  DATABASE_REPLICA_URLS: replicas need DATABASE_URL, their primary (the embedded database has none)');
    const bad = config.replicaUrls.filter((url) => !/^postgres(ql)?:\/\//.test(url));
    if (bad.length > 0) lines.push(`  DATABASE_REPLICA_URLS: each must be a postgres:// connection string, not ${bad.map((url) => `"${url.slice(0, 40)}"`).join(', ')}`);
  } else if (env.DATABASE_REPLICA_URLS !== undefined && env.DATABASE_REPLICA_URLS !== '') {
    lines.push('  DATABASE_REPLICA_URLS: is set but names no replica (URLs are separated by commas): unset it to read from the primary alone');
  }
  if (config.DATABASE_REPLICA_MAX_LAG_MS < 3 * config.DATABASE_REPLICA_CHECK_MS) {
    lines.push(
      `  DATABASE_REPLICA_MAX_LAG_MS: must be at least three times DATABASE_REPLICA_CHECK_MS (${config.DATABASE_REPLICA_CHECK_MS}): a replica a moment behind is known to be fresh only by the check before last, and would leave the rotation between checks`,
    );
  }
  if (config.corsOrigins.length > 0) {
    const bad = config.corsOrigins.filter((origin) => originOf(origin) !== origin);
    if (bad.length > 0) {
      const named = bad.map((origin) => `"${origin.slice(0, 60)}"${originOf(origin) ? ` (${originOf(origin)}?)` : ''}`).join(', ');
      lines.push(`  CORS_ORIGINS: each must be an origin, http(s)://host[:port] with no path, no trailing slash and the host in lower case, not ${named}`);
    }
  } else if (env.CORS_ORIGINS !== undefined && env.CORS_ORIGINS !== '') {
    lines.push('  CORS_ORIGINS: is set but names no origin (origins are separated by commas): unset it to let no other site call the API');
  }
  lines.push(...dotsSecurityProblems(config, given));
  if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return config;
}

/** The origin `text` names as a browser sends it (`https://club.example`), or '' when it names none (not http or https, or no URL). */
function originOf(text: string): string {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : '';
  } catch {
    return '';
  }
}

/** The Dots server's access limits that hang together (docs/dots-server.md, "Limits"); sets the per-address cap's default. */
function dotsSecurityProblems(config: AppConfig, given: Record<string, unknown>): string[] {
  const lines: string[] = [];
  if (given.DOTS_MAX_CONNECTIONS_PER_ADDRESS === undefined) {
    config.DOTS_MAX_CONNECTIONS_PER_ADDRESS = Math.min(config.DOTS_MAX_CONNECTIONS_PER_ADDRESS, config.DOTS_MAX_CONNECTIONS);
  } else if (config.DOTS_MAX_CONNECTIONS_PER_ADDRESS > config.DOTS_MAX_CONNECTIONS) {
    lines.push(`  DOTS_MAX_CONNECTIONS_PER_ADDRESS: must be at most DOTS_MAX_CONNECTIONS (${config.DOTS_MAX_CONNECTIONS})`);
  }
  if (config.DOTS_LOGIN_BACKOFF_MAX_MS < config.DOTS_LOGIN_BACKOFF_MS) {
    lines.push(`  DOTS_LOGIN_BACKOFF_MAX_MS: must be at least DOTS_LOGIN_BACKOFF_MS (${config.DOTS_LOGIN_BACKOFF_MS})`);
  }
  if (config.DOTS_LOGIN_FAILURE_MEMORY_MS < config.DOTS_LOGIN_BACKOFF_MAX_MS) {
    lines.push(`  DOTS_LOGIN_FAILURE_MEMORY_MS: must be at least DOTS_LOGIN_BACKOFF_MAX_MS (${config.DOTS_LOGIN_BACKOFF_MAX_MS}), or failures would be forgotten before their wait ends`);
  }
  const origins = config.dotsWsOrigins;
  const badOrigins = origins.filter((origin) => origin !== '*' && originOf(origin) !== origin);
  if (badOrigins.length > 0) {
    lines.push(`  DOTS_WS_ORIGINS: each must be "*" or an origin, http(s)://host[:port] with no path and no trailing slash, not ${badOrigins.map((origin) => `"${origin.slice(0, 60)}"`).join(', ')}`);
  } else if (typeof given.DOTS_WS_ORIGINS === 'string' && origins.length === 0) {
    lines.push('  DOTS_WS_ORIGINS: is set but names no origin (origins are separated by commas): unset it to let in the archive\'s own pages only');
  }
  const cert = config.DOTS_TLS_CERT;
  const key = config.DOTS_TLS_KEY;
  if ((cert === '') !== (key === '')) {
    lines.push(`  ${cert === '' ? 'DOTS_TLS_CERT' : 'DOTS_TLS_KEY'}: TLS needs both DOTS_TLS_CERT and DOTS_TLS_KEY`);
  }
  for (const [name, path] of [['DOTS_TLS_CERT', cert], ['DOTS_TLS_KEY', key]] as const) {
    if (path === '') continue;
    try {
      accessSync(path, constants.R_OK);
    } catch {
      lines.push(`  ${name}: cannot read the file "${path.slice(0, 200)}"`);
    }
  }
  return lines;
}
