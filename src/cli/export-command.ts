import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { answerOf } from './connection.js';
import type { Connection } from './connection.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { exportGames } from './generated/sdk.gen.js';
import type { ExportGamesData } from './generated/types.gen.js';
import { formatBytes, progressFor } from './progress.js';
import type { CliIo, Progress } from './progress.js';

/** The query of `GET /games/export`, as the generated client types it. */
export type ExportQuery = NonNullable<ExportGamesData['query']>;
/** The search filters (and sort) the command takes as options. */
export type ExportFilters = Omit<ExportQuery, 'cursor' | 'limit'>;

export const EXPORT_FORMATS = ['ndjson', 'zip', 'tar', 'sgf', 'pdn'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The `Accept` each format is asked for with (src/games/export/export-kinds.ts serves these). */
const ACCEPT: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  zip: 'application/zip',
  tar: 'application/x-tar',
  sgf: 'application/x-go-sgf',
  pdn: 'application/x-pdn',
};

const BY_EXTENSION: Record<string, ExportFormat> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.zip': 'zip', '.tar': 'tar', '.sgf': 'sgf', '.pdn': 'pdn' };

export interface ExportOptions {
  readonly output: string;
  readonly format?: string;
  readonly filters: ExportFilters;
  /** Start after this cursor (of `GET /games` or of an earlier export). */
  readonly cursor?: string;
  /** At most this many games in this run; when more match, the file says where to go on. */
  readonly limit?: number;
  /** Games asked for per request (NDJSON, SGF, PDN). */
  readonly pageSize: number;
  readonly resume: boolean;
  readonly force: boolean;
  readonly quiet: boolean;
}

/**
 * Where a paged export stands, kept beside the file (`<file>.next.json`) while it runs and, for SGF
 * and PDN, after a `--limit` stop: the query of the next page and the size of the file before it.
 * Written only after a page is wholly in the file, so a run killed at any point resumes exactly.
 */
interface Journal {
  readonly format: ExportFormat;
  readonly query: Partial<ExportQuery>;
  readonly size: number;
}

/** The format named by `--format`, else by the output file's extension. */
export function exportFormat(output: string, given: string | undefined): ExportFormat {
  if (given !== undefined) {
    if ((EXPORT_FORMATS as readonly string[]).includes(given)) return given as ExportFormat;
    throw new CliError(`--format: "${given}" is not one of ${EXPORT_FORMATS.join(', ')}`, EXIT.usage);
  }
  const format = BY_EXTENSION[extname(output).toLowerCase()];
  if (!format) throw new CliError(`cannot tell the format from "${output}": name it .ndjson, .zip, .tar, .sgf or .pdn, or give --format`, EXIT.usage);
  return format;
}

export const journalPath = (output: string) => `${output}.next.json`;

/** `tabula export`: every game a search finds, streamed into one file; NDJSON, SGF and PDN page by page and resumable. */
export async function runExport(connection: Connection, io: CliIo, options: ExportOptions): Promise<ExitCode> {
  const format = exportFormat(options.output, options.format);
  const exists = await stat(options.output).then(() => true, () => false);
  let start: Journal | undefined;
  if (exists && options.resume) {
    if (format === 'zip' || format === 'tar') {
      throw new CliError(`${options.output}: a ${format} cannot be continued in place; export the rest into another file with --cursor (the cursor an export cut short by --limit printed)`, EXIT.usage);
    }
    start = await resumePoint(options.output, format);
    if (!start) {
      io.stderr.write(`${options.output} is complete: nothing to resume\n`);
      return EXIT.ok;
    }
  } else if (exists && !options.force) {
    throw new CliError(`${options.output} exists: --resume to continue it, --force to write it anew`, EXIT.usage);
  }
  const query: Partial<ExportQuery> = start?.query ?? { ...options.filters, ...(options.cursor ? { cursor: options.cursor } : {}) };
  const progress = progressFor(io, options.quiet);
  try {
    if (format === 'zip' || format === 'tar') return await exportArchive(connection, io, options, format, query, progress);
    return await exportPaged(connection, io, options, { format, query, size: start?.size ?? 0 }, progress);
  } finally {
    progress.end();
  }
}

/**
 * Where an existing file goes on: its journal when there is one; else, for NDJSON, its last line
 * when that is `{"next": …}` (what an export cut short by `limit` ends with). Undefined: complete.
 */
async function resumePoint(output: string, format: ExportFormat): Promise<Journal | undefined> {
  const journal = await readFile(journalPath(output), 'utf8').then(
    (text) => JSON.parse(text) as Journal,
    () => undefined,
  );
  if (journal) {
    if (journal.format !== format) throw new CliError(`${journalPath(output)} belongs to a ${journal.format} export, not ${format}`, EXIT.usage);
    return journal;
  }
  if (format !== 'ndjson') return undefined;
  const size = (await stat(output)).size;
  if (size === 0) return undefined;
  const { start, line } = await lastLine(output, size);
  if (line === undefined) throw new CliError(`${output} ends in the middle of a line and has no ${journalPath(output)}: it cannot be resumed; export it anew with --force`, EXIT.usage);
  const next = nextOf(line);
  return next === undefined ? undefined : { format, query: { cursor: next }, size: start };
}

/** The last line of a file (without its newline) and where it starts; `line` undefined when the file does not end with a newline. */
async function lastLine(path: string, size: number): Promise<{ start: number; line?: string }> {
  const tail = Math.min(size, 64 * 1024);
  const buffer = Buffer.alloc(tail);
  const handle = await open(path, 'r');
  try {
    await handle.read(buffer, 0, tail, size - tail);
  } finally {
    await handle.close();
  }
  if (buffer[tail - 1] !== 0x0a) return { start: size };
  const before = buffer.lastIndexOf(0x0a, tail - 2);
  if (before < 0 && tail < size) return { start: size };
  const start = size - tail + before + 1;
  return { start, line: buffer.subarray(before + 1, tail - 1).toString('utf8') };
}

/** The cursor of a `{"next": "…"}` line. */
function nextOf(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { next?: unknown };
    return value !== null && typeof value === 'object' && typeof value.next === 'string' && Object.keys(value).length === 1 ? value.next : undefined;
  } catch {
    return undefined;
  }
}

/** The cursor of a `Link: <…?cursor=…>; rel="next"` header. */
function linkCursor(link: string | null, baseUrl: string): string | undefined {
  const match = link ? /<([^>]*)>\s*;\s*rel="?next"?/.exec(link) : null;
  return match ? (new URL(match[1], `${baseUrl}/`).searchParams.get('cursor') ?? undefined) : undefined;
}

async function writeJournal(output: string, journal: Journal): Promise<void> {
  const path = journalPath(output);
  await writeFile(`${path}.tmp`, JSON.stringify(journal));
  await rename(`${path}.tmp`, path);
}

/** One request of the export, its body streamed into `target`; counts bytes and newlines as they pass. */
async function download(
  connection: Connection,
  format: ExportFormat,
  query: Partial<ExportQuery>,
  target: string,
  seen: (bytes: number, newlines: number) => void,
): Promise<{ next?: string }> {
  const result = await exportGames({ client: connection.client, query: query as ExportQuery, parseAs: 'stream', headers: { Accept: ACCEPT[format] } });
  const { data, response } = answerOf(connection, result, 'GET /games/export');
  const body = Readable.fromWeb(data as unknown as WebReadableStream<Uint8Array>);
  await pipeline(
    body,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        let newlines = 0;
        for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) newlines += 1;
        seen(chunk.length, newlines);
        yield chunk;
      }
    },
    createWriteStream(target),
  ).catch((error: unknown) => {
    throw new CliError(`the export broke off: ${(error as Error).message}; run the command again with --resume to go on`, EXIT.network);
  });
  return { next: linkCursor(response.headers.get('link'), connection.baseUrl) };
}

/**
 * NDJSON, SGF and PDN: pages of `pageSize` games, each downloaded whole to `<file>.part` and then
 * appended. NDJSON keeps the server's last line `{"next"}` at the end of the file until the next page
 * replaces it, so the file on its own says where to go on; SGF and PDN keep it in the journal.
 */
async function exportPaged(connection: Connection, io: CliIo, options: ExportOptions, journal: Journal, progress: Progress): Promise<ExitCode> {
  const { output, pageSize } = options;
  const { format } = journal;
  const part = `${output}.part`;
  let { query, size } = journal;
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let games = 0;
  let pages = 0;
  progress.begin(`export ${output}`, 'bytes');
  // Nothing is written before the first page has come whole: a search the archive refuses leaves no file.
  if (size > 0) await writeJournal(output, { format, query, size });
  for (;;) {
    const limit = Math.min(pageSize, remaining);
    let pageLines = 0;
    const { next } = await download(connection, format, { ...query, limit }, part, (more, newlines) => {
      bytes += more;
      pageLines += newlines;
      progress.update(bytes, undefined, format === 'ndjson' ? `${games + pageLines} games` : `page ${pages + 1}`);
    });
    pages += 1;
    const partSize = (await stat(part)).size;
    // The page replaces whatever followed the last whole page (the old `{"next"}` line, a broken-off page).
    if (size === 0) {
      await writeJournal(output, { format, query, size });
      await writeFile(output, '');
    } else {
      await truncate(output, size);
    }
    await pipeline(createReadStream(part), createWriteStream(output, { flags: 'a' }));
    await rm(part, { force: true });
    let end = size + partSize;
    if (format === 'ndjson') {
      games += next === undefined ? pageLines : pageLines - 1;
      if (next !== undefined) end = (await lastLine(output, end)).start;
    }
    size = end;
    if (next === undefined) {
      await rm(journalPath(output), { force: true });
      progress.end();
      io.stderr.write(`${output}: ${format === 'ndjson' ? `${games} games, ` : ''}${formatBytes((await stat(output)).size)}, complete\n`);
      return EXIT.ok;
    }
    query = { cursor: next };
    remaining -= limit;
    if (remaining <= 0) {
      if (format === 'ndjson') await rm(journalPath(output), { force: true });
      else await writeJournal(output, { format, query, size });
      progress.end();
      io.stderr.write(`${output}: stopped at --limit ${options.limit}; more games match: run again with --resume to go on\n`);
      return EXIT.ok;
    }
    await writeJournal(output, { format, query, size });
  }
}

/** Zip and tar: one download (a zip cannot be appended to), to `<file>.part`, renamed when whole. */
async function exportArchive(
  connection: Connection,
  io: CliIo,
  options: ExportOptions,
  format: ExportFormat,
  query: Partial<ExportQuery>,
  progress: Progress,
): Promise<ExitCode> {
  const part = `${options.output}.part`;
  let bytes = 0;
  progress.begin(`export ${options.output}`, 'bytes');
  const { next } = await download(connection, format, { ...query, ...(options.limit ? { limit: options.limit } : {}) }, part, (more) => {
    bytes += more;
    progress.update(bytes);
  });
  await rename(part, options.output);
  progress.end();
  io.stderr.write(`${options.output}: ${formatBytes(bytes)}, ${next === undefined ? 'complete' : `cut short by --limit; more games match: --cursor ${next}`}\n`);
  return EXIT.ok;
}
