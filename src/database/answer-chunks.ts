import type { PGlite } from '@electric-sql/pglite';
import { withRawStream } from './raw-stream-proxy.js';

/** Bytes of an answer gathered before they go to the socket. */
const ANSWER_CHUNK_BYTES = 64 * 1024;

/**
 * PGlite as the socket server sees it, except that an answer reaches the socket in chunks of
 * ANSWER_CHUNK_BYTES rather than a write per protocol message: a statement returning a row per
 * game (an import's INSERT … RETURNING, an export's reads) would otherwise cost a socket write, and
 * a wake-up of the event loop's thread, per row.
 *
 * The answer is gathered in one buffer the thread keeps, and each chunk is copied out of it at its
 * own size: most answers are a few kilobytes, and a fresh 64 kB buffer for each (two, with the one
 * made after the last chunk) made the database's thread spend an eighth of its time collecting
 * garbage while it answered searches.
 */
export function answeringInChunks(db: PGlite): PGlite {
  const kept = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
  let keptInUse = false;
  const execProtocolRawStream: PGlite['execProtocolRawStream'] = async (message, { onRawData, ...options }) => {
    // Statements run one at a time; should two answers ever overlap, the second gathers in its own buffer.
    const chunk = keptInUse ? Buffer.allocUnsafe(ANSWER_CHUNK_BYTES) : kept;
    const ownsKept = chunk === kept;
    if (ownsKept) keptInUse = true;
    let used = 0;
    const flush = () => {
      if (used === 0) return;
      // A copy: the socket holds on to what it is given until it is written, and the buffer is reused.
      onRawData(Buffer.from(chunk.subarray(0, used)));
      used = 0;
    };
    try {
      await db.execProtocolRawStream(message, {
        ...options,
        // The data is a view of PGlite's memory, valid only during the call: it is copied.
        onRawData: (data) => {
          if (used + data.length > chunk.length) flush();
          if (data.length >= chunk.length) onRawData(data);
          else {
            chunk.set(data, used);
            used += data.length;
          }
        },
      });
    } finally {
      flush();
      if (ownsKept) keptInUse = false;
    }
  };
  return withRawStream(db, execProtocolRawStream);
}
