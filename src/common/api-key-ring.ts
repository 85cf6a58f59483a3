import { createHash, timingSafeEqual } from 'node:crypto';

/** What an `Authorization` header says of the archive's API keys. */
export type KeyCheck = { readonly kind: 'none' } | { readonly kind: 'invalid' } | { readonly kind: 'valid'; readonly holder: string };

/**
 * The archive's API keys (API_KEYS), kept as SHA-256 digests: tells a request's bearer key valid or
 * not, and names its holder by a digest prefix, never the key itself (the rate limits count by it).
 */
export class ApiKeyRing {
  private readonly keyDigests: readonly Buffer[];

  constructor(keys: readonly string[]) {
    this.keyDigests = keys.map(digest);
  }

  get open(): boolean {
    return this.keyDigests.length === 0;
  }

  check(authorization: string | undefined): KeyCheck {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return { kind: 'none' };
    const given = digest(match[1]);
    // Comparing digests keeps the comparison constant-time whatever the key lengths.
    const known = this.keyDigests.find((key) => timingSafeEqual(key, given));
    return known ? { kind: 'valid', holder: known.subarray(0, 8).toString('hex') } : { kind: 'invalid' };
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
