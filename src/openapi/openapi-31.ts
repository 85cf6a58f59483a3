/**
 * Turns the OpenAPI 3.0 document Nest's Swagger module writes into OpenAPI 3.1, the form typed
 * client generators read without guessing: nullability becomes JSON Schema (`type: ['string',
 * 'null']`, `oneOf: [{ $ref }, { type: 'null' }]`) instead of `nullable`, whose meaning beside a
 * `$ref` or `allOf` generators disagree on.
 */
type Json = Record<string, unknown>;

export function toOpenApi31(document: Json): Json {
  const converted = convert(document) as Json;
  converted.openapi = '3.1.0';
  return converted;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const node = Object.fromEntries(Object.entries(value as Json).map(([key, inner]) => [key, convert(inner)])) as Json;
  return looksLikeSchema(node) ? convertSchema(node) : node;
}

function looksLikeSchema(node: Json): boolean {
  return 'nullable' in node || (Array.isArray(node.allOf) && node.allOf.length === 1);
}

function convertSchema(schema: Json): Json {
  const { nullable, allOf, ...rest } = schema;
  let result: Json = rest;
  // A lone allOf wraps a $ref only to give it siblings (a description); 3.1 allows those beside $ref.
  if (Array.isArray(allOf)) {
    if (allOf.length === 1) result = { ...(allOf[0] as Json), ...rest };
    else result = { ...rest, allOf };
  }
  if (nullable !== true) return result;
  if (typeof result.$ref === 'string') {
    // A `type` beside the reference would refuse null; the referenced schema has its own.
    const { $ref, type: _type, ...siblings } = result;
    return { ...siblings, oneOf: [{ $ref }, { type: 'null' }] };
  }
  if (Array.isArray(result.enum) && !result.enum.includes(null)) result = { ...result, enum: [...result.enum, null] };
  if (typeof result.type === 'string') return { ...result, type: [result.type, 'null'] };
  if (Array.isArray(result.type) && !result.type.includes('null')) return { ...result, type: [...result.type, 'null'] };
  return { ...result, oneOf: [{ ...result }, { type: 'null' }] };
}
