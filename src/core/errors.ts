/**
 * Why an upload cannot be read. The archive answers these as `422 application/problem+json`
 * (or the given status) with every issue and its location, and stores nothing.
 */
export interface SourceLocation {
  /** 1-based line and column in the decoded text. */
  readonly line?: number;
  readonly column?: number;
  /** 0-based character offset in the decoded text (byte offset for binary checks). */
  readonly offset?: number;
  /** 1-based ply of the game the issue belongs to. */
  readonly ply?: number;
}

export interface FormatIssue extends SourceLocation {
  readonly message: string;
}

/**
 * 422 `export.does_not_fit`: what of the game the format written to cannot hold. Given the format,
 * the text names it first (`the game does not fit VK/code: …`).
 */
export function doesNotFit(what: string, format?: { readonly publisher: string; readonly version: string }): FormatError {
  return new FormatError(format ? `the game does not fit ${format.publisher}/${format.version}: ${what}` : what, [], 422, 'export.does_not_fit');
}

/**
 * Stable, machine-readable reasons an upload is refused by the formats layer. Clients branch on
 * these; the human text beside them may change. Never rename one: add a new one.
 */
export const FORMAT_ERROR_CODES = [
  /** The file is not what its format says (syntax, schema, impossible values). */
  'format.malformed',
  /** Several plugins claim the file: the uploader must name the format. */
  'format.ambiguous',
  /** `?format=` names no format the archive reads. */
  'format.unknown',
  /** DOCTYPE or ENTITY declarations, refused in every format. */
  'format.declaration_forbidden',
  /** Nothing to read: no bytes, or only whitespace and byte-order marks. */
  'upload.empty',
  /** The file holds several games where one was expected (POST /uploads takes collections). */
  'upload.collection',
  /** A conversion to a format that cannot hold the game (variations into a flat format, a field too large…). */
  'export.does_not_fit',
  /** No conversion between these formats: another family, or a format without a writer. */
  'export.unsupported',
  /** Binary content no plugin reads. */
  'upload.binary',
  /** Text in an encoding the archive cannot decode (invalid UTF-8, UTF-32). */
  'upload.encoding',
  /** More plies than MAX_PLIES. */
  'limit.plies',
  /** A board side larger than MAX_BOARD_SIDE. */
  'limit.board',
  /** Variations nested deeper than MAX_VARIATION_DEPTH. */
  'limit.variation_depth',
  /** A line longer than MAX_LINE_LENGTH characters. */
  'limit.line_length',
  /** A player's name or id, the event, the rules or a rating longer than the archive can index (MAX_INDEXED_TEXT_BYTES, fixed). */
  'limit.indexed_text',
  /** The analysis ran past ANALYSIS_TIMEOUT_MS and was stopped. */
  'analysis.timeout',
  /** The analysis needed more memory than ANALYSIS_MEMORY_MB and was stopped. */
  'analysis.memory',
  /** A position written out for a search (SGF setup, FEN) that describes no board of its family. */
  'position.invalid',
  /** A family whose positions cannot be searched that way. */
  'position.family',
] as const;

export type FormatErrorCode = (typeof FORMAT_ERROR_CODES)[number];

function defaultCode(status: number): FormatErrorCode {
  return status === 415 ? 'upload.binary' : 'format.malformed';
}

export class FormatError extends Error {
  readonly issues: readonly FormatIssue[];

  constructor(
    message: string,
    issues: readonly FormatIssue[] = [],
    /** 422 by default; 415 for content that is not a game file at all. */
    readonly status = 422,
    readonly code: FormatErrorCode = defaultCode(status),
  ) {
    super(message);
    this.name = 'FormatError';
    this.issues = issues.length > 0 ? issues : [{ message }];
  }

  /** An error at one place of the text. */
  static at(message: string, location: SourceLocation, status = 422, code: FormatErrorCode = defaultCode(status)): FormatError {
    return new FormatError(message, [{ message, ...location }], status, code);
  }
}
