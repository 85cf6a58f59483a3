import { Global, Module } from '@nestjs/common';
import { FormatReader } from '../formats/format-reader.js';
import { FORMAT_PLUGINS } from '../formats/registry.js';
import { FormatIndexController } from './format-index.controller.js';

/** Makes the registered format plugins available to the archive, and serves the format index. */
@Global()
@Module({
  controllers: [FormatIndexController],
  providers: [{ provide: FormatReader, useFactory: () => new FormatReader(FORMAT_PLUGINS) }],
  exports: [FormatReader],
})
export class FormatIndexModule {}
