/**
 * What a request costs its client, in one table (docs/limits.md). A read is priced in units
 * against the client's unit budget (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_KEY_PER_MINUTE); a write —
 * an upload, an import, a deletion, a reindex, a token made or revoked — counts one against the
 * separate write budget (RATE_LIMIT_WRITES_PER_MINUTE, RATE_LIMIT_KEY_WRITES_PER_MINUTE), so reads
 * never use up what a client may write. A read priced at EXPENSIVE_UNITS or more also counts, while
 * it runs, toward the client's expensive requests in flight (EXPENSIVE_IN_FLIGHT_PER_CLIENT).
 *
 * The prices are relative, not measured: a plain read is 1, and what takes a database search over
 * every game or a picture of millions of pixels is priced as the dozens of plain reads it displaces.
 */

/** Which budget a request draws on: units of reads, one write, or none (never limited). */
export type CostBudget = 'reads' | 'writes' | 'free';

export interface RequestCost {
  readonly budget: CostBudget;
  /** Units of the read budget (reads), 1 (writes) or 0 (free). */
  readonly units: number;
  /** Counts toward the client's expensive requests in flight. */
  readonly expensive: boolean;
  /** The table's name for the kind of request, for the refusal's detail. */
  readonly kind: string;
}

/** A read priced at this many units or more is expensive: it counts while in flight. */
export const EXPENSIVE_UNITS = 10;

/** The side, in pixels, whose square picture costs one unit on top of the request. */
export const PICTURE_UNIT_SIDE = 512;

// The picture sizes GET /games/{id}/board.svg accepts and draws by default (src/render/svg.ts; src/common may not import it).
const PICTURE_MIN_SIDE = 64;
const PICTURE_MAX_SIDE = 2048;
const PICTURE_DEFAULT_SIDE = 480;

type Query = Readonly<Record<string, unknown>>;

interface CostRule {
  readonly methods: readonly string[];
  /** Matched against the lower-cased path without its trailing slashes, as Express routes it. */
  readonly path: RegExp;
  readonly kind: string;
  readonly units: number | ((query: Query) => number);
  /** Default 'reads'. */
  readonly budget?: CostBudget;
}

/**
 * The cost table, first match wins. A GET (or HEAD) no rule names costs 1 (a plain read: a game,
 * its raw file, a player, an upload's or an import's state, the formats, the viewer, the API docs);
 * a POST, PUT, PATCH or DELETE no rule names is a write.
 */
export const COST_TABLE: readonly CostRule[] = [
  { methods: ['GET'], path: /^\/health$/, kind: 'health check', units: 0, budget: 'free' },
  { methods: ['GET'], path: /^\/games\/[^/]+\/board\.svg$/, kind: 'board picture', units: boardPictureUnits },
  { methods: ['GET', 'POST'], path: /^\/games\/export$/, kind: 'bulk export', units: 30 },
  { methods: ['GET', 'POST'], path: /^\/positions\/(games|explorer)$/, kind: 'position search', units: 15 },
  { methods: ['POST'], path: /^\/patterns\/games$/, kind: 'pattern search', units: 15 },
  { methods: ['GET'], path: /^\/games\/[^/]+\/(replay|regenerated|export|relatives)$/, kind: 'replay, conversion or relatives of one game', units: 3 },
  { methods: ['GET'], path: /^\/(games|players|players\/[^/]+\/games|imports\/[^/]+\/results|tokens|audit|tags)$/, kind: 'search or listing', units: 2 },
];

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PLAIN_READ: RequestCost = { budget: 'reads', units: 1, expensive: false, kind: 'read' };
const WRITE: RequestCost = { budget: 'writes', units: 1, expensive: false, kind: 'write' };

/** The cost of a request: its method, its path (without the query) and its parsed query. */
export function costOf(method: string, path: string, query: Query = {}): RequestCost {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const routed = path.toLowerCase().replace(/\/+$/, '') || '/';
  for (const rule of COST_TABLE) {
    if (!rule.methods.includes(verb) || !rule.path.test(routed)) continue;
    const budget = rule.budget ?? 'reads';
    const units = budget === 'free' ? 0 : typeof rule.units === 'number' ? rule.units : rule.units(query);
    return { budget, units, expensive: budget === 'reads' && units >= EXPENSIVE_UNITS, kind: rule.kind };
  }
  return WRITE_METHODS.has(verb) ? WRITE : PLAIN_READ;
}

/**
 * A board picture: 1, plus 1 for each 512² pixels it has (rounded up), twice that as a PNG (drawn in
 * pixels rather than described): 480 px SVG (the default) 2, 2048 px SVG 17, 2048 px PNG 34. A size
 * the route will refuse is priced as the nearest one it accepts; a size given twice, as the larger.
 */
function boardPictureUnits(query: Query): number {
  const sizes = valuesOf(query.size)
    .map(Number)
    .filter((size) => Number.isFinite(size));
  const asked = sizes.length === 0 ? PICTURE_DEFAULT_SIDE : Math.max(...sizes);
  const side = Math.min(PICTURE_MAX_SIDE, Math.max(PICTURE_MIN_SIDE, asked));
  const png = valuesOf(query.format).some((format) => format.toLowerCase() === 'png');
  return (1 + Math.ceil((side * side) / (PICTURE_UNIT_SIDE * PICTURE_UNIT_SIDE))) * (png ? 2 : 1);
}

/** A query parameter's values: the simple query parser gives a string, or an array when repeated. */
function valuesOf(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
}
