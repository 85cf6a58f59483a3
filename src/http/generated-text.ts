import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/**
 * Answers of text made as they are sent (an export's NDJSON, an import's results): handed to the
 * client in chunks, no faster than it takes them.
 */

/** Text is handed to the client in chunks of about this many bytes. */
const CHUNK_BYTES = 64 * 1024;

/** UTF-8 takes at most this many bytes for one UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Sends what a generator yields to the client, as fast as the client takes it: nothing more is
 * produced while the socket's buffer is full, and a client that goes away ends the generator
 * (its `finally` blocks run; no further batch is read).
 */
export async function sendGenerated(chunks: AsyncIterable<Buffer | string>, response: Writable): Promise<void> {
  await pipeline(Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK_BYTES }), response);
}

/**
 * Text gathered into chunks of about CHUNK_BYTES, so a line per game is not a write per game. The
 * text comes a page at a time: a step of an asynchronous generator per piece would cost more than
 * the piece. Each piece (a line, or part of one) is encoded into the chunk as it comes: joining the
 * pieces into one string first and encoding that took more than twice as long (the joined string
 * must be flattened before it can be encoded).
 */
export async function* gathered(pages: AsyncIterable<Iterable<string>>): AsyncGenerator<Buffer> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for await (const pieces of pages) {
    for (const piece of pieces) {
      const most = piece.length * MAX_UTF8_PER_UNIT;
      if (used + most > chunk.length) {
        if (used > 0) yield chunk.subarray(0, used);
        // A chunk handed on belongs to the stream: the next one is new.
        chunk = Buffer.allocUnsafe(most > CHUNK_BYTES ? Buffer.byteLength(piece) : CHUNK_BYTES);
        used = 0;
      }
      used += chunk.write(piece, used);
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}
