import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { answerOf, describeProblem, unreachable, waitToRetry } from './connection.js';
import type { Connection } from './connection.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { getImport, getImportResults, importFiles, uploadFile } from './generated/sdk.gen.js';
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

/** `tabula import`: every file named, plain files through `POST /uploads`, zip and tar files through `POST /imports`. */
export async function runImport(connection: Connection, io: CliIo, paths: readonly string[], options: ImportOptions): Promise<ExitCode> {
  const inputs = await collectInputs(paths);
  const plain = inputs.filter((input) => input.kind === 'file');
  const archives = inputs.filter((input) => input.kind !== 'file');
  const tally: Tally = { files: 0, archives: archives.length, gamesStored: 0, duplicates: 0, refused: [], failed: [] };
  const progress = progressFor(io, options.quiet);
  try {
    if (plain.length > 0) await uploadAll(connection, plain, options, tally, progress);
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

/** One zip or tar through `POST /imports`: sent from disk, then its progress followed until it is done, then its refused entries read. */
async function importArchive(connection: Connection, archive: InputFile, options: ImportOptions, tally: Tally, progress: Progress): Promise<void> {
  const kind = archive.kind as keyof typeof ARCHIVE_MEDIA_TYPES;
  const name = basename(archive.path);
  let state: ImportDto;
  for (let attempt = 1; ; attempt += 1) {
    // The archive is sent first (a gigabyte may take a while): its bytes, counted as fetch reads them.
    const archiveFile = await openAsBlob(archive.path);
    progress.begin(`${name} (sending)`, 'bytes', archiveFile.size);
    const result = await importFiles({
      client: connection.client,
      body: new CountedBlob([archiveFile], (sent) => progress.update(sent)),
      headers: { 'Content-Type': ARCHIVE_MEDIA_TYPES[kind] },
      query: { filename: name.slice(0, 255) },
    });
    progress.end();
    if (await waitToRetry(result.response, attempt)) continue;
    const status = result.response?.status ?? 0;
    if (result.response && !result.response.ok && status !== 401 && status !== 403 && status < 500) {
      // The archive as a whole was refused (too large, too many files, damaged): one refused file.
      const reason = describeProblem(status, result.error);
      tally.files += 1;
      tally.refused.push({ path: archive.path, reason });
      progress.note(`${archive.path}: refused: ${reason}`);
      return;
    }
    state = answerOf(connection, result, `POST /imports (${archive.path})`).data;
    break;
  }
  const id = state.id;
  progress.begin(name, 'files', state.filesTotal);
  for (;;) {
    progress.update(state.filesDone, state.filesTotal, `${state.gamesStored} games stored`);
    if (state.state !== 'running') break;
    await sleep(options.pollMs);
    state = answerOf(connection, await getImport({ client: connection.client, path: { id } }), `GET /imports/${id}`).data;
  }
  progress.end();
  tally.files += state.filesTotal;
  tally.gamesStored += state.gamesStored;
  tally.duplicates += state.duplicates;
  for await (const line of resultLines(connection, id)) {
    if (line.outcome === 'refused') tally.refused.push({ path: `${archive.path}!/${line.path}`, reason: line.problem ? describeProblem(line.problem.status, line.problem) : 'refused' });
  }
  if (state.state === 'failed') {
    const why = state.problem ? `: ${describeProblem(state.problem.status, state.problem)}` : '';
    tally.failed.push({ path: archive.path, reason: `the import stopped after ${state.filesDone} of ${state.filesTotal} files${why}` });
  }
  progress.note(`${archive.path}: ${state.filesDone} files, ${state.gamesStored} games stored, ${state.duplicates} duplicates, ${state.refused} refused`);
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
