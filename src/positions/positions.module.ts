import { Module } from '@nestjs/common';
import { readsProvider } from '../database/read-replicas.js';
import { PositionsController } from './positions.controller.js';
import { PositionsRepository } from './positions.repository.js';
import { PositionsService } from './positions.service.js';

@Module({
  controllers: [PositionsController],
  providers: [PositionsService, PositionsRepository, readsProvider(PositionsRepository)],
})
export class PositionsModule {}
