import { plainToInstance } from 'class-transformer';
import type { ClassConstructor } from 'class-transformer';
import { isISO8601, validateSync } from 'class-validator';
import { ProblemException } from '../common/problem-codes.js';
import { controlCharacterIn } from '../common/text-parameters.middleware.js';
import type { Family, GameEnding } from '../formats/plugin.js';
import { DAY, SearchGamesQuery } from './dto/search-games.query.js';
import { MAX_JSON_DEPTH, messagesOf, nestingDepth } from '../http/json-body.js';
import { sortsByDay, walksUploadTime } from './game-view.js';
import type { GameFilters, GameSort } from './game-view.js';
import { rankFilterValue } from '../indexes/ranks/rank-filter.js';

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
  /** Go ranks as sent (`5d`, `2段`), checked by the query class; the search reads them on the scale. */
  readonly rankMin?: string;
  readonly rankMax?: string;
  readonly ratingMin?: number;
  readonly ratingMax?: number;
  readonly unique?: boolean;
  readonly signature?: string;
  /** Tags all of / none of (`studied,-handicap`), in the fixed form src/common/tags.ts writes. */
  readonly tags?: string;
  /** Words the game's texts hold, in web-search syntax (src/indexes/texts/text-query.ts). */
  readonly text?: string;
  readonly sort?: GameSort;
}

const FILTER_KEYS = ['player', 'publisher', 'version', 'family', 'status', 'consistent', 'uploadedFrom', 'uploadedTo', 'winner', 'externalId', 'filename', 'owner', 'movesMin', 'movesMax', 'boardSize', 'event', 'playedFrom', 'playedTo', 'ending', 'marginMin', 'marginMax', 'rules', 'rating', 'rankMin', 'rankMax', 'ratingMin', 'ratingMax', 'unique', 'signature', 'tags', 'text', 'sort'] as const;

type FilterKey = (typeof FILTER_KEYS)[number];

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
 * sent beside a cursor must agree with the one the cursor carries (400 naming the mismatch). The
 * cursor's filters are checked by `rules`, the route's own query class (what a filter of the cursor
 * may hold is what its query parameter may), and a cursor this archive did not write is 400
 * `request.bad_cursor`.
 */
export function resolveSearch(query: SearchFilters & { cursor?: string }, rules: ClassConstructor<object> = SearchGamesQuery): { filters: SearchFilters; after?: SearchPosition } {
  const given = Object.fromEntries(FILTER_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]])) as SearchFilters;
  if (query.cursor === undefined) return { filters: given };
  const { after, filters } = decodeCursor(query.cursor, rules);
  const mismatches = FILTER_KEYS.filter((key) => given[key] !== undefined && given[key] !== filters[key]).map(
    (key) => `${key}=${String(given[key])} (the cursor's search has ${filters[key] === undefined ? `no ${key}` : `${key}=${String(filters[key])}`})`,
  );
  if (mismatches.length > 0) {
    throw new ProblemException(400, 'request.invalid', `the cursor belongs to another search: ${mismatches.join('; ')}. Send the cursor alone to continue its search`);
  }
  return { filters, after };
}

/** The repository's form of the search filters: instants as dates, the board size as width and height, ranks on their scale. */
export function gameFilters(filters: SearchFilters): GameFilters {
  const { uploadedFrom, uploadedTo, boardSize, rankMin, rankMax, ...rest } = filters;
  const [width, height] = boardSize === undefined ? [] : boardSize.split('x').map(Number);
  return {
    ...rest,
    rankMin: rankOnScale(rankMin),
    rankMax: rankOnScale(rankMax),
    uploadedFrom: uploadedFrom === undefined ? undefined : new Date(uploadedFrom),
    uploadedTo: uploadedTo === undefined ? undefined : new Date(uploadedTo),
    boardWidth: width,
    boardHeight: boardSize === undefined ? undefined : (height ?? width),
  };
}

/** A rank filter on the scale of the ranks index; the query class has checked that it is a rank. */
function rankOnScale(rank: string | undefined): number | undefined {
  if (rank === undefined) return undefined;
  const value = rankFilterValue(rank);
  if (value === null) throw new ProblemException(400, 'request.invalid', `${JSON.stringify(rank.slice(0, 40))} is no Go rank`);
  return value;
}

/** 400 `request.bad_cursor`: what is wrong with a cursor, and what to send instead. */
export function badCursor(what: string): ProblemException {
  return new ProblemException(400, 'request.bad_cursor', `the cursor is not one this archive wrote: ${what}. Pass the "next" of a previous page unchanged`);
}

/**
 * The JSON object inside a cursor of any kind (a search's, a position search's, a pattern search's),
 * of version 1 and with no keys but `keys`: 400 `request.bad_cursor` for anything else.
 */
export function readCursor(cursor: string, keys: readonly string[]): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw badCursor('it is not base64url text');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // As deep as a JSON body may be, so that reading its values into a query class stays far from the stack's end.
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw badCursor(`its JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    throw badCursor('it is not base64url of JSON');
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw badCursor('it holds no JSON object');
  const object = decoded as Record<string, unknown>;
  if (object.v !== 1) throw badCursor(object.v === undefined ? 'it has no version ("v")' : `its version ("v") is ${shown(object.v)}, and this archive writes version 1`);
  const unknown = Object.keys(object).find((key) => key !== 'v' && !keys.includes(key));
  if (unknown !== undefined) throw badCursor(`it holds ${shown(unknown)}, which no cursor of this route has`);
  return object;
}

/** Runs a check on what a cursor holds (a pattern's rows…): the 400 it answers becomes the cursor's, `request.bad_cursor`. */
export function checkedInCursor<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ProblemException && error.getStatus() === 400) throw badCursor(error.message);
    throw error;
  }
}

/**
 * What a cursor holds for some of a route's parameters, checked by the route's query class as those
 * parameters are (400 `request.bad_cursor` with the class's messages); the values as the class reads them.
 */
export function checkedAsParameters<T extends object>(rules: ClassConstructor<T>, values: Record<string, unknown>, what: string): T {
  const read = plainToInstance(rules, values);
  const errors = validateSync(read, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw badCursor(`${what} break the rules of their parameters: ${messagesOf(errors).join('; ')}`);
  return read;
}

/** A value of a forged cursor as a 400 shows it: short, and without control characters. */
export function shown(value: unknown): string {
  // JSON would write an infinite number (1e400 parses to one) as null.
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return (text.length > 60 ? `${text.slice(0, 60)}…` : text).replace(/[\u0000-\u001F\u007F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The precise upload time a cursor carries, as the search wrote it. */
const MICRO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function decodeCursor(cursor: string, rules: ClassConstructor<object>): { after: SearchPosition; filters: SearchFilters } {
  const { after, day, at, f } = readCursor(cursor, ['after', 'day', 'at', 'f']);
  if (!Number.isSafeInteger(after) || (after as number) < 1) {
    throw badCursor(after === undefined ? 'it has no "after"' : `its "after" is ${shown(after)}, not a game id (a whole number from 1 to ${Number.MAX_SAFE_INTEGER})`);
  }
  if (day !== undefined && !(typeof day === 'string' && DAY.test(day) && isISO8601(day, { strict: true }))) throw badCursor(`its "day" is ${shown(day)}, not a day (YYYY-MM-DD)`);
  if (at !== undefined && !(typeof at === 'string' && MICRO_INSTANT.test(at) && isISO8601(at, { strict: true }))) throw badCursor(`its "at" is ${shown(at)}, not an upload time to the microsecond`);
  const filters = checkedFilters(f, rules);
  if (sortsByDay(filters.sort) !== (day !== undefined)) {
    throw badCursor(day === undefined ? 'its search is ordered by the day played, and it has no "day"' : 'it has a "day", and its search is not ordered by the day played');
  }
  if (walksUploadTime(filters) !== (at !== undefined)) {
    throw badCursor(at === undefined ? 'its search walks the upload times, and it has no "at"' : 'it has an "at", and its search does not walk the upload times');
  }
  return { after: { id: after as number, day: day as string | undefined, uploadedAt: at as string | undefined }, filters };
}

/**
 * A cursor's filters (`f`), each checked as its query parameter is: by the route's query class, with
 * the control characters the query string may not carry refused too. The values as the class reads them.
 */
function checkedFilters(f: unknown, rules: ClassConstructor<object>): SearchFilters {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) throw badCursor(f === undefined ? 'it has no filters ("f")' : 'its filters ("f") are not a JSON object');
  for (const [key, value] of Object.entries(f)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw badCursor(`its filters hold ${shown(key)}, which is no filter`);
    // Only text, numbers and booleans: no null (a cursor leaves an unset filter out), no nesting.
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw badCursor(`its filter ${key} is ${shown(value)}`);
    const control = typeof value === 'string' ? controlCharacterIn(value) : undefined;
    if (control) throw badCursor(`its filter ${key} contains the control character ${control}`);
  }
  const read = checkedInCursor(() => checkedAsParameters(rules, f as Record<string, unknown>, 'its filters')) as Record<string, unknown>;
  return Object.fromEntries(FILTER_KEYS.filter((key: FilterKey) => read[key] !== undefined).map((key) => [key, read[key]])) as SearchFilters;
}
