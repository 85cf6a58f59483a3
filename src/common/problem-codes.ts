import { HttpException } from '@nestjs/common';
import { FORMAT_ERROR_CODES } from '../core/errors.js';

/**
 * Every `code` a problem+json answer can carry: stable and machine-readable, so clients branch on
 * what went wrong without parsing prose. The formats layer's own codes come first.
 */
export const PROBLEM_CODES = [
  ...FORMAT_ERROR_CODES,
  /** A parameter or body part is missing, unknown, or has a bad value. */
  'request.invalid',
  /** A game id that is not decimal digits within a positive 64-bit integer. */
  'request.bad_id',
  /**
   * A cursor this archive did not write: not base64url JSON, of another version, or holding a place
   * or a filter no search has (a filter is checked as its query parameter is); the detail says what.
   */
  'request.bad_cursor',
  /** The Accept header names no representation the route can write (406). */
  'request.not_acceptable',
  /** A NUL or other control character in a text parameter. */
  'request.control_character',
  /** The request's headers are larger than the server accepts. */
  'request.headers_too_large',
  /** The request could not be parsed as HTTP. */
  'request.malformed',
  /** The client took too long to send the request. */
  'request.timeout',
  /** Too many requests from this client: wait for Retry-After. */
  'request.rate_limited',
  /** The client closed the connection before the answer was ready: its work was ended (logged, never seen by the client). */
  'request.cancelled',
  /** A position or pattern search took longer than SEARCH_TIMEOUT_MS and was stopped: narrow it with filters, or retry later. */
  'search.timeout',
  /** The multipart form is malformed or has the wrong fields. */
  'upload.multipart',
  /** The upload is larger than MAX_UPLOAD_BYTES. */
  'upload.too_large',
  /** The file holds more games than MAX_GAMES_PER_FILE. */
  'upload.too_many_games',
  /** No kept upload has this id. */
  'upload.not_found',
  /** The import is larger than MAX_IMPORT_BYTES. */
  'import.too_large',
  /** The archive's files would unpack to more than MAX_IMPORT_EXPANDED_BYTES. */
  'import.expanded_too_large',
  /** The import holds more files than MAX_IMPORT_ENTRIES. */
  'import.too_many_entries',
  /** The zip or tar cannot be read (damaged, truncated, or not what it claims to be). */
  'import.malformed_archive',
  /** An entry's path leaves the archive (`..`, an absolute path, a drive letter, a backslash). */
  'import.unsafe_path',
  /** An entry is a symbolic or hard link, a device or a FIFO: only regular files are imported. */
  'import.not_a_file',
  /** An archive inside the import, deeper than MAX_IMPORT_DEPTH allows. */
  'import.nested_archive',
  /** An entry fails its integrity check: a zip entry's CRC-32, or a tar header's checksum. */
  'import.checksum_mismatch',
  /** No import has this id. */
  'import.not_found',
  /** An import's runs failed IMPORT_ATTEMPTS times in a row at the same entry: it ended as failed (its `problem`), the errors in the log. */
  'import.stuck',
  /** The operation needs a token and none was sent. */
  'auth.required',
  /** The token sent is not valid: unknown, revoked or expired, or sent in the query string. */
  'auth.invalid',
  /** The token lacks the scope the operation needs. */
  'auth.scope',
  /** The token's account may not act on this resource (another account's game). */
  'auth.forbidden',
  /** No token has this id (or it was revoked). */
  'token.not_found',
  /** No game has this id. */
  'game.not_found',
  /** A tag that is not 1 to 50 letters, digits, `-` or `_` (not starting with `-`), or more than 50 tags for a game or a filter. */
  'tag.invalid',
  /** `text=` is longer than 500 characters, holds more than 32 words, or names no word to find. */
  'text.invalid',
  /** A search filter whose index is off here (INDEXES): `text=` without the texts index, `rankMin`… without the ranks index. */
  'search.not_indexed',
  /** `POST /reindex?indexes=` names an index that is not on here (INDEXES). */
  'reindex.unknown_index',
  /** No game in the archive has this player. */
  'player.not_found',
  /** The game is stored verbatim but no plugin understood it: nothing to replay or regenerate. */
  'game.not_indexed',
  /** A pattern that is none: rows of unequal length, a character other than `X`, `O`, `.` and `*`, no row; a sequence of numbered moves that is none (not the pattern's size, a number twice, a gap, a number on a `.` or `*` cell). */
  'pattern.invalid',
  /** A pattern with no `X` or `O`: it would match every board. */
  'pattern.no_stones',
  /** A pattern larger than the board (any board of the family, or the one the `boardSize` filter names). */
  'pattern.too_large',
  /** Pattern search for a family that has none (only Go and Dots do). */
  'pattern.family',
  /** The game's positions are not in the position index (stored before it, or its moves do not replay): POST /reindex it. */
  'position.not_indexed',
  /** A ply past the last position of the game's main line. */
  'position.ply_out_of_range',
  /** An opening tree (GET/POST /positions/tree) past 100,000 nodes: raise minGames, lower depth, or narrow the games with filters. */
  'tree.too_large',
  /** An opening tree from a game that does not start from its family's start (handicap or setup stones, a FEN): the index keeps no board to write; send the position written out (POST /positions/tree). */
  'tree.unknown_start',
  /** The game has no identity (its family gives none, or it was stored before identities were kept): POST /reindex it. */
  'identity.not_indexed',
  /** No such route, format or schema. */
  'resource.not_found',
  /** Every analysis thread is busy and the queue is full: retry after Retry-After. */
  'analysis.busy',
  /** The database does not answer: retry after Retry-After. */
  'service.unavailable',
  /** A disk is full (the database's or the import spool's): nothing was stored; retry after Retry-After. */
  'service.storage_full',
  /** A fault of the server, logged with the request id. */
  'internal',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** An HTTP error with a stable code; `retryAfterSeconds` adds a Retry-After header. */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly code: ProblemCode,
    detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(detail, status);
  }
}

/** The code of an HTTP error raised without one (by Nest, a pipe or a guard), by its status. */
export function codeForStatus(status: number): ProblemCode {
  switch (status) {
    case 400:
      return 'request.invalid';
    case 401:
      return 'auth.required';
    case 404:
      return 'resource.not_found';
    case 406:
      return 'request.not_acceptable';
    case 408:
      return 'request.timeout';
    case 413:
      return 'upload.too_large';
    case 415:
      return 'upload.binary';
    case 422:
      return 'format.malformed';
    case 429:
      return 'request.rate_limited';
    case 431:
      return 'request.headers_too_large';
    case 503:
      return 'service.unavailable';
    case 507:
      return 'service.storage_full';
    default:
      return status < 500 ? 'request.invalid' : 'internal';
  }
}

/** A search past its deadline (SEARCH_TIMEOUT_MS): 503, since the same search may pass on a less busy archive. */
export function searchTimeout(ms: number): ProblemException {
  return new ProblemException(503, 'search.timeout', `the search took longer than ${ms} ms (SEARCH_TIMEOUT_MS) and was stopped: narrow it with filters, or retry later`, 2);
}
