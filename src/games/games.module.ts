import { Module } from '@nestjs/common';
import { readsProvider } from '../database/read-replicas.js';
import { ExportController } from './export/export.controller.js';
import { ExportService } from './export/export.service.js';
import { GamesController } from './games.controller.js';
import { GamesExportRepository } from './games-export.repository.js';
import { GamesSearchRepository } from './games-search.repository.js';
import { GamesViewRepository } from './games-view.repository.js';
import { GamesWriteRepository } from './games-write.repository.js';
import { GamesService } from './games.service.js';
import { ReindexController } from './reindex.controller.js';
import { DatabaseModule } from '../database/database.module.js';
import { IdentityModule } from '../identity/identity.module.js';

@Module({
  imports: [DatabaseModule, IdentityModule],
  // ExportController first: its /games/export must be routed before /games/{id}.
  controllers: [ExportController, GamesController, ReindexController],
  providers: [
    GamesService,
    GamesWriteRepository,
    GamesSearchRepository,
    GamesViewRepository,
    GamesExportRepository,
    readsProvider(GamesSearchRepository),
    readsProvider(GamesViewRepository),
    readsProvider(GamesExportRepository),
    ExportService,
  ],
  exports: [GamesWriteRepository],
})
export class GamesModule {}
