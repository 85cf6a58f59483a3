import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiKeyRing } from '../common/api-key-ring.js';
import { AppConfig } from '../common/config.js';
import { SECRET_QUERY_PARAMETERS } from '../common/logging.js';
import { AccountsRepository } from './accounts.repository.js';
import type { TokenRow } from './accounts.repository.js';
import { NOBODY, OPEN_CALLER } from './caller.js';
import type { Caller, Credential } from './caller.js';
import { ADMIN_ACCOUNT, SCOPES } from './scopes.js';
import type { Scope } from './scopes.js';

/** A token as handed out: `tabula_<id>_<secret>`, the secret 32 random bytes in base64url. */
const TOKEN = /^tabula_([1-9]\d{0,17})_([A-Za-z0-9_-]{43})$/;
/** Tokens remembered at most (the oldest go first). */
const CACHE_ENTRIES = 10_000;
/** How often a token's last use is written, at most. */
const TOUCH_EVERY_MS = 60_000;

/** A new token's secret and what the database keeps of it. */
export function newSecret(): { secret: string; sha256: Buffer } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, sha256: sha256(secret) };
}

export function tokenText(id: string, secret: string): string {
  return `tabula_${id}_${secret}`;
}

interface Remembered {
  readonly row: TokenRow | undefined;
  readonly until: number;
}

/**
 * Tells who a request's `Authorization: Bearer` names: a key of API_KEYS (an admin of the account
 * `admin`), a token of the database, or an invalid credential. A token's row is remembered for
 * TOKEN_CACHE_MS, so a request costs a hash and a map lookup, not a database round trip; a
 * revocation made on another node is seen when the row is read again, within that time (on this
 * node at once).
 */
@Injectable()
export class Credentials {
  private readonly logger = new Logger('Credentials');
  private readonly keys: ApiKeyRing;
  private readonly rows = new Map<string, Remembered>();
  private readonly touched = new Map<string, number>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
  ) {
    this.keys = new ApiKeyRing(config.apiKeys);
  }

  /** Whether the archive runs without API_KEYS: anyone may write. */
  get open(): boolean {
    return this.keys.open;
  }

  /** The credential of a request with this `Authorization` header and query string. */
  async resolve(authorization: string | undefined, query: URLSearchParams): Promise<Credential> {
    const inQuery = SECRET_QUERY_PARAMETERS.find((name) => query.has(name));
    if (inQuery !== undefined) return { invalid: `a token is never sent in the URL (the parameter ${inQuery}), where logs and histories keep it: send Authorization: Bearer <token>` };
    if (authorization === undefined || authorization === '') return { caller: this.open ? OPEN_CALLER : NOBODY };
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!bearer) return { invalid: 'the Authorization header must be "Bearer <token>"' };
    const key = this.keys.check(authorization);
    if (key.kind === 'valid') return { caller: { account: ADMIN_ACCOUNT, tokenId: `key:${key.holder}`, scopes: new Set<Scope>(SCOPES) } };
    const token = TOKEN.exec(bearer[1]);
    if (!token) return { invalid: 'the token is not valid' };
    const [, id, secret] = token;
    const row = await this.row(id);
    // Compared digest to digest in constant time, as every token is (a missing row against a fixed digest).
    const matches = timingSafeEqual(sha256(secret), row?.secret_sha256 ?? NO_DIGEST);
    if (row === undefined || !matches) return { invalid: 'the token is not valid' };
    if (row.revoked_at !== null) return { invalid: `token ${id} was revoked` };
    if (row.expires_at !== null && row.expires_at.getTime() <= Date.now()) return { invalid: `token ${id} expired at ${row.expires_at.toISOString()}` };
    this.touch(id);
    return { caller: { account: row.account, tokenId: id, scopes: new Set(row.scopes.filter((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope))) } };
  }

  /** Forgets what this node remembers of a token (it was revoked here). */
  forget(id: string): void {
    this.rows.delete(id);
  }

  private async row(id: string): Promise<TokenRow | undefined> {
    const now = Date.now();
    const remembered = this.rows.get(id);
    if (remembered !== undefined && remembered.until > now) return remembered.row;
    const row = await this.accounts.findToken(id);
    if (this.config.TOKEN_CACHE_MS > 0) {
      this.rows.delete(id);
      if (this.rows.size >= CACHE_ENTRIES) this.rows.delete(this.rows.keys().next().value as string);
      this.rows.set(id, { row, until: now + this.config.TOKEN_CACHE_MS });
    }
    return row;
  }

  /** Writes a token's last use, at most once a minute, without holding the request up. */
  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.touched.get(id) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.delete(id);
    if (this.touched.size >= CACHE_ENTRIES) this.touched.delete(this.touched.keys().next().value as string);
    this.touched.set(id, now);
    this.accounts.touchToken(id).catch((error: unknown) => this.logger.warn(`could not record the use of token ${id}: ${(error as Error).message}`));
  }
}

const NO_DIGEST = Buffer.alloc(32);

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
