/**
 * What the archive does for every route, added to every operation of the document so that the
 * description matches what is served: the request id, the rate limits, conditional GETs with ETags,
 * the HTTP layer's refusals, an unreachable database or a full disk, and which operations need an API key.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Headers served on every answer or on some, shared through `components.headers`. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    required: true,
    description: "The id of this request, as in the access log and any problem answer (the client's own X-Request-Id when it sent a plain token).",
    schema: { type: 'string' },
  },
  'RateLimit-Limit': integerHeader('Units this client may spend in the window (when rate limits are on): a read costs units by its kind (docs/limits.md), a write one of the write budget.'),
  'RateLimit-Remaining': integerHeader('Units left in the window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
  'Retry-After': { ...integerHeader('Seconds to wait before retrying.'), required: true },
  ETag: { required: true, description: "The representation's tag; send it as If-None-Match to get 304 while it is unchanged.", schema: { type: 'string' } },
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const EVERY_ANSWER = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Answers any route can get, shared through `components.responses`. */
const COMMON_PROBLEMS: Record<string, [string, Json]> = {
  '400': ['BadRequest', { description: 'The request is malformed: a bad parameter, a control character in a text parameter, or bad HTTP framing.', content: PROBLEM }],
  '401': [
    'Unauthorized',
    {
      description:
        'A token that is not valid: unknown, revoked, expired, or sent in the URL (`auth.invalid`); or none, where the operation or PUBLIC_READS=false asks for one (`auth.required`).',
      content: PROBLEM,
      headers: { 'WWW-Authenticate': { description: '`Bearer`.', schema: { type: 'string' } } },
    },
  ],
  '408': ['RequestTimeout', { description: 'The request did not arrive whole within REQUEST_TIMEOUT_MS (or its headers within HEADERS_TIMEOUT_MS).', content: PROBLEM }],
  '429': [
    'TooManyRequests',
    {
      description:
        "This client's budget is spent: read units (RATE_LIMIT_PER_MINUTE by address, RATE_LIMIT_KEY_PER_MINUTE by token; a request costs units by its kind, docs/limits.md), " +
        'writes (RATE_LIMIT_WRITES_PER_MINUTE, RATE_LIMIT_KEY_WRITES_PER_MINUTE), or expensive requests in flight at once (EXPENSIVE_IN_FLIGHT_PER_CLIENT).',
      content: PROBLEM,
      headers: { 'Retry-After': ref('Retry-After') },
    },
  ],
  '431': ['HeadersTooLarge', { description: 'The request headers are larger than the server accepts.', content: PROBLEM }],
  '500': ['InternalError', { description: 'A fault of the server, logged with the request id.', content: PROBLEM }],
  '503': [
    'Unavailable',
    {
      description: 'The database does not answer or does not accept connections now (`service.unavailable`), or every analysis thread is busy and the queue is full (`analysis.busy`).',
      content: PROBLEM,
      headers: { 'Retry-After': ref('Retry-After') },
    },
  ],
  '507': [
    'InsufficientStorage',
    {
      description: "A disk is full, the database's or the one holding the import spool (`service.storage_full`): nothing was stored.",
      content: PROBLEM,
      headers: { 'Retry-After': ref('Retry-After') },
    },
  ],
};


export function describeServedBehaviour(document: Json): Json {
  const components = (document.components ??= {});
  components.headers = { ...(components.headers ?? {}), ...HEADERS };
  components.responses = { ...(components.responses ?? {}) };
  for (const [name, response] of Object.values(COMMON_PROBLEMS)) {
    components.responses[name] = { ...response, headers: { ...withEveryAnswer({}), ...(response.headers ?? {}) } };
  }
  for (const operations of Object.values(document.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      describeOperation(method, operation);
    }
  }
  const bearer = components.securitySchemes?.bearer;
  if (bearer) {
    delete bearer.bearerFormat;
    bearer.description =
      'A token (`tabula_<id>_<secret>`, from POST /tokens) or a key of API_KEYS. A write names the scope it needs in its ' +
      'requirement (`games:write`, `games:delete`, `games:reindex`, `admin`; `admin` holds them all); reads need any token ' +
      'when the archive sets PUBLIC_READS=false.';
  }
  return document;
}

function withEveryAnswer(headers: Json): Json {
  return { ...Object.fromEntries(EVERY_ANSWER.map((name) => [name, ref(name)])), ...headers };
}

function describeOperation(method: string, operation: Json): void {
  const responses = operation.responses as Json;
  for (const [status, [name]] of Object.entries(COMMON_PROBLEMS)) {
    // /health is anyone's: no credential is read there.
    if (status === '401' && operation.operationId === 'health') continue;
    responses[status] ??= { $ref: `#/components/responses/${name}` };
  }
  // JSON answers carry ETags; a file download that may be JSON (a game file's own type) is bytes.
  const json = responses['200']?.content?.['application/json'];
  const conditional = method === 'get' && json !== undefined && json.schema?.format !== 'binary';
  const declared = (operation.parameters ?? []).some((parameter: Json) => parameter.in === 'header' && parameter.name === 'If-None-Match');
  if (conditional && !declared) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { in: 'header', name: 'If-None-Match', required: false, description: 'ETags of representations the client has; 304 while one still matches.', schema: { type: 'string' } },
    ];
    responses['304'] ??= { description: 'Not modified: the If-None-Match tag still matches.' };
  }
  for (const [status, response] of Object.entries(responses)) {
    if (response.$ref) continue;
    const etag = conditional && (status === '200' || status === '304') ? { ETag: ref('ETag') } : {};
    response.headers = withEveryAnswer({ ...etag, ...(response.headers ?? {}) });
  }
  // Writes name the scope they need (the Requires decorator). Reads take a token, which they need
  // when PUBLIC_READS=false: anonymous or bearer. /health is anyone's.
  if (!operation.security) operation.security = operation.operationId === 'health' ? [] : [{}, { bearer: [] }];
}
