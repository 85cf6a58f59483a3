import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31.js';
import { describeServedBehaviour } from './served-behaviour.js';

/**
 * The OpenAPI 3.1 description of the running code, as served (global headers and answers included),
 * with keys sorted so diffs of the committed spec stay small — but for the media types of a body that
 * may be a file in any format. In an answer `application/octet-stream` comes first: generators read
 * an answer by the first type they can (openapi-python-client read a game's export as JSON when
 * `application/json` led, and failed on an SGF). In a request body it comes last but for the
 * multipart form: openapi-python-client labels a raw body with the last file type listed (it sent
 * an SGF as `text/xml`; octet-stream lets the archive detect the format), and @hey-api/openapi-ts
 * types the body by the first type that is not JSON, which must not be the form.
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
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A token from POST /tokens, or a key of API_KEYS.' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  const described = describeServedBehaviour(toOpenApi31(document as unknown as Record<string, unknown>));
  return sortKeys(described) as OpenAPIObject;
}

const OCTET_STREAM = 'application/octet-stream';
const MULTIPART = 'multipart/form-data';

/** Where a `content` map stands: in a request body, in an answer, or neither (no content map here). */
type ContentPlace = 'request' | 'answer' | undefined;

function sortKeys(value: unknown, place?: ContentPlace, parentKey?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, place));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort();
  if (parentKey === 'content' && place !== undefined && keys.includes(OCTET_STREAM)) {
    const last = place === 'answer' ? [] : [OCTET_STREAM, MULTIPART].filter((type) => keys.includes(type));
    const others = keys.filter((key) => key !== OCTET_STREAM && !last.includes(key));
    keys.splice(0, keys.length, ...(place === 'answer' ? [OCTET_STREAM, ...others] : [...others, ...last]));
  }
  return Object.fromEntries(
    keys.map((key) => {
      const inner: ContentPlace = key === 'requestBody' ? 'request' : key === 'responses' ? 'answer' : place;
      return [key, sortKeys((value as Record<string, unknown>)[key], inner, key)];
    }),
  );
}
