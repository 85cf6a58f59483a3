import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { controlCharacterIn } from '../common/text-parameters.middleware.js';
import { BODY_FILE, PARTS_FILE } from './import-entries.js';
import type { SpooledPart } from './import-entries.js';
import type { SpoolFile } from './imports.repository.js';

/** Where import bodies are spooled: under DATA_DIR for an embedded database on disk, else the system's temporary folder. */
export function spoolRoot(config: AppConfig): string {
  const onDisk = config.DATABASE_URL === undefined && config.DATA_DIR !== 'memory://';
  return onDisk ? resolve(config.DATA_DIR, 'imports') : join(tmpdir(), 'tabula-imports');
}

/** A request body written to its own spool folder: the raw body, or each multipart `file` part. */
export interface SpooledBody {
  readonly folder: string;
  readonly multipart: boolean;
  readonly filename: string | null;
}

/**
 * Writes the request body to a new folder under `root` as it streams in, never holding it whole:
 * refused with 413 as soon as it passes MAX_IMPORT_BYTES (a multipart part also past
 * MAX_UPLOAD_BYTES), and the folder removed again on any failure.
 */
export async function spoolImport(request: Request, response: Response, root: string, config: AppConfig, filename?: string): Promise<SpooledBody> {
  const folder = join(root, randomUUID());
  await mkdir(folder, { recursive: true, mode: 0o700 });
  try {
    if (request.is('multipart/form-data')) {
      const list = await spoolParts(request, response, folder, config);
      await writeFile(join(folder, PARTS_FILE), JSON.stringify(list));
      return { folder, multipart: true, filename: null };
    }
    await spoolRaw(request, join(folder, BODY_FILE), config.MAX_IMPORT_BYTES);
    const name = filename ?? null;
    const part: SpooledPart = { file: BODY_FILE, name: name ?? '', mediaType: request.headers['content-type'] ?? 'application/octet-stream' };
    await writeFile(join(folder, PARTS_FILE), JSON.stringify([part]));
    return { folder, multipart: false, filename: name };
  } catch (error) {
    request.resume();
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

function tooLarge(max: number): ProblemException {
  return new ProblemException(413, 'import.too_large', `the import is larger than the limit of ${max} bytes (MAX_IMPORT_BYTES)`);
}

/** Counts what passes, failing past `max` bytes. */
function counter(max: number, tooMuch: () => Error, seen: { bytes: number } = { bytes: 0 }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen.bytes += chunk.length;
      if (seen.bytes > max) done(tooMuch());
      else done(null, chunk);
    },
  });
}

async function spoolRaw(request: Request, path: string, max: number): Promise<void> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  await pipeline(request, counter(max, () => tooLarge(max)), createWriteStream(path));
}

/**
 * Every part named `file`, each to its own file in arrival order, with its name and media type.
 * The parts together may hold MAX_IMPORT_BYTES, each at most MAX_UPLOAD_BYTES, and there may be
 * MAX_IMPORT_ENTRIES of them.
 */
async function spoolParts(request: Request, response: Response, folder: string, config: AppConfig): Promise<SpooledPart[]> {
  const list: SpooledPart[] = [];
  const total = { bytes: 0 };
  const storage: multer.StorageEngine = {
    _handleFile(_request, file, done) {
      const index = list.length;
      const name = file.originalname ?? '';
      const control = controlCharacterIn(name);
      if (control) {
        done(new ProblemException(400, 'request.control_character', `a part's file name contains the control character ${control}`));
        return;
      }
      const part: SpooledPart = { file: `part-${index}`, name, mediaType: file.mimetype || 'application/octet-stream' };
      list.push(part);
      pipeline(file.stream as Readable, counter(config.MAX_IMPORT_BYTES, () => tooLarge(config.MAX_IMPORT_BYTES), total), createWriteStream(join(folder, part.file))).then(
        () => done(null, {}),
        (error: unknown) => done(error as Error),
      );
    },
    _removeFile(_request, _file, done) {
      done(null);
    },
  };
  const parse = multer({
    storage,
    defParamCharset: 'utf8',
    limits: { fileSize: config.MAX_UPLOAD_BYTES, files: config.MAX_IMPORT_ENTRIES, fields: 20, parts: config.MAX_IMPORT_ENTRIES + 20 },
  }).array('file');
  await new Promise<void>((resolve, reject) => parse(request, response, (error: unknown) => (error ? reject(multipartError(error, config)) : resolve())));
  if (list.length === 0) throw new ProblemException(400, 'upload.multipart', 'the multipart import has no part named "file"');
  return list;
}

function multipartError(error: unknown, config: AppConfig): Error {
  if (error instanceof ProblemException) return error;
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return new ProblemException(413, 'upload.too_large', `a part is larger than the limit of ${config.MAX_UPLOAD_BYTES} bytes (MAX_UPLOAD_BYTES)`);
    if (error.code === 'LIMIT_FILE_COUNT') return new ProblemException(422, 'import.too_many_entries', `the import holds more than ${config.MAX_IMPORT_ENTRIES} files (MAX_IMPORT_ENTRIES)`);
    if (error.code === 'LIMIT_UNEXPECTED_FILE') return new ProblemException(400, 'upload.multipart', `unexpected multipart file field "${error.field}": send each file as a field "file"`);
    return new ProblemException(400, 'upload.multipart', `malformed multipart import: ${error.message}`);
  }
  return new ProblemException(400, 'upload.multipart', `malformed multipart import: ${(error as Error).message}`);
}

/** Size of the chunks a spooled body is kept in, in the database. */
export const SPOOL_CHUNK_BYTES = 1024 * 1024;

/** The files of a spool folder, in name order, with their sizes: what the database keeps of it. */
export async function spoolFiles(folder: string): Promise<SpoolFile[]> {
  const names = (await readdir(folder)).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: (await stat(join(folder, name))).size })));
}

/** The bytes of `files` one after the other, in chunks of `size` bytes (the last one shorter). */
export async function* spoolChunks(folder: string, files: readonly SpoolFile[], size = SPOOL_CHUNK_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let held = 0;
  for (const file of files) {
    let read = 0;
    for await (const piece of createReadStream(join(folder, file.name), { highWaterMark: size }) as AsyncIterable<Buffer>) {
      read += piece.length;
      let rest = piece;
      while (held + rest.length >= size) {
        const take = size - held;
        pending.push(rest.subarray(0, take));
        yield Buffer.concat(pending, size);
        pending = [];
        held = 0;
        rest = rest.subarray(take);
      }
      if (rest.length > 0) {
        pending.push(rest);
        held += rest.length;
      }
    }
    // The folder is the spool's own: a file that changed size since it was listed is a fault of the server.
    if (read !== file.bytes) throw new Error(`${file.name} in ${folder} holds ${read} bytes, not the ${file.bytes} listed`);
  }
  if (held > 0) yield Buffer.concat(pending, held);
}

/**
 * Writes the files of a spooled body kept in the database into `folder` (made here), reading its
 * chunks in order through `chunk`; false when a chunk is missing (the body is gone), the folder
 * then removed again.
 */
export async function unspool(folder: string, files: readonly SpoolFile[], chunk: (seq: number) => Promise<Buffer | undefined>): Promise<boolean> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  try {
    let seq = 0;
    let current: Buffer = Buffer.alloc(0);
    let at = 0;
    for (const file of files) {
      if (basename(file.name) !== file.name || file.name.startsWith('.')) throw new Error(`${JSON.stringify(file.name)} is not a spool file's name`);
      const handle = await open(join(folder, file.name), 'wx', 0o600);
      try {
        let left = file.bytes;
        while (left > 0) {
          if (at === current.length) {
            const next = await chunk(seq++);
            if (next === undefined || next.length === 0) {
              await rm(folder, { recursive: true, force: true });
              return false;
            }
            current = next;
            at = 0;
          }
          const piece = current.subarray(at, at + left);
          await handle.write(piece);
          at += piece.length;
          left -= piece.length;
        }
      } finally {
        await handle.close();
      }
    }
    return true;
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
