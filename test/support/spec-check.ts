import { readFileSync } from 'node:fs';
import { OpenAPIBackend } from 'openapi-backend';
import type { Document } from 'openapi-backend';

/**
 * Every answer the end-to-end suites receive from an archive is checked against
 * `openapi/openapi.json` by an OpenAPI validator (openapi-backend): the operation documents the
 * status, the content type, every documented response header's form, and the body's schema. A
 * drift between the code and the committed spec fails the suite that met it.
 */
const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as Document;
// openapi-backend validates `application/json` bodies only; problem+json is JSON too, so the
// validator gets a copy of the spec where problem bodies are filed under application/json.
const definition = JSON.parse(JSON.stringify(document).replaceAll('"application/problem+json":', '"application/json":')) as Document;
// The document itself is linted by @redocly/cli in CI; its OpenAPI 3.1 form is past this library's
// own document validator, so that step is skipped (quick) and only responses are validated here.
const api = new OpenAPIBackend({ definition, quick: true, strict: true, validate: true, ajvOpts: { strict: false, validateFormats: false } });
const ready = api.init();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SpecViolation {
  readonly request: string;
  readonly status: number;
  readonly problems: string[];
}

/** Checks one exchange; returns what does not match the spec (nothing when all is well). */
export async function checkAgainstSpec(method: string, url: URL, requestHeaders: Headers, response: Response): Promise<SpecViolation | undefined> {
  await ready;
  // The documentation UI (/docs) is not part of the API it documents.
  if (url.pathname === '/docs' || url.pathname.startsWith('/docs/')) return undefined;
  // Nor is the web viewer, a client of it: its page and its assets.
  if (url.pathname === '/' || url.pathname.startsWith('/assets/')) return undefined;
  const operation = api.matchOperation({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: Object.fromEntries(requestHeaders) });
  const request = `${method} ${url.pathname}${url.search}`;
  if (!operation) {
    // Routes the archive does not have are answered 404 problem+json; nothing else is undocumented.
    const problems = response.status === 404 && (response.headers.get('content-type') ?? '').startsWith('application/problem+json') ? [] : ['no operation of the spec matches this request'];
    return problems.length > 0 ? { request, status: response.status, problems } : undefined;
  }
  const problems: string[] = [];
  const documented = (operation.responses ?? {}) as Json;
  const answer = documented[String(response.status)] ?? documented[`${String(response.status)[0]}XX`] ?? documented.default;
  if (!answer) {
    problems.push(`status ${response.status} is not documented for ${operation.operationId}`);
    return { request, status: response.status, problems };
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  const content = (answer.content ?? {}) as Json;
  const body = response.status === 204 || response.status === 304 || method === 'HEAD' ? '' : await response.clone().text();
  if (body.length > 0) {
    const declared = Object.keys(content).map((key) => (key === 'application/json' && type === 'application/problem+json' ? type : key));
    if (!declared.includes(type) && !declared.includes('*/*')) problems.push(`content type ${type} is not among ${declared.join(', ') || 'none'}`);
    if (type === 'application/json' || type === 'application/problem+json') {
      const schema = content['application/json']?.schema;
      if (schema) {
        const result = api.validateResponse(JSON.parse(body), operation, response.status);
        for (const error of result.errors ?? []) problems.push(`body ${error.instancePath || '/'} ${error.message} (${JSON.stringify(error.params)})`);
      }
    }
  } else if (Object.keys(content).length > 0 && response.status !== 304 && !Object.keys(content).every((key) => key === 'application/x-ndjson')) {
    // An NDJSON stream of no records is empty (an import that failed before its first file has no results).
    problems.push('the body is empty but the spec documents content');
  }
  // Headers: each one served has the documented form, and each one documented as required is served.
  const headers = Object.fromEntries(response.headers);
  const headerResult = api.validateResponseHeaders(headers, operation, { statusCode: response.status, setMatchType: 'any' as never });
  for (const error of headerResult.errors ?? []) problems.push(`header ${error.instancePath || ''} ${error.message} (${JSON.stringify(error.params)})`);
  for (const [name, header] of Object.entries((answer.headers ?? {}) as Json)) {
    if (header.required === true && !response.headers.has(name)) problems.push(`the required header ${name} is missing`);
  }
  return problems.length > 0 ? { request, status: response.status, problems } : undefined;
}

const archives = new Set<string>();
let installed = false;

/**
 * Routes this test file's fetch calls to an archive through the check: a response that departs
 * from the spec makes the fetch fail with what departs.
 */
export function checkResponsesOf(baseUrl: string): () => void {
  archives.add(baseUrl);
  if (!installed) {
    installed = true;
    const plainFetch = globalThis.fetch;
    globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
      const href = input instanceof Request ? input.url : String(input);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      const response = await plainFetch(input, init);
      if (![...archives].some((base) => href.startsWith(base))) return response;
      const violation = await checkAgainstSpec(method, new URL(href), headers, response);
      if (violation) throw new Error(`the answer departs from openapi/openapi.json: ${violation.request} → ${violation.status}\n  ${violation.problems.join('\n  ')}`);
      return response;
    };
  }
  return () => archives.delete(baseUrl);
}
