import { Module } from '@nestjs/common';
import { PatternsController } from './patterns.controller.js';
import { PatternsRepository } from './patterns.repository.js';
import { PatternsService } from './patterns.service.js';
import { DraughtsRepository } from './draughts.repository.js';
import { DraughtsSearchService } from './draughts-search.service.js';

@Module({
  controllers: [PatternsController],
  providers: [PatternsService, PatternsRepository, DraughtsSearchService, DraughtsRepository],
})
export class PatternsModule {}
