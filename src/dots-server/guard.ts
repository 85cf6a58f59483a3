import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from './clock.js';
import { loginKey } from './login-key.js';

/** The limits of {@link DotsGuard} (AppConfig's DOTS_* settings; docs/dots-server.md, "Limits"). */
export interface GuardSettings {
  /** Fewest characters of a new account's password. */
  readonly minPassword: number;
  /** The wait after the first failed LOG of a key, in ms; doubled by each further failure. */
  readonly backoffMs: number;
  /** The longest wait, in ms. */
  readonly backoffMaxMs: number;
  /** A key's failures are forgotten once none came for this long, in ms. */
  readonly failureMemoryMs: number;
  /** REGs one address may send per `registrationWindowMs`. */
  readonly registrationsPerAddress: number;
  readonly registrationWindowMs: number;
}

/** What a LOG may do: go on (`ticket`, handed back with the outcome), or wait `waitMs` first. */
export type LoginGate = { readonly ticket: LoginTicket; readonly waitMs?: undefined } | { readonly ticket?: undefined; readonly waitMs: number };

export type LoginOutcome = 'succeeded' | 'failed' | 'unknown';

/** A LOG under way: the failure records it counts in until its outcome is known. */
export interface LoginTicket {
  readonly login: string;
  readonly address: string;
  readonly records: readonly FailureRecord[];
}

/** Failed LOGs of one key (a login's or an address's). */
interface FailureRecord {
  failures: number;
  /** LOGs under way, each counted as a failure until it is known (so that parallel guesses wait too). */
  pending: number;
  /** When the last failed LOG started, and the last LOG of all. */
  failedAt: number;
  startedAt: number;
}

/** Most keys each table keeps; past it the oldest go (the address's own record still holds its sender back). */
const MAX_KEYS = 100_000;
/** Addresses a login logged in from that its failures do not hold back, per login (the newest kept). */
const KNOWN_ADDRESSES = 8;

/**
 * Who may try what, per node and in memory: the password rule of REG, REGs per address, and the
 * back-off of LOG after failures — by login (its {@link loginKey}, so `Victim` counts for `victim`)
 * and by address. After n failures of a key, its next LOG may start `backoffMs × 2^(n−1)` ms (at
 * most `backoffMaxMs`) after the last failed one began; a LOG that comes sooner is refused without
 * its password being checked, and is no failure itself, so the wait of a login nobody guesses at
 * any more ends at most `backoffMaxMs` after the last guess. A LOG under way counts as a failure
 * until its outcome (for an address, once it has failures: until then its players log in side by
 * side), so guesses sent in parallel wait like guesses sent in turn; a success takes back only its
 * own count. The addresses a login has logged in from lately are not held back by
 * the failures of that login (only by their own): guesses at a login from elsewhere cannot lock its
 * owner out at home.
 */
export class DotsGuard {
  private readonly byLogin = new Map<string, FailureRecord>();
  private readonly byAddress = new Map<string, FailureRecord>();
  private readonly known = new Map<string, string[]>();
  private readonly registrations = new Map<string, number[]>();

  constructor(
    private readonly settings: GuardSettings,
    private readonly clock: Clock,
  ) {}

  /** Why a new account's password is refused, in the words of a `401 bad_parameter`; null: it is fine. */
  passwordProblem(password: string): string | null {
    const length = [...password].length;
    return length < this.settings.minPassword ? `password: at least ${this.settings.minPassword} characters` : null;
  }

  /** How long the address must wait before its next REG (0: it may now); a REG let through counts. */
  registration(address: string): number {
    const now = this.clock.now();
    const key = addressKey(address);
    const since = now - this.settings.registrationWindowMs;
    const times = (this.registrations.get(key) ?? []).filter((at) => at > since);
    if (times.length >= this.settings.registrationsPerAddress) {
      this.registrations.set(key, times);
      return times[0] + this.settings.registrationWindowMs - now;
    }
    times.push(now);
    remember(this.registrations, key, times);
    return 0;
  }

  /** Before a LOG's password is checked: its ticket, or how long it must wait (ms). */
  beginLogin(login: string, address: string): LoginGate {
    const now = this.clock.now();
    const byLogin = this.known.get(loginKey(login))?.includes(addressKey(address)) ? null : this.record(this.byLogin, loginKey(login), now);
    const byAddress = this.record(this.byAddress, addressKey(address), now);
    const records = byLogin === null ? [byAddress] : [byLogin, byAddress];
    // An address without failures lets its LOGs run side by side (many players behind one NAT).
    const waitMs = Math.max(byLogin === null ? 0 : this.nextAt(byLogin, true) - now, this.nextAt(byAddress, byAddress.failures > 0) - now);
    if (waitMs > 0) return { waitMs };
    for (const record of records) {
      record.pending++;
      record.startedAt = now;
    }
    return { ticket: { login, address, records } };
  }

  /**
   * The LOG's outcome: a failure stays counted; a success takes its count back and makes the address
   * known to the login; `unknown` (the store failed) only takes its count back.
   */
  endLogin(ticket: LoginTicket, outcome: LoginOutcome): void {
    for (const record of ticket.records) {
      record.pending = Math.max(0, record.pending - 1);
      if (outcome === 'failed') {
        record.failures++;
        record.failedAt = Math.max(record.failedAt, record.startedAt);
      }
    }
    if (outcome !== 'succeeded') return;
    const key = loginKey(ticket.login);
    const address = addressKey(ticket.address);
    const addresses = (this.known.get(key) ?? []).filter((known) => known !== address);
    addresses.push(address);
    remember(this.known, key, addresses.slice(-KNOWN_ADDRESSES));
  }

  /** The wait after `failures` failures: none at first, then doubling from backoffMs up to backoffMaxMs. */
  delay(failures: number): number {
    if (failures <= 0) return 0;
    return Math.min(this.settings.backoffMaxMs, this.settings.backoffMs * 2 ** Math.min(failures - 1, 30));
  }

  /** When the key's next LOG may start; `countPending`: LOGs under way count as failures. */
  private nextAt(record: FailureRecord, countPending: boolean): number {
    if (countPending && record.pending > 0) return record.startedAt + this.delay(record.failures + record.pending);
    return record.failedAt + this.delay(record.failures);
  }

  /** The key's record, made (or started afresh, when its failures are forgotten) as needed. */
  private record(table: Map<string, FailureRecord>, key: string, now: number): FailureRecord {
    const found = table.get(key);
    if (found !== undefined && (found.pending > 0 || now - found.failedAt < this.settings.failureMemoryMs)) return found;
    const fresh: FailureRecord = { failures: 0, pending: 0, failedAt: -Infinity, startedAt: -Infinity };
    remember(table, key, fresh);
    return fresh;
  }
}

/** Sets the key as the newest of the table, dropping the oldest past MAX_KEYS. */
function remember<T>(table: Map<string, T>, key: string, value: T): void {
  table.delete(key);
  table.set(key, value);
  if (table.size > MAX_KEYS) table.delete(table.keys().next().value!);
}

/**
 * What the per-address limits count by: an IPv4 address as it is (an IPv4-mapped IPv6 address too),
 * an IPv6 address by its /64 (what one subscriber is given), anything else as it comes.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, in lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const text = address.split('%')[0].toLowerCase();
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const last = right.length > 0 ? right : left;
  if (last.length > 0 && last[last.length - 1].includes('.')) {
    const octets = last.pop()!.split('.').map(Number);
    last.push(((octets[0] << 8) | octets[1]).toString(16), ((octets[2] << 8) | octets[3]).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
