import { DynamicModule, Global, Module } from '@nestjs/common';
import { AnalysisModule } from './analysis/analysis.module.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { AppConfig } from './common/config.js';
import { DatabaseModule } from './database/database.module.js';
import { DotsServerModule } from './dots-server/dots-server.module.js';
import { FormatsApiModule } from './formats-api/formats.module.js';
import { GamesModule } from './games/games.module.js';
import { IdentityModule } from './identity/identity.module.js';
import { HealthController } from './health/health.controller.js';
import { ImportsModule } from './imports/imports.module.js';
import type { IndexDefinition } from './indexes/game-index.js';
import { IndexesModule } from './indexes/indexes.module.js';
import { PlayersModule } from './players/players.module.js';
import { PositionsModule } from './positions/positions.module.js';
import { PatternsModule } from './patterns/patterns.module.js';
import { TagsModule } from './tags/tags.module.js';
import { UploadsModule } from './uploads/uploads.module.js';

@Global()
@Module({})
class ConfigModule {
  static with(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}

@Module({})
export class AppModule {
  /** `indexes`: indexes registered besides the registry's (a test's own). */
  static with(config: AppConfig, indexes: readonly IndexDefinition[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.with(config), DatabaseModule, IndexesModule.with(indexes), AccountsModule, AnalysisModule, FormatsApiModule, GamesModule, UploadsModule, ImportsModule, PlayersModule, PositionsModule, PatternsModule, IdentityModule, TagsModule, DotsServerModule],
      controllers: [HealthController],
    };
  }
}
