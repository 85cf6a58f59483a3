import { Module } from '@nestjs/common';
import { PatternsController } from './patterns.controller.js';
import { PatternsRepository } from './patterns.repository.js';
import { PatternsService } from './patterns.service.js';

@Module({
  controllers: [PatternsController],
  providers: [PatternsService, PatternsRepository],
})
export class PatternsModule {}
