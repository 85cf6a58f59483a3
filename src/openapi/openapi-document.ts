import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31.js';
import { describeServedBehaviour } from './served-behaviour.js';

/**
 * The OpenAPI 3.1 description of the running code, as served (global headers and answers included),
 * with keys sorted so diffs of the committed spec stay small.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Tabula')
    .setDescription(
      'A game-record archive: upload game files in many formats, keep them verbatim, replay them under their rules, ' +
        'search and download them.',
    )
    .setVersion('0.1.0')
    .addServer('http://localhost:3000', 'An archive started with npm start')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key from API_KEYS (needed for uploads and deletes when set).' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  const described = describeServedBehaviour(toOpenApi31(document as unknown as Record<string, unknown>));
  return sortKeys(described) as OpenAPIObject;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
