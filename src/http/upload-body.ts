import { createHash } from 'node:crypto';
import { ProblemException } from '../common/problem-codes.js';
import { controlCharacterIn } from '../common/text-parameters.middleware.js';
import type { Request, Response } from 'express';
import multer from 'multer';

export interface ReceivedFile {
  readonly bytes: Buffer;
  readonly mediaType: string;
  readonly filename?: string;
}

const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

/**
 * Reads an upload: the raw request body of any content type, or the multipart field `file`.
 * Bodies over the limit are refused as soon as the limit is passed, without buffering the rest.
 */
export async function receiveUpload(request: Request, response: Response, maxBytes: number, filename?: string): Promise<ReceivedFile> {
  return request.is('multipart/form-data') ? receiveMultipart(request, response, maxBytes) : receiveRaw(request, maxBytes, filename);
}

async function receiveRaw(request: Request, maxBytes: number, filename?: string): Promise<ReceivedFile> {
  return {
    bytes: await readBody(request, maxBytes, () => tooLarge(maxBytes)),
    mediaType: request.headers['content-type'] ?? DEFAULT_MEDIA_TYPE,
    filename: filename ?? filenameFromDisposition(request.headers['content-disposition']),
  };
}

/** The raw request body, refused (`tooLong()` thrown) as soon as it passes `maxBytes`, without reading the rest. */
export async function readBody(request: Request, maxBytes: number, tooLong: () => Error): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    throw tooLong();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      request.resume();
      throw tooLong();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

async function receiveMultipart(request: Request, response: Response, maxBytes: number): Promise<ReceivedFile> {
  const parse = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21 } }).single('file');
  await new Promise<void>((resolve, reject) => parse(request, response, (error: unknown) => (error ? reject(multipartError(error, maxBytes)) : resolve())));
  const file = request.file;
  if (!file) throw multipart('the multipart upload has no field named "file"');
  return { bytes: file.buffer, mediaType: file.mimetype || DEFAULT_MEDIA_TYPE, filename: file.originalname || undefined };
}

function multipartError(error: unknown, maxBytes: number): Error {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge(maxBytes);
    if (error.code === 'LIMIT_UNEXPECTED_FILE') return multipart(`unexpected multipart file field "${error.field}": send the game as the field "file"`);
    return multipart(`malformed multipart upload: ${error.message}`);
  }
  return multipart(`malformed multipart upload: ${(error as Error).message}`);
}

function multipart(detail: string): ProblemException {
  return new ProblemException(400, 'upload.multipart', detail);
}

function tooLarge(maxBytes: number): ProblemException {
  return new ProblemException(413, 'upload.too_large', `the upload is larger than the limit of ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

function filenameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return undefined;
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(header);
  return plain ? (plain[1] ?? plain[2]) : undefined;
}

/** The file name kept with an upload: the query's, else the one the request carried; a control character in it is a 400. */
export function uploadFilename(query: { readonly filename?: string }, file: ReceivedFile): string | null {
  const filename = query.filename ?? file.filename ?? null;
  const control = filename === null ? undefined : controlCharacterIn(filename);
  if (control) throw new ProblemException(400, 'request.control_character', `the file name contains the control character ${control}`);
  return filename;
}

/** The SHA-256 of bytes, in hex: what uploads and games are known by. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
