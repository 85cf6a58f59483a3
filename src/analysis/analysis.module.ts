import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../common/config.js';
import { Indexes } from '../indexes/indexes.js';
import { AnalysisPool } from './analysis-pool.js';

/** The analysis threads every plugin runs on, sized and bounded by the settings, making the parts of the replay the indexes on take. */
@Global()
@Module({
  providers: [
    {
      provide: AnalysisPool,
      inject: [AppConfig, Indexes],
      useFactory: (config: AppConfig, indexes: Indexes) =>
        new AnalysisPool({
          threads: config.ANALYSIS_THREADS,
          writeThreads: config.ANALYSIS_WRITE_THREADS,
          queue: config.ANALYSIS_QUEUE,
          readQueue: config.ANALYSIS_READ_QUEUE,
          timeoutMs: config.ANALYSIS_TIMEOUT_MS,
          memoryMb: config.ANALYSIS_MEMORY_MB,
          budgetMs: config.ANALYSIS_BUDGET_MS,
          limits: config.limits,
          pluginModules: config.formatPluginModules,
          replayParts: indexes.takes,
        }),
    },
  ],
  exports: [AnalysisPool],
})
export class AnalysisModule {}
