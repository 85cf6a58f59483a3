import type { GameEnding } from '../formats/plugin.js';
import type { Family, GameFacts, JsonValue, PlayerEntry, Problem } from '../formats/plugin.js';

/** `indexed`: read and replayed by a plugin; `stored`: kept verbatim only. */
export type GameStatus = 'indexed' | 'stored';

/** A stored game as the repository returns it: the games row joined with its index rows. */
export interface GameView {
  id: number;
  publisher: string | null;
  version: string | null;
  header?: string | null;
  body?: string | null;
  family: Family | null;
  status: GameStatus;
  statusReason: string | null;
  sha256: string;
  size: number;
  mediaType: string;
  filename: string | null;
  /** The account that published the game (src/accounts); null for none. */
  owner: string | null;
  uploadedAt: Date;
  /** The owner's tags (src/tags), sorted by code point; left out where they were not read (a game just stored has none). */
  tags?: readonly string[];
  players: PlayerEntry[];
  analysis: {
    moveCount: number;
    result: string | null;
    legal: boolean;
    consistent: boolean;
    problems: Problem[];
    details: Record<string, JsonValue>;
    facts: GameFacts;
  } | null;
}

/**
 * A game view whose problems and details are the JSON text the archive stored them as, unparsed:
 * what a bulk export writes out as it is (see `gameJsonPieces`).
 */
export type GameViewWithJsonText = Omit<GameView, 'analysis'> & {
  analysis: (Omit<NonNullable<GameView['analysis']>, 'problems' | 'details'> & { problems: string; details: string }) | null;
};

export interface RawGame {
  raw: Buffer;
  sha256: string;
  mediaType: string;
  filename: string | null;
  owner: string | null;
  publisher: string | null;
  version: string | null;
  status: GameStatus;
}

export const GAME_SORTS = ['-uploaded', 'uploaded', '-played', 'played'] as const;
export type GameSort = (typeof GAME_SORTS)[number];

/** Whether a sort goes by the day played (games without one are left out) rather than upload order. */
export function sortsByDay(sort: GameSort | undefined): boolean {
  return sort === 'played' || sort === '-played';
}

/**
 * Whether a search in upload order walks the upload-time index rather than the ids: when it is
 * bounded by upload time. The two orders are the same (ids are given in upload order), but only the
 * time index finds the first games of an old window without walking every newer one.
 */
export function walksUploadTime(filters: { sort?: GameSort; uploadedFrom?: unknown; uploadedTo?: unknown }): boolean {
  return !sortsByDay(filters.sort) && (filters.uploadedFrom !== undefined || filters.uploadedTo !== undefined);
}

/** A game found by a search, with its upload time to the microsecond (for the next page's cursor). */
export interface SearchHit {
  readonly game: GameView;
  readonly uploadedKey: string;
}

export interface GameFilters {
  player?: string;
  publisher?: string;
  version?: string;
  family?: Family;
  status?: GameStatus;
  consistent?: boolean;
  uploadedFrom?: Date;
  uploadedTo?: Date;
  /** Part of the name of a player who won the game. */
  winner?: string;
  /** The player's id in the source system (VK id, GoFans player id…), exactly. */
  externalId?: string;
  /** The file name kept with the upload, exactly. */
  filename?: string;
  /** The account that published the game. */
  owner?: string;
  /** Plies of the main line, at least / at most. */
  movesMin?: number;
  movesMax?: number;
  /** `uploaded`: oldest first; `-uploaded` (default): newest first. */
  sort?: GameSort;
  /** Square boards of this side, or `{ width, height }`. */
  boardWidth?: number;
  boardHeight?: number;
  /** The event, matched whole and case-insensitively. */
  event?: string;
  /** Played on or after / on or before this day (`YYYY-MM-DD`). */
  playedFrom?: string;
  playedTo?: string;
  /** How the recorded result came about. */
  ending?: GameEnding;
  /** The winner's margin, at least / at most. */
  marginMin?: number;
  marginMax?: number;
  /** The rules named, whole and case-insensitively. */
  rules?: string;
  /** A player's rating as written, whole and case-insensitively. */
  rating?: string;
  /** Every player's Go rank is at least / at most this, on the ranks index's scale (-29 for 30k … 18 for 9p). */
  rankMin?: number;
  rankMax?: number;
  /** Every player's numeric rating is at least / at most this. */
  ratingMin?: number;
  ratingMax?: number;
  /** Each game once: copies of a game stored (see identity.sql.ts) are left out. */
  unique?: boolean;
  /** Go: the Dyer signature, exactly. */
  signature?: string;
  /** Tags the game has all of, and (with a leading `-`) none of: `studied,-handicap`. */
  tags?: string;
  /** Words the game's texts hold together, in web-search syntax. */
  text?: string;
  /** The games whose texts may meet `text` (all that do, found first, few), by `probeQuery`: the page is found among them. */
  textGames?: readonly number[];
  /** Keyset pagination: only games past this id (and, sorting by date played, this day) in the sort order. */
  pastId?: number;
  pastDate?: string;
  /** The upload time past which to continue (to the microsecond), when the search {@link walksUploadTime}. */
  pastUploadedAt?: string;
}
