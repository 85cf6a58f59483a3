import { Module } from '@nestjs/common';
import { ExportController } from './export/export.controller.js';
import { ExportService } from './export/export.service.js';
import { GamesController } from './games.controller.js';
import { GamesRepository } from './games.repository.js';
import { GamesService } from './games.service.js';
import { ReindexController } from './reindex.controller.js';

@Module({
  // ExportController first: its /games/export must be routed before /games/{id}.
  controllers: [ExportController, GamesController, ReindexController],
  providers: [GamesService, GamesRepository, ExportService],
  exports: [GamesRepository],
})
export class GamesModule {}
