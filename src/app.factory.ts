import { INestApplication, Logger, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { answerConditionalRequestsByEtag } from './common/conditional-requests.js';
import { ConfigError } from './common/config.js';
import { crossOriginPolicy } from './common/download-headers.js';
import type { AppConfig } from './common/config.js';
import { loadPluginModules } from './formats/plugin-modules.js';
import type { IndexDefinition } from './indexes/game-index.js';
import { chosenIndexes } from './indexes/indexes.js';
import { GAME_INDEXES } from './indexes/registry.js';
import { guardHttpServer, rateLimits } from './common/http-guards.js';
import { Credentials } from './accounts/credentials.js';
import { callerOf } from './accounts/caller.js';
import { readCredentials } from './accounts/credentials.middleware.js';
import { AuditedRoutes } from './accounts/audited-routes.js';
import { accessLog, createLogger, NestPinoLogger } from './common/logging.js';
import { ProblemDetailsFilter } from './common/problem-details.filter.js';
import { refuseControlCharacters } from './common/text-parameters.middleware.js';
import { watchClients } from './common/client-gone.js';
import { serveViewer } from './common/viewer.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/**
 * The configured application, not yet listening: shared by `main.ts`, the tests and the OpenAPI
 * generator so they all see the same pipes, filters, limits and routes.
 */
export async function createApp(config: AppConfig, options: { preview?: boolean; indexes?: readonly IndexDefinition[] } = {}): Promise<INestApplication> {
  // Checked before anything starts, with a message naming the setting (the providers load them again from the module cache).
  try {
    await loadPluginModules(config.formatPluginModules);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  FORMAT_PLUGIN_MODULES: ${(error as Error).message}`);
  }
  // INDEXES names registered indexes: checked here too, so a mistake is told as the settings' other mistakes are.
  chosenIndexes(config, [...GAME_INDEXES, ...(options.indexes ?? [])]);
  const logger = createLogger(config);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.with(config, options.indexes), {
    // Uploads are read raw by the games controller: no parser may consume or reshape them.
    bodyParser: false,
    preview: options.preview,
    // Keep-alive connections must not hold a shutdown open.
    forceCloseConnections: true,
    logger: new NestPinoLogger(logger),
  });
  app.set('query parser', 'simple');
  app.disable('x-powered-by');
  answerConditionalRequestsByEtag(app.getHttpAdapter().getInstance());
  if (config.TRUST_PROXY_HOPS > 0) app.set('trust proxy', config.TRUST_PROXY_HOPS);
  // Order matters: every request gets its id and access-log line first, then the limits apply.
  app.use(accessLog(logger, (request) => callerOf(request).tokenId));
  // Before credentials and limits, so that their refusals reach the listed sites' pages too; off unless CORS_ORIGINS lists sites.
  if (config.corsOrigins.length > 0) app.enableCors(crossOriginPolicy(config.corsOrigins));
  app.use(watchClients);
  app.use(readCredentials(app.get(Credentials)));
  // Writes are recorded from here, refused by the limits or not.
  app.use(app.get(AuditedRoutes).follow());
  // Counted in the database on a PostgreSQL server (every node shares it), in memory on the embedded one (one process).
  app.use(rateLimits(config, (request) => callerOf(request).tokenId, config.DATABASE_URL ? app.get(DataSource) : undefined));
  app.use(refuseControlCharacters);
  serveViewer(app);
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  guardHttpServer(app.getHttpServer() as Server, config, logger);
  if (!options.preview) {
    SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs/openapi.json' });
    if (config.apiKeys.length === 0) {
      new Logger('Security').warn(
        `API_KEYS is not set: the archive is open, and anyone who can reach this service can upload and delete games${config.OPEN_ARCHIVE === true ? ' (OPEN_ARCHIVE=true)' : ''}`,
      );
    }
  }
  return app;
}
