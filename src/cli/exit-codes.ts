/**
 * The exit statuses of `tabula`, as docs/cli.md lists them. A script can tell "some files were
 * refused" (the rest went in) from "nothing could be done".
 */
export const EXIT = {
  /** Everything was done; no file was refused. */
  ok: 0,
  /** The import finished, but the archive refused one or more files (listed in the summary). */
  refused: 1,
  /** Bad command line: unknown option, missing argument, an input path that cannot be read. */
  usage: 2,
  /** The archive answered with an error that stopped the command (shown as `code: detail`), or an import failed. */
  server: 3,
  /** The archive could not be reached (connection refused, DNS, reset, timeout). */
  network: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error that ends the command with a message and a given exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
