import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { FactoryProvider } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../common/config.js';
import { isDatabaseUnavailable } from '../common/database-errors.js';
import { databaseOptions } from './database-options.js';
import { ReplicationRepository } from './replication.repository.js';

/**
 * Reads on streaming replicas (`DATABASE_REPLICA_URLS`). Searches, exports, pictures, player
 * statistics and the position explorer read through a {@link Reads}: on a replica in rotation when
 * there is one (round robin), else on the primary. Writes and the reads that must see a write just
 * made (an upload's answer, a re-index, an import's status) use the primary's repositories, as
 * before.
 *
 * A replica is in rotation only while it is known to have replayed everything the primary had
 * written `DATABASE_REPLICA_MAX_LAG_MS` ago: every `DATABASE_REPLICA_CHECK_MS` the primary's WAL
 * position is noted with the time it was asked, and each replica's replay position is compared
 * with those notes. The newest note a replica has reached, plus the bound, is the moment it leaves
 * the rotation unless a later check moves it on, so a replica whose checks hang or fail leaves on
 * time as well. A read that finds its replica unreachable (connection refused or cut, the server
 * shutting down) takes it out at once and is run on the primary; so is a read a standby cancels
 * because it conflicts with the replay. The replica comes back when a check finds it answering and
 * within the bound again.
 *
 * Not TypeORM's own `replication` option: it picks a replica at random with no notion of lag or
 * health (a replica that is down fails the queries sent to it), and it routes by query runner, not
 * by use case. Each replica here is a TypeORM data source of its own (DATABASE_POOL_SIZE
 * connections), and the repositories are the same classes over it: the SQL is the primary's.
 */

/** A WAL position (`X/Y`, as PostgreSQL prints a pg_lsn) as a number. */
export function walPosition(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/**
 * The primary's WAL positions and when they were asked for, kept as long as they can matter: a
 * replica that has replayed up to a noted position holds every commit acknowledged before it was
 * noted. Times are a monotonic clock's, in ms.
 */
export class WalNotes {
  private notes: { readonly at: number; readonly position: bigint }[] = [];

  constructor(private readonly maxLagMs: number) {}

  /** The primary's position, asked for at `at` (taken before the question was sent). */
  note(at: number, position: bigint): void {
    this.notes.push({ at, position });
    // A note older than the bound before the newest can only put a replica out of rotation.
    const keepFrom = at - this.maxLagMs;
    while (this.notes.length > 1 && this.notes[0].at < keepFrom) this.notes.shift();
  }

  /**
   * Until when a replica that has replayed up to `replayed` may serve reads: the time of the newest
   * note it has reached plus the bound. Null when it has reached none of the notes kept (it is
   * further behind than the bound, or nothing has been noted yet).
   */
  freshUntil(replayed: bigint): number | null {
    for (let i = this.notes.length - 1; i >= 0; i--) {
      if (this.notes[i].position <= replayed) return this.notes[i].at + this.maxLagMs;
    }
    return null;
  }
}

/** One replica as /health shows it. */
export interface ReplicaState {
  /** Its place in DATABASE_REPLICA_URLS, from 1. */
  readonly replica: number;
  readonly inRotation: boolean;
  /** How far behind the primary it was at its last check, in ms; null when it could not be told (unreachable, too far behind, not a standby). */
  readonly behindMs: number | null;
}

interface Replica {
  readonly index: number;
  /** Host, port and database, for the log (no user or password). */
  readonly name: string;
  readonly options: DataSourceOptions;
  dataSource?: DataSource;
  replication?: ReplicationRepository;
  /** The monotonic time until which it may serve reads; 0 while out. */
  freshUntil: number;
  behindMs: number | null;
  /** Whether the log has said anything of it yet, and whether it last said it was in rotation. */
  told: boolean;
  saidIn: boolean;
  checking: boolean;
}

/** SQLSTATE 40001 from a standby: a statement cancelled because it conflicts with the WAL being replayed. */
const RECOVERY_CONFLICT = '40001';
/** SQLSTATE 57014: a statement cancelled by statement_timeout, which the primary would hit too. */
const STATEMENT_TIMEOUT = '57014';

@Injectable()
export class ReadReplicas implements OnApplicationBootstrap, OnApplicationShutdown {
  private static readonly logger = new Logger('Replicas');
  private readonly replicas: Replica[];
  private readonly notes: WalNotes;
  private readonly primaryReplication: ReplicationRepository;
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private closed = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectDataSource() primary: DataSource,
  ) {
    this.notes = new WalNotes(config.DATABASE_REPLICA_MAX_LAG_MS);
    this.primaryReplication = new ReplicationRepository(primary);
    this.replicas = config.replicaUrls.map((url, i) => {
      const options = databaseOptions(url, config.DATABASE_POOL_SIZE);
      return {
        index: i + 1,
        name: describe(url),
        // A standby takes no CREATE EXTENSION; the schema is the primary's.
        options: { ...options, installExtensions: false, extra: { ...options.extra, application_name: 'tabula-reads' } } as DataSourceOptions,
        freshUntil: 0,
        behindMs: null,
        told: false,
        saidIn: false,
        checking: false,
      };
    });
  }

  /** Whether any replica is configured. */
  get configured(): boolean {
    return this.replicas.length > 0;
  }

  onApplicationBootstrap(): void {
    if (!this.configured) return;
    ReadReplicas.logger.log(
      `${this.replicas.length} replica${this.replicas.length === 1 ? '' : 's'} for reads (${this.replicas.map((replica) => replica.name).join(', ')}), each in rotation while within ${this.config.DATABASE_REPLICA_MAX_LAG_MS} ms of the primary, checked every ${this.config.DATABASE_REPLICA_CHECK_MS} ms`,
    );
    void this.check();
    this.timer = setInterval(() => void this.check(), this.config.DATABASE_REPLICA_CHECK_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => (replica.dataSource?.isInitialized ? replica.dataSource.destroy().catch(() => undefined) : undefined)));
  }

  /** The repository `make` builds, over the primary (`primary`, Nest's) and over each replica: see {@link Reads}. */
  reads<R>(primary: R, make: (dataSource: DataSource) => R): Reads<R> {
    return new Reads(this, primary, make);
  }

  /** The replicas as /health shows them; empty without DATABASE_REPLICA_URLS. */
  states(): ReplicaState[] {
    const now = performance.now();
    return this.replicas.map((replica) => ({ replica: replica.index, inRotation: this.inRotation(replica, now), behindMs: replica.behindMs }));
  }

  /** The next replica in rotation (round robin), or undefined: read on the primary. */
  pick(): { dataSource: DataSource; replica: number } | undefined {
    const now = performance.now();
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length];
      if (this.inRotation(replica, now)) return { dataSource: replica.dataSource!, replica: replica.index };
      if (replica.saidIn) this.say(replica, false, `not known to be within ${this.config.DATABASE_REPLICA_MAX_LAG_MS} ms of the primary: its last check found it ${replica.behindMs ?? '?'} ms behind, and none has found it closer since`);
    }
    return undefined;
  }

  /**
   * Whether a read that failed on `replica` should be run on the primary instead: the replica was
   * unreachable (it leaves the rotation until a check finds it again) or cancelled the read as
   * conflicting with its replay. Any other error is the read's own and is passed on.
   */
  failedOn(replica: number, error: unknown): boolean {
    const state = sqlState(error);
    if (state === RECOVERY_CONFLICT) return true;
    if (state === STATEMENT_TIMEOUT || !isDatabaseUnavailable(error)) return false;
    const gone = this.replicas[replica - 1];
    gone.freshUntil = 0;
    gone.behindMs = null;
    this.say(gone, false, `a read found it unreachable (${messageOf(error)}); reads go elsewhere until a check finds it again`);
    return true;
  }

  private inRotation(replica: Replica, now: number): boolean {
    return replica.dataSource !== undefined && now < replica.freshUntil;
  }

  /** Notes the primary's position, then asks each replica (one question at a time each) how far it has replayed. */
  private async check(): Promise<void> {
    const asked = performance.now();
    try {
      this.notes.note(asked, walPosition(await this.primaryReplication.walPosition()));
    } catch {
      // The primary's failures are answered where they happen; without a note the replicas' time runs out.
    }
    await Promise.all(this.replicas.filter((replica) => !replica.checking).map((replica) => this.checkReplica(replica)));
  }

  private async checkReplica(replica: Replica): Promise<void> {
    replica.checking = true;
    try {
      if (!replica.dataSource) {
        const dataSource = new DataSource(replica.options);
        await dataSource.initialize();
        if (this.closed) {
          await dataSource.destroy();
          return;
        }
        replica.dataSource = dataSource;
        replica.replication = new ReplicationRepository(dataSource);
      }
      const position = await replica.replication!.replayPosition();
      if (!position.standby || position.replayed === null) {
        replica.freshUntil = 0;
        replica.behindMs = null;
        this.say(replica, false, 'it is not a standby (pg_is_in_recovery() is false): it replays no primary, so what it holds may be anything');
        return;
      }
      const until = this.notes.freshUntil(walPosition(position.replayed));
      const now = performance.now();
      replica.freshUntil = until ?? 0;
      replica.behindMs = until === null ? null : Math.max(0, Math.round(now - (until - this.config.DATABASE_REPLICA_MAX_LAG_MS)));
      if (until !== null && now < until) this.say(replica, true, `${replica.behindMs} ms behind the primary`);
      else this.say(replica, false, `its replay (at ${position.replayed}) has not reached what the primary had written ${this.config.DATABASE_REPLICA_MAX_LAG_MS} ms ago (DATABASE_REPLICA_MAX_LAG_MS)`);
    } catch (error) {
      replica.freshUntil = 0;
      replica.behindMs = null;
      this.say(replica, false, `it does not answer (${messageOf(error)})`);
    } finally {
      replica.checking = false;
    }
  }

  /** Logs a replica's joining or leaving the rotation: its first state, then each change. */
  private say(replica: Replica, inRotation: boolean, why: string): void {
    if (replica.told && inRotation === replica.saidIn) return;
    replica.told = true;
    replica.saidIn = inRotation;
    if (inRotation) ReadReplicas.logger.log(`replica ${replica.index} (${replica.name}) joins the rotation: ${why}`);
    else ReadReplicas.logger.warn(`replica ${replica.index} (${replica.name}) is out of the rotation: ${why}`);
  }
}

/**
 * A repository over the primary and over each replica. {@link read} runs a read on a replica in
 * rotation, or on the primary when there is none; a read the replica fails for being unreachable
 * (or cancels for conflicting with its replay) is run again on the primary, so a replica going away
 * costs no request an error.
 */
export class Reads<R> {
  private readonly onReplica = new WeakMap<DataSource, R>();

  constructor(
    private readonly replicas: ReadReplicas,
    /** The repository over the primary: for writes and the reads that must see them. */
    readonly primary: R,
    private readonly make: (dataSource: DataSource) => R,
  ) {}

  /**
   * `work` on a replica's repository, or on the primary's. `askPrimaryWhen` names the answers a
   * replica may give only because it has not yet replayed a recent write (a game not found, a
   * player with no games): those are asked of the primary again.
   */
  async read<T>(work: (repository: R) => Promise<T>, askPrimaryWhen?: (answer: T) => boolean): Promise<T> {
    const picked = this.replicas.pick();
    if (!picked) return work(this.primary);
    let answer: T;
    try {
      answer = await work(this.repositoryOn(picked.dataSource));
    } catch (error) {
      if (!this.replicas.failedOn(picked.replica, error)) throw error;
      return work(this.primary);
    }
    return askPrimaryWhen?.(answer) ? work(this.primary) : answer;
  }

  private repositoryOn(dataSource: DataSource): R {
    let repository = this.onReplica.get(dataSource);
    if (repository === undefined) {
      repository = this.make(dataSource);
      this.onReplica.set(dataSource, repository);
    }
    return repository;
  }
}

/** The injection token of a repository's {@link Reads}. */
export function readsToken(type: abstract new (...args: never[]) => object): string {
  return `Reads<${type.name}>`;
}

/** Injects the {@link Reads} of a repository class that `readsProvider` provides. */
export function InjectReads(type: abstract new (...args: never[]) => object): ParameterDecorator {
  return Inject(readsToken(type));
}

/** Provides the {@link Reads} of a repository whose only argument is a data source (the module provides the repository itself too). */
export function readsProvider<R extends object>(type: new (dataSource: DataSource) => R): FactoryProvider<Reads<R>> {
  return {
    provide: readsToken(type),
    inject: [ReadReplicas, type],
    useFactory: (replicas: ReadReplicas, primary: R) => replicas.reads(primary, (dataSource) => new type(dataSource)),
  };
}

function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'an unreadable URL';
  }
}

function sqlState(error: unknown): string | undefined {
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = candidate?.driverError?.code ?? candidate?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
