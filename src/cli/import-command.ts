import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { pack } from 'tar-stream';
import { answerOf, describeProblem, unreachable, waitToRetry } from './connection.js';
import type { Connection } from './connection.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { getImport, getImportResults, importFiles as postImport, uploadFile } from './generated/sdk.gen.js';
import type { ImportDto, ImportResultDto, UploadDto } from './generated/types.gen.js';
import { ARCHIVE_MEDIA_TYPES, collectInputs } from './inputs.js';
import type { InputFile } from './inputs.js';
import type { CliIo, Progress } from './progress.js';
import { progressFor } from './progress.js';

export interface ImportOptions {
  /** Plain files uploaded at once. */
  readonly concurrency: number;
  /** `publisher/version` sent as `format` with each plain file (skips detection). */
  readonly format?: string;
  /** Milliseconds between two looks at an import's progress. */
  readonly pollMs: number;
  /** Milliseconds an import is followed through an archive that does not answer (a restart) before giving up. */
  readonly patienceMs: number;
  readonly quiet: boolean;
}

/** A file the archive did not take, with why (`code: detail`). */
interface Refusal {
  readonly path: string;
  readonly reason: string;
}

/** What the summary reports. */
interface Tally {
  files: number;
  archives: number;
  gamesStored: number;
  duplicates: number;
  refused: Refusal[];
  /** Files the archive failed on (5xx) or imports that ended `failed`: not the file's fault, exit 3. */
  failed: Refusal[];
}

/**
 * `tabula import`: every file named. Plain files go to the archive as one import (`POST /imports`, a
 * tar written as the files are read), or through `POST /uploads` one by one when there is only one
 * or `--game-format` names their format (an import detects formats itself); zip and tar files go in
 * as one import each.
 */
export async function runImport(connection: Connection, io: CliIo, paths: readonly string[], options: ImportOptions): Promise<ExitCode> {
  const inputs = await collectInputs(paths);
  const plain = inputs.filter((input) => input.kind === 'file');
  const archives = inputs.filter((input) => input.kind !== 'file');
  const tally: Tally = { files: 0, archives: archives.length, gamesStored: 0, duplicates: 0, refused: [], failed: [] };
  const progress = progressFor(io, options.quiet);
  try {
    if (plain.length > 1 && options.format === undefined) await importPlainFiles(connection, plain, options, tally, progress);
    else if (plain.length > 0) await uploadAll(connection, plain, options, tally, progress);
    for (const archive of archives) await importArchive(connection, archive, options, tally, progress);
  } finally {
    progress.end();
  }
  io.stdout.write(summary(tally));
  if (tally.failed.length > 0) return EXIT.server;
  return tally.refused.length > 0 ? EXIT.refused : EXIT.ok;
}

function summary(tally: Tally): string {
  const lines = [
    `files: ${tally.files}${tally.archives > 0 ? ` (${tally.archives} archive${tally.archives === 1 ? '' : 's'} expanded)` : ''}`,
    `games stored: ${tally.gamesStored}`,
    `duplicates: ${tally.duplicates}`,
    `refused: ${tally.refused.length}`,
    ...tally.refused.map((refusal) => `  ${refusal.path}: ${refusal.reason}`),
  ];
  if (tally.failed.length > 0) lines.push(`failed: ${tally.failed.length}`, ...tally.failed.map((failure) => `  ${failure.path}: ${failure.reason}`));
  return `${lines.join('\n')}\n`;
}

async function uploadAll(connection: Connection, files: readonly InputFile[], options: ImportOptions, tally: Tally, progress: Progress): Promise<void> {
  progress.begin('files', 'files', files.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const outcome = await uploadOne(connection, file, options.format);
      done += 1;
      tally.files += 1;
      if ('refused' in outcome) {
        (outcome.serverFault ? tally.failed : tally.refused).push({ path: file.path, reason: outcome.refused });
        progress.note(`[${done}/${files.length}] ${file.path}: ${outcome.serverFault ? 'failed' : 'refused'}: ${outcome.refused}`);
      } else {
        tally.gamesStored += outcome.stored;
        tally.duplicates += outcome.duplicates;
        progress.note(`[${done}/${files.length}] ${file.path}: ${outcome.stored} stored, ${outcome.duplicates} duplicate${outcome.duplicates === 1 ? '' : 's'}`);
      }
      progress.update(done, files.length, `${tally.gamesStored} games stored`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, files.length)) }, worker));
}

type UploadOutcome = { stored: number; duplicates: number } | { refused: string; serverFault: boolean };

/**
 * The redirect mode of the requests that send files. With fetch's default (`follow`) a request's body
 * is copied as it is sent, to be sent again should the answer be a redirect: a tee of its stream
 * whose second branch nobody reads, so the whole file or folder piled up in this process's memory
 * while it went out (a 140 MB folder: 133 MB). The archive never redirects these routes; a redirect
 * is an error.
 */
const NO_REDIRECT = 'error' as const;

/**
 * One file through `POST /uploads`, streamed from disk. A new file: its games counted by their
 * outcome (indexed and stored are new games, duplicate ones the archive had). The same file again
 * (200): all its games are duplicates. 429/503 are waited out; 401 stops the whole command.
 */
async function uploadOne(connection: Connection, file: InputFile, format: string | undefined): Promise<UploadOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await uploadFile({
      client: connection.client,
      body: await openAsBlob(file.path),
      headers: { 'Content-Type': 'application/octet-stream' },
      redirect: NO_REDIRECT,
      query: { filename: basename(file.path).slice(0, 255), ...(format ? { format } : {}) },
    });
    if (!result.response) throw unreachable(connection, result.error);
    if (await waitToRetry(result.response, attempt)) continue;
    const status = result.response.status;
    if (status === 401 || status === 403) throw new CliError(`POST /uploads: ${describeProblem(status, result.error)}`, EXIT.server);
    if (!result.response.ok) return { refused: describeProblem(status, result.error), serverFault: status >= 500 };
    const upload = result.data as UploadDto;
    if (status === 200) return { stored: 0, duplicates: upload.games.length };
    const duplicates = upload.games.filter((game) => game.outcome === 'duplicate').length;
    return { stored: upload.games.length - duplicates, duplicates };
  }
}

/**
 * Plain files as one import: a tar made as it is sent, each file read from disk in turn (never the
 * whole folder in memory or in a copy), its entries named as `InputFile.name` says. Then its
 * progress followed, and a line for each file once it is done.
 */
async function importPlainFiles(connection: Connection, files: readonly InputFile[], options: ImportOptions, tally: Tally, progress: Progress): Promise<void> {
  const label = files.length === 1 ? files[0].name : `${files.length} files`;
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const sent = await sendImport(connection, { label: `${label} (sending)`, bytes, mediaType: 'application/x-tar', make: (counted) => tarOf(files, counted) }, progress);
  if ('refused' in sent) {
    tally.files += files.length;
    tally.refused.push({ path: label, reason: sent.refused });
    progress.note(`${label}: refused: ${sent.refused}`);
    return;
  }
  const state = await followImport(connection, sent.state, label, options, progress);
  countImport(state, tally);
  for await (const line of resultLines(connection, state.id)) {
    const path = files[line.position]?.path ?? line.path;
    const text = resultText(line);
    if (line.outcome === 'refused') tally.refused.push({ path, reason: text });
    progress.note(`[${line.position + 1}/${state.filesTotal}] ${path}: ${line.outcome === 'refused' ? `refused: ${text}` : text}`);
  }
  failedImport(state, label, tally);
}

/** One zip or tar through `POST /imports`: sent from disk, then its progress followed until it is done, then its refused entries read. */
async function importArchive(connection: Connection, archive: InputFile, options: ImportOptions, tally: Tally, progress: Progress): Promise<void> {
  const kind = archive.kind as keyof typeof ARCHIVE_MEDIA_TYPES;
  const name = basename(archive.path);
  const file = await openAsBlob(archive.path);
  const sent = await sendImport(connection, { label: `${name} (sending)`, bytes: file.size, mediaType: ARCHIVE_MEDIA_TYPES[kind], filename: name, make: (counted) => new CountedBlob([file], counted) }, progress);
  if ('refused' in sent) {
    // The archive as a whole was refused (too large, too many files, damaged): one refused file.
    tally.files += 1;
    tally.refused.push({ path: archive.path, reason: sent.refused });
    progress.note(`${archive.path}: refused: ${sent.refused}`);
    return;
  }
  const state = await followImport(connection, sent.state, name, options, progress);
  countImport(state, tally);
  for await (const line of resultLines(connection, state.id)) {
    if (line.outcome === 'refused') tally.refused.push({ path: `${archive.path}!/${line.path}`, reason: resultText(line) });
  }
  failedImport(state, archive.path, tally);
  progress.note(`${archive.path}: ${state.filesDone} files, ${state.gamesStored} games stored, ${state.duplicates} duplicates, ${state.refused} refused`);
}

/** What `POST /imports` is sent: a body made afresh for each attempt, told of its bytes as they go out. */
interface ImportBody {
  readonly label: string;
  readonly bytes: number;
  readonly mediaType: string;
  readonly filename?: string;
  readonly make: (counted: (sent: number) => void) => Blob | ReadableStream<Uint8Array>;
}

/**
 * `POST /imports`, 429 and 503 waited out, the body's bytes shown as they are sent. The import's
 * first state, or why the archive refused the body as a whole.
 */
async function sendImport(connection: Connection, body: ImportBody, progress: Progress): Promise<{ state: ImportDto } | { refused: string }> {
  for (let attempt = 1; ; attempt += 1) {
    progress.begin(body.label, 'bytes', body.bytes);
    const made = body.make((sent) => progress.update(Math.min(sent, body.bytes)));
    const result = await postImport({
      client: connection.client,
      body: made as Blob,
      headers: { 'Content-Type': body.mediaType },
      query: body.filename === undefined ? {} : { filename: body.filename.slice(0, 255) },
      // fetch sends a stream as it is made (chunked) only when told so.
      ...(made instanceof Blob ? {} : { duplex: 'half' as const }),
      redirect: NO_REDIRECT,
    });
    progress.end();
    if (await waitToRetry(result.response, attempt)) continue;
    const status = result.response?.status ?? 0;
    if (result.response && !result.response.ok && status !== 401 && status !== 403 && status < 500) return { refused: describeProblem(status, result.error) };
    return { state: answerOf(connection, result, 'POST /imports').data };
  }
}

/**
 * Looks at an import until it is no longer running. An archive that stops answering meanwhile (a
 * restart: the archive goes on with an import after its last finished file) is waited for, up to
 * `options.patienceMs`; so is a 503.
 */
async function followImport(connection: Connection, first: ImportDto, label: string, options: ImportOptions, progress: Progress): Promise<ImportDto> {
  let state = first;
  progress.begin(label, 'files', state.filesTotal);
  let silentSince: number | undefined;
  let noted = false;
  while (state.state === 'running') {
    progress.update(state.filesDone, state.filesTotal, `${state.gamesStored} games stored`);
    await sleep(options.pollMs);
    const result = await getImport({ client: connection.client, path: { id: state.id } });
    const status = result.response?.status;
    if (status === undefined || status === 502 || status === 503 || status === 504) {
      silentSince ??= Date.now();
      if (Date.now() - silentSince > options.patienceMs) answerOf(connection, result, `GET /imports/${state.id}`);
      if (!noted) progress.note(`${label}: the archive is not answering; waiting up to ${Math.round(options.patienceMs / 1000)} s for it to go on`);
      noted = true;
      continue;
    }
    noted = false;
    silentSince = undefined;
    state = answerOf(connection, result, `GET /imports/${state.id}`).data;
  }
  progress.update(state.filesDone, state.filesTotal, `${state.gamesStored} games stored`);
  progress.end();
  return state;
}

function countImport(state: ImportDto, tally: Tally): void {
  tally.files += state.filesTotal;
  tally.gamesStored += state.gamesStored;
  tally.duplicates += state.duplicates;
}

function failedImport(state: ImportDto, path: string, tally: Tally): void {
  if (state.state !== 'failed') return;
  const why = state.problem ? `: ${describeProblem(state.problem.status, state.problem)}` : '';
  tally.failed.push({ path, reason: `the import stopped after ${state.filesDone} of ${state.filesTotal} files${why}` });
}

/** A results line as the summary and the per-file lines say it. */
function resultText(line: ImportResultDto): string {
  if (line.outcome === 'refused') return line.problem ? describeProblem(line.problem.status, line.problem) : 'refused';
  const games = line.gameIds.length;
  return line.outcome === 'duplicate' ? `${games} duplicate${games === 1 ? '' : 's'}` : `${line.outcome}, ${games} game${games === 1 ? '' : 's'}`;
}

/**
 * The files as a tar stream (tar-stream), one entry after another, each read from disk as it is
 * written; `counted` hears the bytes of the files read so far.
 */
function tarOf(files: readonly InputFile[], counted: (sent: number) => void): ReadableStream<Uint8Array> {
  const tar = pack();
  let read = 0;
  const write = async () => {
    for (const file of files) {
      // Sized now, not when the folder was walked: a tar entry must hold exactly the bytes its header says.
      const { size } = await stat(file.path);
      const source = createReadStream(file.path);
      await new Promise<void>((resolve, reject) => {
        const entry = tar.entry({ name: file.name, size }, (error) => (error ? reject(error) : resolve()));
        source.on('error', reject);
        source.on('data', (chunk) => {
          read += chunk.length;
          counted(read);
        });
        source.pipe(entry);
      });
    }
    tar.finalize();
  };
  write().catch((error: Error) => tar.destroy(error));
  // tar-stream's streams are streamx streams: Readable.from takes them as the async iterables they are.
  return Readable.toWeb(Readable.from(tar)) as unknown as ReadableStream<Uint8Array>;
}

/**
 * A Blob (so fetch still sends its length) that counts its bytes as they are read for sending.
 * Made of a file's Blob, it refers to the file; nothing is read into memory beforehand.
 */
class CountedBlob extends Blob {
  private sent = 0;

  constructor(
    parts: Blob[],
    private readonly counted: (sent: number) => void,
  ) {
    super(parts);
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.sent = 0;
    return super.stream().pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform: (chunk, controller) => {
          this.sent += chunk.byteLength;
          this.counted(this.sent);
          controller.enqueue(chunk);
        },
      }),
    );
  }
}

/** The NDJSON lines of an import's results (`ImportResultDto`), read as they stream in: an import may have many files. */
async function* resultLines(connection: Connection, id: number): AsyncGenerator<ImportResultDto> {
  const result = await getImportResults({ client: connection.client, path: { id }, parseAs: 'stream' });
  const { data } = answerOf(connection, result, `GET /imports/${id}/results`);
  const lines = createInterface({ input: Readable.fromWeb(data as unknown as WebReadableStream<Uint8Array>), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    yield JSON.parse(line) as ImportResultDto;
  }
}
