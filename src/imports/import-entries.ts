import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable, TransformCallback } from 'node:stream';
import { crc32, createGunzip, gunzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import yauzl from 'yauzl';
import type { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import type { ProblemCode } from '../common/problem-codes.js';
import { makeProblem } from '../common/problem-details.js';
import type { ProblemDetails } from '../common/problem-details.js';
import type { ReceivedFile } from '../http/upload-body.js';

/** What a bulk import was sent as. */
export const IMPORT_KINDS = ['zip', 'tar', 'tar.gz', 'multipart', 'file'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The limits an import's files are read under (MAX_UPLOAD_BYTES, MAX_IMPORT_EXPANDED_BYTES, MAX_IMPORT_ENTRIES). */
export interface EntryLimits {
  readonly maxEntryBytes: number;
  readonly maxExpandedBytes: number;
  readonly maxEntries: number;
}

/** The entry limits of the configuration. */
export function entryLimits(config: Pick<AppConfig, 'MAX_UPLOAD_BYTES' | 'MAX_IMPORT_EXPANDED_BYTES' | 'MAX_IMPORT_ENTRIES'>): EntryLimits {
  return { maxEntryBytes: config.MAX_UPLOAD_BYTES, maxExpandedBytes: config.MAX_IMPORT_EXPANDED_BYTES, maxEntries: config.MAX_IMPORT_ENTRIES };
}

/** One file of an import, in archive order: its bytes, or why it is refused without being read. */
export interface ImportEntry {
  readonly position: number;
  readonly path: string;
  readonly file?: ReceivedFile;
  readonly problem?: ProblemDetails;
}

/** A part of a multipart import as spooled: `parts.json` lists them in the order they came. */
export interface SpooledPart {
  readonly file: string;
  readonly name: string;
  readonly mediaType: string;
}

/** The spooled body of a raw import, in the spool folder (listed in `parts.json` as its one part). */
export const BODY_FILE = 'body';
/** The list of spooled parts of a multipart import. */
export const PARTS_FILE = 'parts.json';

const OCTET_STREAM = 'application/octet-stream';

/** Zip by its local or empty-archive signature, gzip by its magic number, tar by `ustar` at 257. */
export async function kindOfBody(path: string): Promise<ImportKind> {
  const head = Buffer.alloc(512);
  const handle = await open(path, 'r');
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const bytes = head.subarray(0, length);
  if (isZip(bytes)) return 'zip';
  if (isTar(bytes)) return 'tar';
  if (isGzip(bytes)) {
    // Only as much is unpacked as the first tar header needs.
    const start = await firstBytes(createReadStream(path).pipe(createGunzip()), 512);
    return isTar(start) ? 'tar.gz' : 'file';
  }
  return 'file';
}

const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
const isGzip = (bytes: Buffer) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
const isTar = (bytes: Buffer) => bytes.length >= 262 && bytes.toString('latin1', 257, 262) === 'ustar';

/** An archive inside an import (refused there: MAX_IMPORT_DEPTH is 1). */
function isArchive(bytes: Buffer): boolean {
  if (isZip(bytes) || isTar(bytes)) return true;
  if (!isGzip(bytes)) return false;
  try {
    return isTar(gunzipSync(bytes, { finishFlush: 2, maxOutputLength: 512 }));
  } catch {
    return false;
  }
}

async function firstBytes(stream: Readable, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= count) break;
    }
  } catch {
    // A damaged stream has no tar header to find.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/**
 * Counts the files an import holds, checking its archive-level limits before anything is stored:
 * for a zip from its central directory alone, for a tar by reading its headers (entry contents are
 * skipped, a tar.gz is unpacked as it goes). Directories are not files. Throws 422 problems.
 */
export async function countFiles(folder: string, kind: ImportKind, limits: EntryLimits): Promise<number> {
  if (kind === 'file') return 1;
  if (kind === 'multipart') return (await parts(folder)).length;
  const tally = new Tally(limits);
  if (kind === 'zip') {
    await walkZip(join(folder, BODY_FILE), async (entry) => {
      if (!isDirectoryName(zipName(entry))) tally.add(entry.uncompressedSize);
      return false;
    });
  } else {
    await walkTar(
      join(folder, BODY_FILE),
      kind === 'tar.gz',
      async (header, stream) => {
        stream.resume();
        if (header.type !== 'directory') tally.add(header.size ?? 0);
      },
      async () => tally.add(0),
    );
  }
  return tally.files;
}

class Tally {
  files = 0;
  private bytes = 0;

  constructor(private readonly limits: EntryLimits) {}

  add(size: number): void {
    this.files++;
    this.bytes += size;
    if (this.files > this.limits.maxEntries) {
      throw new ProblemException(422, 'import.too_many_entries', `the import holds more than ${this.limits.maxEntries} files (MAX_IMPORT_ENTRIES)`);
    }
    if (this.bytes > this.limits.maxExpandedBytes) {
      throw new ProblemException(
        422,
        'import.expanded_too_large',
        `the import's files unpack to more than ${this.limits.maxExpandedBytes} bytes (MAX_IMPORT_EXPANDED_BYTES)`,
      );
    }
  }
}

/**
 * The files of an import in order, from position `from` on (earlier ones are passed over unread):
 * each with its bytes, or with the problem that refuses it. Only one file's bytes are held at a time.
 */
export async function* importEntries(folder: string, kind: ImportKind, limits: EntryLimits, from: number): AsyncGenerator<ImportEntry> {
  if (kind === 'file' || kind === 'multipart') {
    const list = await parts(folder);
    for (let position = from; position < list.length; position++) {
      const part = list[position];
      const bytes = await readFile(join(folder, part.file));
      yield { position, path: part.name, file: { bytes, mediaType: part.mediaType, filename: baseName(part.name) } };
    }
    return;
  }
  // Entries are handed over through a queue of one: the archive is read no further than the consumer.
  const queue = new Handoff<ImportEntry>();
  let position = 0;
  const next = (entry: Omit<ImportEntry, 'position'>) => queue.put({ position: position++, ...entry });
  const reading = (async () => {
    if (kind === 'zip') {
      await walkZip(join(folder, BODY_FILE), async (entry, zip) => {
        const name = zipName(entry);
        if (isDirectoryName(name)) return false;
        if (position < from) {
          position++;
          return false;
        }
        const refusal = refusalOfName(name) ?? refusalOfZipMode(entry) ?? refusalOfSize(entry.uncompressedSize, limits);
        if (refusal) return !(await next({ path: name, problem: refusal }));
        const bytes = await readAll(await zip.openReadStreamPromise(entry), limits.maxEntryBytes);
        // yauzl checks the sizes but not the CRC-32: altered bytes must not be stored as the file.
        const crc = crc32(bytes);
        if (crc !== entry.crc32) {
          return !(await next({ path: name, problem: refused('import.checksum_mismatch', `${name}: its bytes have the CRC-32 ${hex(crc)}, its header says ${hex(entry.crc32)}: the entry is damaged`) }));
        }
        return !(await next(fileEntry(name, bytes)));
      });
    } else {
      await walkTar(join(folder, BODY_FILE), kind === 'tar.gz', async (header, stream) => {
        if (header.type === 'directory') {
          stream.resume();
          return;
        }
        const name = header.name;
        if (position < from) {
          position++;
          stream.resume();
          return;
        }
        const refusal = refusalOfName(name) ?? refusalOfTarType(header.type) ?? refusalOfSize(header.size ?? 0, limits);
        if (refusal) {
          stream.resume();
          if (!(await next({ path: name, problem: refusal }))) return 'stop';
          return;
        }
        const bytes = await readAll(stream, limits.maxEntryBytes);
        if (!(await next(fileEntry(name, bytes)))) return 'stop';
      }, async (name) => {
        if (position < from) {
          position++;
          return;
        }
        const problem = refused('import.checksum_mismatch', `${name}: its tar header fails its checksum: the entry is damaged and skipped`);
        if (!(await next({ path: name, problem }))) return 'stop';
      });
    }
  })().then(
    () => queue.end(),
    (error: unknown) => queue.fail(error),
  );
  try {
    for (;;) {
      const item = await queue.take();
      if (item === undefined) break;
      yield item;
    }
  } finally {
    queue.close();
    await reading;
  }
}

function fileEntry(path: string, bytes: Buffer): Omit<ImportEntry, 'position'> {
  if (isArchive(bytes)) {
    return { path, problem: makeProblem(422, 'import.nested_archive', `${path} is an archive inside the import; archives are unpacked one level deep (MAX_IMPORT_DEPTH is 1)`) };
  }
  return { path, file: { bytes, mediaType: OCTET_STREAM, filename: baseName(path) } };
}

async function parts(folder: string): Promise<SpooledPart[]> {
  return JSON.parse(await readFile(join(folder, PARTS_FILE), 'utf8')) as SpooledPart[];
}

/** The last segment of a path inside an archive: the file name its games keep. */
function baseName(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.length > 0 ? name : undefined;
}

const isDirectoryName = (name: string) => name.endsWith('/');

/** A name that would leave the folder it is unpacked into, or that no file system takes as one path. */
function refusalOfName(name: string): ProblemDetails | undefined {
  const unsafe =
    name.length === 0 ? 'an empty name'
    : name.includes('\\') ? 'a backslash'
    : /[\u0000-\u001f\u007f]/.test(name) ? 'a control character'
    : name.startsWith('/') ? 'an absolute path'
    : /^[A-Za-z]:/.test(name) ? 'a drive letter'
    : name.split('/').includes('..') ? 'a `..` segment'
    : undefined;
  return unsafe ? refused('import.unsafe_path', `${JSON.stringify(name)} has ${unsafe}: only relative paths inside the archive are imported`) : undefined;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** Zip entries made on Unix carry their mode: anything but a regular file (a symlink above all) is refused. */
function refusalOfZipMode(entry: yauzl.Entry): ProblemDetails | undefined {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (!madeOnUnix || type === 0 || type === S_IFREG || type === S_IFDIR) return undefined;
  const what = type === 0o120000 ? 'a symbolic link' : 'not a regular file';
  return refused('import.not_a_file', `${zipName(entry)} is ${what}: only regular files are imported`);
}

function refusalOfTarType(type: string | null | undefined): ProblemDetails | undefined {
  if (type === 'file' || type === 'contiguous-file' || type === null || type === undefined) return undefined;
  return refused('import.not_a_file', `a ${type} entry: only regular files are imported`);
}

function refusalOfSize(size: number, limits: EntryLimits): ProblemDetails | undefined {
  return size > limits.maxEntryBytes ? makeProblem(413, 'upload.too_large', `the file is larger than the limit of ${limits.maxEntryBytes} bytes (MAX_UPLOAD_BYTES)`) : undefined;
}

function refused(code: ProblemCode, detail: string): ProblemDetails {
  return makeProblem(422, code, detail);
}

/** Names as the zip writes them: UTF-8 when flagged (or given in an Info-ZIP extra field), else CP437. */
function zipName(entry: yauzl.Entry): string {
  const cached = zipNames.get(entry);
  if (cached !== undefined) return cached;
  const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
  zipNames.set(entry, name);
  return name;
}
const zipNames = new WeakMap<yauzl.Entry, string>();

/** Reads a stream whole, refusing past `max` bytes whatever its header claimed. */
async function readAll(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new ProblemException(422, 'import.malformed_archive', `an entry holds more bytes than its header says`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Visits a zip's entries in central-directory order; `visit` answers true to stop. Entry sizes are
 * checked against what is read (yauzl's validateEntrySizes), so a lying header fails the read.
 */
async function walkZip(path: string, visit: (entry: yauzl.Entry, zip: yauzl.ZipFile) => Promise<boolean>): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, decodeStrings: false, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw malformed(error);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      let stopped = false;
      zip.on('error', (error: unknown) => reject(malformed(error)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        visit(entry, zip).then(
          (stop) => {
            if (stop || stopped) {
              stopped = true;
              resolve();
            } else zip.readEntry();
          },
          (error: unknown) => reject(error instanceof ProblemException ? error : malformed(error)),
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/**
 * Visits a tar's entries in order (`visit` must consume or resume each stream; 'stop' ends the walk).
 * An entry whose header fails its checksum is not handed to tar-stream (which would give up on the
 * whole archive) but to `damaged`, by the name its header gives, in its place among the others.
 */
async function walkTar(
  path: string,
  gzipped: boolean,
  visit: (header: tar.Header, stream: Readable) => Promise<'stop' | void>,
  damaged: (name: string) => Promise<'stop' | void>,
): Promise<void> {
  const source = createReadStream(path);
  const extract = tar.extract();
  const checked = new TarHeaderCheck();
  const input = gzipped ? source.pipe(createGunzip()) : source;
  input.on('error', (error: Error) => extract.destroy(error));
  checked.on('error', (error: Error) => extract.destroy(error));
  input.pipe(checked).pipe(extract);
  let entries = 0;
  const damagedBefore = async (count: number): Promise<'stop' | void> => {
    while (checked.damaged.length > 0 && checked.damaged[0].before <= count) {
      if ((await damaged(checked.damaged.shift()!.name)) === 'stop') return 'stop';
    }
  };
  try {
    let stopped = false;
    for await (const entry of extract) {
      if ((await damagedBefore(entries)) === 'stop') {
        stopped = true;
        (entry as unknown as Readable).resume();
        break;
      }
      entries++;
      if ((await visit(entry.header, entry as unknown as Readable)) === 'stop') {
        stopped = true;
        break;
      }
    }
    if (!stopped) await damagedBefore(Infinity);
  } catch (error) {
    throw error instanceof ProblemException ? error : malformed(error);
  } finally {
    source.destroy();
    extract.destroy();
  }
}

const hex = (crc: number) => crc.toString(16).padStart(8, '0');

const BLOCK = 512;
/** Tar header types tar-stream reads as part of the next entry (pax and GNU long names), not as entries. */
const NOT_ENTRIES = new Set(['x', 'g', 'L', 'K'].map((c) => c.charCodeAt(0)));

/**
 * Passes a tar through block by block, checking each header's checksum as tar-stream computes it.
 * A header that fails is dropped with the blocks of its entry (as many as its size field says when
 * that is readable, then up to the next header that passes), and listed in `damaged` with the
 * number of entries passed before it, so the walk refuses it in its place and goes on.
 */
class TarHeaderCheck extends Transform {
  readonly damaged: { name: string; before: number }[] = [];
  private rest = Buffer.alloc(0);
  private dataBlocks = 0;
  private searching = false;
  private entries = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    let at = 0;
    for (; at + BLOCK <= bytes.length; at += BLOCK) {
      const block = bytes.subarray(at, at + BLOCK);
      if (this.keep(block)) this.push(block);
    }
    this.rest = Buffer.from(bytes.subarray(at));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.rest.length > 0) this.push(this.rest);
    callback();
  }

  private keep(block: Buffer): boolean {
    if (this.dataBlocks > 0) {
      this.dataBlocks--;
      return !this.searching;
    }
    if (block.every((byte) => byte === 0)) {
      this.searching = false;
      return true;
    }
    const size = octal(block, 124, 12);
    if (checksumOf(block) === octal(block, 148, 8)) {
      this.searching = false;
      const type = block[156];
      this.dataBlocks = type === 0x35 ? 0 : Math.ceil((size ?? 0) / BLOCK);
      if (!NOT_ENTRIES.has(type)) this.entries++;
      return true;
    }
    if (!this.searching) {
      const prefix = block.subarray(257, 262).toString('latin1') === 'ustar' ? text(block, 345, 155) : '';
      const name = text(block, 0, 100);
      this.damaged.push({ name: prefix ? `${prefix}/${name}` : name, before: this.entries });
      this.searching = true;
      this.dataBlocks = size === undefined ? 0 : Math.ceil(size / BLOCK);
    }
    return false;
  }
}

/** The sum tar headers keep at 148: every byte, the checksum field itself counted as spaces. */
function checksumOf(block: Buffer): number {
  let sum = 8 * 0x20;
  for (let i = 0; i < 148; i++) sum += block[i];
  for (let i = 156; i < BLOCK; i++) sum += block[i];
  return sum;
}

/** An octal field of a tar header; undefined when it is not one (base-256 sizes are read too). */
function octal(block: Buffer, offset: number, length: number): number | undefined {
  const field = block.subarray(offset, offset + length);
  if (field[0] & 0x80) {
    let value = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i];
    return value;
  }
  const digits = field.toString('latin1').replace(/[\0 ]+$/, '').replace(/^[ ]+/, '');
  return /^[0-7]+$/.test(digits) ? parseInt(digits, 8) : undefined;
}

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function malformed(error: unknown): ProblemException {
  return new ProblemException(422, 'import.malformed_archive', `the archive cannot be read: ${(error as Error)?.message ?? String(error)}`);
}

/**
 * A hand-over of one item at a time between a producer and a consumer: `put` resolves when the item
 * is taken (false when the consumer has gone), `take` resolves with the next item, undefined at the end.
 */
class Handoff<T> {
  private item: { value: T; taken: (accepted: boolean) => void } | undefined;
  private waiter: ((value: { value: T } | undefined) => void) | undefined;
  private failure: { error: unknown } | undefined;
  private done = false;
  private closed = false;
  private failWaiter: ((error: unknown) => void) | undefined;

  put(value: T): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise<boolean>((taken) => {
      if (this.waiter) {
        const waiter = this.waiter;
        this.waiter = undefined;
        this.failWaiter = undefined;
        waiter({ value });
        taken(true);
      } else this.item = { value, taken };
    });
  }

  take(): Promise<T | undefined> {
    if (this.item) {
      const { value, taken } = this.item;
      this.item = undefined;
      taken(true);
      return Promise.resolve(value);
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.done) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve, reject) => {
      this.waiter = (next) => resolve(next?.value);
      this.failWaiter = reject;
    });
  }

  end(): void {
    this.done = true;
    this.waiter?.(undefined);
    this.waiter = undefined;
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.failWaiter?.(error);
    this.waiter = undefined;
    this.failWaiter = undefined;
  }

  /** The consumer has gone: a waiting producer is told so, and later puts are refused. */
  close(): void {
    this.closed = true;
    this.item?.taken(false);
    this.item = undefined;
  }
}
