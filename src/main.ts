import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './common/config.js';

async function main(): Promise<void> {
  let config;
  let app;
  try {
    config = loadConfig();
    app = await createApp(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  await app.listen(config.PORT, config.HOST);
  new Logger('Tabula').log(`serving the archive on ${await app.getUrl()} (API docs at /docs)`);
}

await main();
