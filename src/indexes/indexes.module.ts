import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../common/config.js';
import { DatabaseTarget } from '../database/database-target.js';
import { DatabaseModule } from '../database/database.module.js';
import type { IndexDefinition } from './game-index.js';
import { Indexes } from './indexes.js';

/** The indexes on (src/indexes/indexes.ts), for the games' writer and the analysis threads. */
@Global()
@Module({})
export class IndexesModule {
  /** `extra`: indexes registered besides the registry's (a test's own), as createApp's `indexes` option gives them. */
  static with(extra: readonly IndexDefinition[] = []): DynamicModule {
    return {
      module: IndexesModule,
      imports: [DatabaseModule],
      providers: [
        {
          provide: Indexes,
          inject: [DataSource, DatabaseTarget, AppConfig],
          useFactory: (dataSource: DataSource, target: DatabaseTarget, config: AppConfig) => new Indexes(dataSource, target.isEmbedded, config, extra),
        },
      ],
      exports: [Indexes],
    };
  }
}
