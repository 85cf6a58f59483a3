import { createReadStream, createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import * as tar from 'tar-stream';
import { ZipFile } from 'yazl';

/** What an export walks: a game, or an id it was asked for that names none. */
export type ExportItem<T> = { readonly game: T } | { readonly missing: number };

/** An entry's content: bytes in memory, or a stream of a known size. */
export type EntryContent = Buffer | { readonly stream: Readable; readonly size: number };

/** A zip or tar being written: entries go in one at a time, the archive's bytes come out of `output`. */
export interface ArchiveWriter {
  readonly output: Readable;
  /** Resolves once the entry's bytes are taken in, so entries never queue up ahead of a slow client. */
  add(name: string, content: EntryContent, mtime: Date, signal: AbortSignal): Promise<void>;
  /** No more entries: the directory (zip) or end blocks (tar) follow. */
  finish(): void;
}

/**
 * A zip written by yazl, deflated, ZIP64 where sizes or counts need it. Each entry is handed over
 * as a stream made when yazl starts on it and dropped after: yazl keeps only the central directory
 * (about 100 bytes and the name per entry) until the end, which the zip format requires.
 */
export function zipWriter(): ArchiveWriter {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  output.on('error', () => undefined);
  zip.on('error', (error: Error) => output.destroy(error));
  return {
    output,
    add(name, content, mtime, signal) {
      let stream: Readable | undefined = Buffer.isBuffer(content) ? Readable.from([content]) : content.stream;
      const taken = finished(stream, { signal });
      zip.addReadStreamLazy(name, { mtime, size: Buffer.isBuffer(content) ? content.length : content.size }, (give) => {
        const handed = stream!;
        stream = undefined;
        give(null, handed);
      });
      return taken;
    },
    finish() {
      zip.end();
    },
  };
}

/** A tar (POSIX ustar, pax headers for long names) written by tar-stream; memory stays flat. */
export function tarWriter(): ArchiveWriter {
  const pack = tar.pack();
  // Errors reach the entries' callbacks and the output; the emitters themselves need a listener.
  pack.on('error', () => undefined);
  return {
    output: Readable.from(pack, { objectMode: false }),
    add(name, content, mtime, signal) {
      return new Promise<void>((resolve, reject) => {
        const abort = () => reject(signal.reason);
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        const done = (error?: Error | null) => {
          signal.removeEventListener('abort', abort);
          if (error) reject(error);
          else resolve();
        };
        if (Buffer.isBuffer(content)) {
          pack.entry({ name, size: content.length, mtime }, content, done).on('error', () => undefined);
        } else {
          const entry = pack.entry({ name, size: content.size, mtime }, done).on('error', () => undefined);
          content.stream.pipe(entry as unknown as Writable);
        }
      });
    },
    finish() {
      pack.finalize();
    },
  };
}

/** The manifest's lines, written to a temporary file as they come, so no export holds them all in memory. */
export class ManifestSpool {
  private constructor(
    private readonly folder: string,
    readonly path: string,
    private readonly out: WriteStream,
  ) {}

  static async open(): Promise<ManifestSpool> {
    const folder = await mkdtemp(join(tmpdir(), 'tabula-export-'));
    const path = join(folder, 'manifest.ndjson');
    const out = createWriteStream(path);
    // A write failing (or coming after an export broke off) rejects the line that made it; the stream itself needs a listener.
    out.on('error', () => undefined);
    return new ManifestSpool(folder, path, out);
  }

  async line(value: unknown, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (!this.out.write(`${JSON.stringify(value)}\n`)) await once(this.out, 'drain', { signal });
  }

  /** The file, complete, as an entry's content. */
  async content(): Promise<EntryContent> {
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return { stream: createReadStream(this.path), size: (await stat(this.path)).size };
  }

  async remove(): Promise<void> {
    this.out.destroy();
    await rm(this.folder, { recursive: true, force: true });
  }
}

/**
 * Writes an archive to the client while `fill` adds its entries: the archive's bytes flow to the
 * socket at the client's pace, and `fill` waits whenever they back up. A client that goes away
 * aborts `fill` (its signal); a failing `fill` breaks the archive off, so the client never takes a
 * truncated archive for a whole one.
 */
export async function sendArchive(archive: ArchiveWriter, response: Writable, fill: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  archive.output.on('error', () => undefined);
  const sending = pipeline(archive.output, response).catch((error: unknown) => {
    stop.abort(error);
    throw error;
  });
  const filling = fill(stop.signal).then(
    () => archive.finish(),
    (error: unknown) => {
      archive.output.destroy(error as Error);
      throw error;
    },
  );
  const [sent, filled] = await Promise.allSettled([sending, filling]);
  if (sent.status === 'rejected') throw sent.reason;
  if (filled.status === 'rejected') throw filled.reason;
}

/**
 * Maps items with up to `width` of them in progress at once, yielding results in the order the
 * items came. `work` must not reject (return failures as values).
 */
export async function* inOrder<T, R>(items: AsyncIterable<T>, work: (item: T) => Promise<R>, width: number): AsyncGenerator<R> {
  const running: Promise<R>[] = [];
  for await (const item of items) {
    running.push(work(item));
    if (running.length >= width) yield await running.shift()!;
  }
  while (running.length > 0) yield await running.shift()!;
}
