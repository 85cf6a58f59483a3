import { INestApplication, Logger, LogLevel, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import type { AppConfig } from './common/config.js';
import { ProblemDetailsFilter } from './common/problem-details.filter.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * The configured application, not yet listening: shared by `main.ts`, the tests and the OpenAPI
 * generator so they all see the same pipes, filters and routes.
 */
export async function createApp(config: AppConfig, options: { preview?: boolean } = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.with(config), {
    // Uploads are read raw by the games controller: no parser may consume or reshape them.
    bodyParser: false,
    preview: options.preview,
    logger: LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  app.set('query parser', 'simple');
  app.disable('x-powered-by');
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  if (!options.preview) {
    SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs/openapi.json' });
    if (config.apiKeys.length === 0) {
      new Logger('Security').warn('API_KEYS is not set: anyone who can reach this service can upload and delete games');
    }
  }
  return app;
}
