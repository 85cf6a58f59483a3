import { Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module.js';
import { IdentityModule } from '../identity/identity.module.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsRepository } from './uploads.repository.js';
import { UploadsService } from './uploads.service.js';

@Module({
  imports: [GamesModule, IdentityModule],
  controllers: [UploadsController],
  providers: [UploadsService, UploadsRepository],
  exports: [UploadsService],
})
export class UploadsModule {}
