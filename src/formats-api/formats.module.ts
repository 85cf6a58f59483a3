import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../common/config.js';
import { FormatReader } from '../formats/format-reader.js';
import { loadPluginModules } from '../formats/plugin-modules.js';
import { FORMAT_PLUGINS } from '../formats/registry.js';
import { FormatsController } from './formats.controller.js';

/** Makes the registered format plugins (and those of FORMAT_PLUGIN_MODULES) available to the archive, and serves the format index. */
@Global()
@Module({
  controllers: [FormatsController],
  providers: [
    {
      provide: FormatReader,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => new FormatReader([...FORMAT_PLUGINS, ...(await loadPluginModules(config.formatPluginModules))]),
    },
  ],
  exports: [FormatReader],
})
export class FormatsApiModule {}
