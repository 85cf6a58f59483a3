import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../common/config.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

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
    private readonly moduleRef: ModuleRef,
  ) {}

  static async open(config: AppConfig, moduleRef: ModuleRef): Promise<DatabaseTarget> {
    if (config.DATABASE_URL) {
      DatabaseTarget.logger.log(`using PostgreSQL at ${redact(config.DATABASE_URL)}`);
      return new DatabaseTarget(config.DATABASE_URL, config.DATABASE_POOL_SIZE, undefined, moduleRef);
    }
    const embedded = await EmbeddedPostgres.start(config.DATA_DIR);
    DatabaseTarget.logger.log(`using embedded PostgreSQL (PGlite) in ${config.DATA_DIR}`);
    return new DatabaseTarget(embedded.url, EmbeddedPostgres.MAX_CONNECTIONS, embedded, moduleRef);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    // The pool must close before the embedded server it talks to.
    const dataSource = this.moduleRef.get<DataSource>(getDataSourceToken(), { strict: false });
    if (dataSource?.isInitialized) await dataSource.destroy();
    await this.embedded.stop();
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

