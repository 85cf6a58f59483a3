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

export class FormatError extends Error {
  readonly issues: readonly FormatIssue[];

  constructor(
    message: string,
    issues: readonly FormatIssue[] = [],
    /** 422 by default; 415 for content that is not a game file at all. */
    readonly status = 422,
  ) {
    super(message);
    this.name = 'FormatError';
    this.issues = issues.length > 0 ? issues : [{ message }];
  }

  /** An error at one place of the text. */
  static at(message: string, location: SourceLocation, status = 422): FormatError {
    return new FormatError(message, [{ message, ...location }], status);
  }
}
