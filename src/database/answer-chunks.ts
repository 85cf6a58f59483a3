import type { PGlite } from '@electric-sql/pglite';
import { withRawStream } from './raw-stream-proxy.js';

/** Bytes of an answer gathered before they go to the socket. */
const ANSWER_CHUNK_BYTES = 64 * 1024;

/**
 * PGlite as the socket server sees it, except that an answer reaches the socket in chunks of
 * ANSWER_CHUNK_BYTES rather than a write per protocol message: a statement returning a row per
 * game (an import's INSERT … RETURNING, an export's reads) would otherwise cost a socket write, and
 * a wake-up of the event loop's thread, per row.
 */
export function answeringInChunks(db: PGlite): PGlite {
  const execProtocolRawStream: PGlite['execProtocolRawStream'] = async (message, { onRawData, ...options }) => {
    let chunk = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
    let used = 0;
    const flush = () => {
      if (used === 0) return;
      onRawData(chunk.subarray(0, used));
      chunk = Buffer.allocUnsafe(ANSWER_CHUNK_BYTES);
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
    }
  };
  return withRawStream(db, execProtocolRawStream);
}
