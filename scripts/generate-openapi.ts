import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/common/config.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

/**
 * Writes openapi/openapi.json from the compiled code. Preview mode builds the module graph without
 * instantiating providers, so no database is started and no port is opened.
 */
const app = await createApp(loadConfig({ LOG_LEVEL: 'error' }), { preview: true });
const document = buildOpenApiDocument(app);
mkdirSync('openapi', { recursive: true });
writeFileSync('openapi/openapi.json', `${JSON.stringify(document, null, 2)}\n`);
await app.close();
console.log(`openapi/openapi.json: ${Object.keys(document.paths).length} paths`);
