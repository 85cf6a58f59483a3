import { ConfigError, loadConfig } from '../../src/common/config.js';
import { WalNotes, walPosition } from '../../src/database/read-replicas.js';

/**
 * The replicas' bookkeeping without a server (test/e2e/read-replicas.e2e.spec.ts runs a real
 * replica): WAL positions as PostgreSQL prints them, which note of the primary's a replica has
 * reached and until when that keeps it in rotation, and the settings refused at boot.
 */
describe('WAL positions', () => {
  it('reads X/Y as the high and low 32 bits', () => {
    expect(walPosition('0/0')).toBe(0n);
    expect(walPosition('0/1')).toBe(1n);
    expect(walPosition('1/0')).toBe(4_294_967_296n);
    // The low half is eight hex digits once padded: the two halves written side by side.
    expect(walPosition('16/B374D848')).toBe(BigInt('0x16B374D848'));
    expect(walPosition('A/1')).toBe(BigInt('0xA00000001'));
    expect(walPosition('a/ff')).toBe(10n * 4_294_967_296n + 255n);
  });

  it('refuses what is not one', () => {
    for (const text of ['', '0', '0/', '/0', '0/0/0', 'G/0', '123456789/0', ' 0/0']) expect(() => walPosition(text)).toThrow(/not a WAL position/);
  });
});

describe('WalNotes', () => {
  it('keeps a replica in rotation until the bound past the newest note it has reached', () => {
    const notes = new WalNotes(1000);
    expect(notes.freshUntil(500n)).toBeNull();
    notes.note(0, 100n);
    notes.note(200, 150n);
    notes.note(400, 300n);
    expect(notes.freshUntil(99n)).toBeNull();
    expect(notes.freshUntil(100n)).toBe(1000);
    expect(notes.freshUntil(149n)).toBe(1000);
    expect(notes.freshUntil(150n)).toBe(1200);
    expect(notes.freshUntil(299n)).toBe(1200);
    expect(notes.freshUntil(300n)).toBe(1400);
    expect(notes.freshUntil(10_000n)).toBe(1400);
  });

  it('an idle primary (its position unchanged) keeps a replica that has reached it fresh', () => {
    const notes = new WalNotes(1000);
    for (let at = 0; at <= 5000; at += 250) notes.note(at, 700n);
    expect(notes.freshUntil(700n)).toBe(6000);
    expect(notes.freshUntil(699n)).toBeNull();
  });

  it('forgets notes older than the bound before the newest, so a replica behind them all is out', () => {
    const notes = new WalNotes(1000);
    notes.note(0, 100n);
    notes.note(200, 150n);
    notes.note(1300, 400n);
    // The note at 0 is 1,300 ms older than the newest: forgotten. The one at 200 (1,100 ms) too.
    expect(notes.freshUntil(100n)).toBeNull();
    expect(notes.freshUntil(150n)).toBeNull();
    expect(notes.freshUntil(400n)).toBe(2300);
    notes.note(1500, 450n);
    // Within the bound of the newest: kept.
    expect(notes.freshUntil(420n)).toBe(2300);
  });
});

describe('the replica settings', () => {
  const primary = { DATABASE_URL: 'postgres://tabula@db:5432/tabula' };

  it('reads the URLs, commas and blanks apart', () => {
    const config = loadConfig({ ...primary, DATABASE_REPLICA_URLS: ' postgres://r1:5432/tabula, ,postgresql://r2/tabula ' });
    expect(config.replicaUrls).toEqual(['postgres://r1:5432/tabula', 'postgresql://r2/tabula']);
    expect([config.DATABASE_REPLICA_MAX_LAG_MS, config.DATABASE_REPLICA_CHECK_MS]).toEqual([5000, 1000]);
    expect(loadConfig(primary).replicaUrls).toEqual([]);
  });

  it('refuses replicas without a primary, URLs that are not PostgreSQL ones, and a list of none', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://r1/tabula' })).toThrow(/DATABASE_REPLICA_URLS: replicas need DATABASE_URL/);
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_URLS: 'postgres://r1/tabula,mysql://r2/tabula' })).toThrow(/DATABASE_REPLICA_URLS: each must be a postgres:\/\/ connection string, not "mysql:\/\/r2\/tabula"/);
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_URLS: ' , ' })).toThrow(/DATABASE_REPLICA_URLS: is set but names no replica/);
  });

  it('refuses a bound shorter than three checks, and values out of range', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_MAX_LAG_MS: '2999', DATABASE_REPLICA_CHECK_MS: '1000' })).toThrow(/DATABASE_REPLICA_MAX_LAG_MS: must be at least three times DATABASE_REPLICA_CHECK_MS \(1000\)/);
    expect(loadConfig({ DATABASE_REPLICA_MAX_LAG_MS: '3000', DATABASE_REPLICA_CHECK_MS: '1000' }).DATABASE_REPLICA_MAX_LAG_MS).toBe(3000);
    for (const [name, value] of [['DATABASE_REPLICA_MAX_LAG_MS', '99'], ['DATABASE_REPLICA_CHECK_MS', '49'], ['DATABASE_REPLICA_CHECK_MS', 'soon']]) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
    }
  });
});
