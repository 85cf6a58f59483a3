import { AdvancedConsoleLogger, DataSource, MigrationExecutor, type DataSourceOptions } from 'typeorm';
import type { QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { ENTITIES } from '../games/entities/index.js';
import { DatabaseRepository } from './database.repository.js';
import { CancellableClient } from './cancellable-client.js';
import { clientSignal } from '../common/client-gone.js';
import { forgetNamedStatements } from './sql.js';

/**
 * Limits that make a request fail instead of hang when PostgreSQL is gone or stuck:
 * - a connection that is not established within CONNECT_TIMEOUT_MS fails (the pool would otherwise
 *   wait for the operating system's TCP timeout, minutes);
 * - a statement running longer than STATEMENT_TIMEOUT_MS is cancelled by the server — no archive
 *   request needs that long (an upload is a few small statements, a search is index-backed);
 * - a query whose answer has not arrived QUERY_TIMEOUT_MS after it was sent is failed by the driver,
 *   for a server that has stopped answering altogether (it cannot cancel itself then);
 * - a session left idle inside a transaction for IDLE_IN_TRANSACTION_MS is ended by the server: the
 *   archive sends a transaction's statements one after the other, so only a node that stalled or
 *   vanished (its host gone, no TCP reset) leaves one idle, and the rows it locked (an import's, which
 *   another node must be able to take over: IMPORT_TAKEOVER_MS) are freed.
 */
export interface DatabaseTimeouts {
  readonly CONNECT_TIMEOUT_MS: number;
  readonly STATEMENT_TIMEOUT_MS: number;
  readonly QUERY_TIMEOUT_MS: number;
  readonly IDLE_IN_TRANSACTION_MS?: number;
}

export const DATABASE_TIMEOUTS: DatabaseTimeouts = {
  CONNECT_TIMEOUT_MS: 5_000,
  STATEMENT_TIMEOUT_MS: 30_000,
  QUERY_TIMEOUT_MS: 35_000,
  IDLE_IN_TRANSACTION_MS: 10_000,
};

/**
 * The embedded database's: its pool has one connection, made over a local socket that answers at
 * once or refuses, and its statements run one at a time. A request that finds the connection busy
 * (a large import's batch, the maintenance vacuuming a large table) waits for it as long as a
 * statement may take, instead of failing with 503 after CONNECT_TIMEOUT_MS: the pool's wait for a
 * free connection is bounded by the same setting as making one.
 */
export const EMBEDDED_TIMEOUTS: DatabaseTimeouts = { ...DATABASE_TIMEOUTS, CONNECT_TIMEOUT_MS: DATABASE_TIMEOUTS.QUERY_TIMEOUT_MS };

/**
 * TypeORM options for a PostgreSQL URL; the schema comes only from migrations, never from synchronize.
 * PGlite has no timers: it ignores statement_timeout, so on the embedded database only the driver's
 * query timeout applies (it fails the request; the statement itself runs to its end).
 * `sharedSession`: the embedded database, whose one session every connection made to it shares.
 */
export function databaseOptions(url: string, poolSize: number, timeouts: DatabaseTimeouts = DATABASE_TIMEOUTS, { sharedSession = false } = {}): DataSourceOptions {
  return {
    ...baseOptions(url),
    // Run before, by runMigrations, on a connection without the statement timeouts.
    migrationsRun: false,
    extra: {
      max: poolSize,
      application_name: 'tabula',
      connectionTimeoutMillis: timeouts.CONNECT_TIMEOUT_MS,
      statement_timeout: timeouts.STATEMENT_TIMEOUT_MS,
      query_timeout: timeouts.QUERY_TIMEOUT_MS,
      ...(timeouts.IDLE_IN_TRANSACTION_MS === undefined ? {} : { idle_in_transaction_session_timeout: timeouts.IDLE_IN_TRANSACTION_MS }),
      // Detects a vanished server on an idle pooled connection instead of waiting on it.
      keepAlive: true,
      // The embedded database: one session, shared by the connections made to it in turn (and no
      // way to cancel a statement). A server: a request's statements end with the request.
      ...(sharedSession ? { onConnect: forgetNamedStatements } : { Client: CancellableClient }),
    },
  };
}

/**
 * Applies the pending migrations on one connection of its own, which has the connect timeout but no
 * statement timeouts: building an index on a large archive may rightly take minutes. With `lock`
 * (a PostgreSQL server, which several nodes may start on at once) they run under the migrations'
 * advisory lock, held on the same connection: a node that finds another migrating waits for it, then
 * finds nothing left to apply. The embedded database has one process and one connection: no lock.
 */
export async function runMigrations(url: string, options: { lock?: boolean } = {}): Promise<void> {
  const dataSource = new DataSource({
    ...baseOptions(url),
    migrationsRun: false,
    extra: { max: 1, application_name: 'tabula-migrations', connectionTimeoutMillis: DATABASE_TIMEOUTS.CONNECT_TIMEOUT_MS },
  });
  await dataSource.initialize();
  try {
    if (options.lock) {
      // The migrations run on the connection holding the lock: one connection, whatever the server allows.
      await new DatabaseRepository(dataSource).whileMigrationLocked(async (holder) => {
        const executor = new MigrationExecutor(dataSource, holder);
        executor.transaction = 'each';
        await executor.executePendingMigrations();
      });
    } else {
      await dataSource.runMigrations({ transaction: 'each' });
    }
  } finally {
    await dataSource.destroy();
  }
}

function baseOptions(url: string) {
  return {
    type: 'postgres',
    url,
    entities: [...ENTITIES],
    migrations: [...MIGRATIONS],
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new StatementLogger(['error', 'warn', 'migration']),
  } as const satisfies DataSourceOptions;
}

/**
 * TypeORM's console logger, but for the statements a request's end stopped: a request whose client
 * left or whose deadline passed (src/common/client-gone.ts) has its statements fail on purpose,
 * which is not an error of the database's (the access log has the request).
 */
class StatementLogger extends AdvancedConsoleLogger {
  override logQueryError(error: string, query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    if (clientSignal()?.aborted) return;
    super.logQueryError(error, query, parameters, queryRunner);
  }
}
