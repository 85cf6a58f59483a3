import { Module } from '@nestjs/common';
import { GamesController } from './games.controller.js';
import { GamesRepository } from './games.repository.js';
import { GamesService } from './games.service.js';
import { ReindexController } from './reindex.controller.js';

@Module({
  controllers: [GamesController, ReindexController],
  providers: [GamesService, GamesRepository],
  exports: [GamesRepository],
})
export class GamesModule {}
