import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module.js';
import { ImportRunner } from './import-runner.js';
import { ImportsController } from './imports.controller.js';
import { ImportsRepository } from './imports.repository.js';
import { ImportsService } from './imports.service.js';

@Module({
  imports: [UploadsModule],
  controllers: [ImportsController],
  providers: [ImportsService, ImportsRepository, ImportRunner],
})
export class ImportsModule {}
