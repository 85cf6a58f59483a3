import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../common/config.js';
import { DataDirLock } from './data-dir-lock.js';
import { runMigrations } from './database-options.js';
import { EmbeddedPostgres } from './embedded-postgres.js';
import type { EmbeddedOutage } from './embedded-postgres.js';

/**
 * Which PostgreSQL the archive uses: DATABASE_URL when given, otherwise an embedded one in DATA_DIR.
 */
@Injectable()
export class DatabaseTarget implements OnApplicationShutdown {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    readonly poolSize: number,
    private readonly embedded: EmbeddedPostgres | undefined,
    private readonly lock: DataDirLock | undefined,
    private readonly moduleRef: ModuleRef,
  ) {}

  static async open(config: AppConfig, moduleRef: ModuleRef): Promise<DatabaseTarget> {
    if (config.DATABASE_URL) {
      DatabaseTarget.logger.log(`using PostgreSQL at ${redact(config.DATABASE_URL)}`);
      return new DatabaseTarget(config.DATABASE_URL, config.DATABASE_POOL_SIZE, undefined, undefined, moduleRef);
    }
    // One process per DATA_DIR: PGlite has no locking of its own. A DataDirLockedError stops the boot.
    const lock = config.DATA_DIR === 'memory://' ? undefined : DataDirLock.acquire(config.DATA_DIR, (message) => DatabaseTarget.logger.warn(message));
    let embedded: EmbeddedPostgres;
    try {
      // TABULA_TEST_ENOSPC_FILE is for the fault tests alone (a full disk without root): see DurableNodeFS.
      embedded = await EmbeddedPostgres.start(config.DATA_DIR, process.env.TABULA_TEST_ENOSPC_FILE || undefined);
    } catch (error) {
      lock?.release();
      throw error;
    }
    DatabaseTarget.logger.log(`using embedded PostgreSQL (PGlite) in ${config.DATA_DIR}, on the socket ${embedded.socketPath}`);
    return new DatabaseTarget(embedded.url, EmbeddedPostgres.MAX_CONNECTIONS, embedded, lock, moduleRef);
  }

  /** Null while the embedded database serves (or with DATABASE_URL); while it is stopped and restarted, why and since when. */
  embeddedOutage(): EmbeddedOutage | null {
    return this.embedded?.outage() ?? null;
  }

  /** Whether the database is the embedded one, which has no autovacuum of its own. */
  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  /**
   * Applies the pending migrations, on a connection of their own that is closed again before this
   * returns; on a PostgreSQL server under its advisory lock, as other nodes may be starting too.
   */
  async migrate(): Promise<void> {
    await runMigrations(this.url, { lock: !this.embedded });
    await this.embedded?.whenNoConnections();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    // The pool must close before the embedded server it talks to.
    const dataSource = this.moduleRef.get<DataSource>(getDataSourceToken(), { strict: false });
    if (dataSource?.isInitialized) await dataSource.destroy();
    try {
      await this.embedded.stop();
    } finally {
      // Only once PGlite has closed its files may another process open them.
      this.lock?.release();
    }
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

export const DATABASE_TARGET_PROVIDER = {
  provide: DatabaseTarget,
  inject: [AppConfig, ModuleRef],
  useFactory: (config: AppConfig, moduleRef: ModuleRef) => DatabaseTarget.open(config, moduleRef),
};

