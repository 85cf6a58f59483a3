import { ProblemException } from '../common/problem-codes.js';
import { ACCOUNT_NAME } from '../accounts/scopes.js';
import { controlCharacterIn } from '../common/text-parameters.middleware.js';
import { FAMILIES, GAME_ENDINGS } from '../formats/plugin.js';
import type { Family, GameEnding } from '../formats/plugin.js';
import { GAME_SORTS, sortsByDay, walksUploadTime } from './game-view.js';
import type { GameSort } from './game-view.js';

/** What a search filters on; a cursor carries these so that following `next` alone continues the search. */
export interface SearchFilters {
  readonly player?: string;
  readonly publisher?: string;
  readonly version?: string;
  readonly family?: Family;
  readonly status?: 'indexed' | 'stored';
  readonly consistent?: boolean;
  readonly uploadedFrom?: string;
  readonly uploadedTo?: string;
  readonly winner?: string;
  readonly externalId?: string;
  readonly filename?: string;
  readonly owner?: string;
  readonly movesMin?: number;
  readonly movesMax?: number;
  readonly boardSize?: string;
  readonly event?: string;
  readonly playedFrom?: string;
  readonly playedTo?: string;
  readonly ending?: GameEnding;
  readonly marginMin?: number;
  readonly marginMax?: number;
  readonly rules?: string;
  readonly rating?: string;
  readonly unique?: boolean;
  readonly signature?: string;
  readonly sort?: GameSort;
}

const FILTER_KEYS = ['player', 'publisher', 'version', 'family', 'status', 'consistent', 'uploadedFrom', 'uploadedTo', 'winner', 'externalId', 'filename', 'owner', 'movesMin', 'movesMax', 'boardSize', 'event', 'playedFrom', 'playedTo', 'ending', 'marginMin', 'marginMax', 'rules', 'rating', 'unique', 'signature', 'sort'] as const;

type FilterKey = (typeof FILTER_KEYS)[number];

const isText = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 200 && controlCharacterIn(value) === undefined;
const isInstant = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const isDay = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isMargin = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** What a cursor may hold for each filter (a cursor is client input like any other). */
const VALID: Record<FilterKey, (value: unknown) => boolean> = {
  player: isText,
  publisher: isText,
  version: isText,
  family: (value) => (FAMILIES as readonly unknown[]).includes(value),
  status: (value) => value === 'indexed' || value === 'stored',
  consistent: (value) => typeof value === 'boolean',
  uploadedFrom: isInstant,
  uploadedTo: isInstant,
  winner: isText,
  externalId: isText,
  filename: isText,
  owner: (value) => typeof value === 'string' && ACCOUNT_NAME.test(value),
  movesMin: isCount,
  movesMax: isCount,
  boardSize: (value) => typeof value === 'string' && /^[1-9]\d{0,3}(x[1-9]\d{0,3})?$/.test(value),
  event: isText,
  playedFrom: isDay,
  playedTo: isDay,
  ending: (value) => (GAME_ENDINGS as readonly unknown[]).includes(value),
  marginMin: isMargin,
  marginMax: isMargin,
  rules: isText,
  rating: isText,
  unique: (value) => typeof value === 'boolean',
  signature: (value) => typeof value === 'string' && /^([a-z]{2}|__){6}$/.test(value),
  sort: (value) => (GAME_SORTS as readonly unknown[]).includes(value),
};

/** Where a page ended: the last game's id, and its day played or upload time when the search is ordered by them. */
export interface SearchPosition {
  readonly id: number;
  readonly day?: string;
  readonly uploadedAt?: string;
}

/**
 * Search cursors are opaque to clients; inside they hold the search's filters and where its last page
 * ended, with only the keys its order needs.
 */
export function encodeCursor(filters: SearchFilters, last: SearchPosition): string {
  const f = Object.fromEntries(FILTER_KEYS.filter((key) => filters[key] !== undefined).map((key) => [key, filters[key]]));
  const day = sortsByDay(filters.sort) ? { day: last.day } : {};
  const at = walksUploadTime(filters) ? { at: last.uploadedAt } : {};
  return Buffer.from(JSON.stringify({ v: 1, after: last.id, ...day, ...at, f })).toString('base64url');
}

/**
 * The filters and position of a search: the query's own, or, with a cursor, the cursor's. A filter
 * sent beside a cursor must agree with the one the cursor carries (400 naming the mismatch).
 */
export function resolveSearch(query: SearchFilters & { cursor?: string }): { filters: SearchFilters; after?: SearchPosition } {
  const given = Object.fromEntries(FILTER_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]])) as SearchFilters;
  if (query.cursor === undefined) return { filters: given };
  const { after, filters } = decodeCursor(query.cursor);
  const mismatches = FILTER_KEYS.filter((key) => given[key] !== undefined && given[key] !== filters[key]).map(
    (key) => `${key}=${String(given[key])} (the cursor's search has ${filters[key] === undefined ? `no ${key}` : `${key}=${String(filters[key])}`})`,
  );
  if (mismatches.length > 0) {
    throw new ProblemException(400, 'request.invalid', `the cursor belongs to another search: ${mismatches.join('; ')}. Send the cursor alone to continue its search`);
  }
  return { filters, after };
}

/** The precise upload time a cursor carries, as the search wrote it. */
const isMicroInstant = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(value) && isInstant(value);

function decodeCursor(cursor: string): { after: SearchPosition; filters: SearchFilters } {
  const invalid = () => new ProblemException(400, 'request.invalid', 'cursor is not valid: pass the "next" value of a previous page unchanged');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { v, after, day, at, f } = (decoded ?? {}) as { v?: unknown; after?: unknown; day?: unknown; at?: unknown; f?: unknown };
  if (v !== 1 || !Number.isSafeInteger(after) || (after as number) < 1 || typeof f !== 'object' || f === null || Array.isArray(f)) throw invalid();
  if (day !== undefined && !isDay(day)) throw invalid();
  if (at !== undefined && !isMicroInstant(at)) throw invalid();
  const filters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(f)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw invalid();
    const ok = VALID[key as FilterKey](value);
    if (!ok) throw invalid();
    filters[key] = value;
  }
  if (sortsByDay(filters.sort as GameSort | undefined) !== (day !== undefined)) throw invalid();
  if (walksUploadTime(filters) !== (at !== undefined)) throw invalid();
  return { after: { id: after as number, day: day as string | undefined, uploadedAt: at as string | undefined }, filters: filters as SearchFilters };
}
