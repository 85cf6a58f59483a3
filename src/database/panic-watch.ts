import type { PGlite } from '@electric-sql/pglite';
import { withRawStream } from './raw-stream-proxy.js';

/** ErrorResponse, the one backend message looked into. */
const ERROR_RESPONSE = 0x45; // 'E'

/**
 * Reads a backend's answer as PostgreSQL protocol messages (a type byte, a 4-byte length, the body)
 * and reports every ErrorResponse of severity PANIC. A PANIC ends a PostgreSQL server's processes and
 * the postmaster restarts them; PGlite has no postmaster: after it, the instance answers nothing
 * again (every later statement waits forever). The commonest cause is a full disk when a commit
 * writes the WAL (`could not write to log file … No space left on device`).
 *
 * Only ErrorResponse bodies are kept; every other message is skipped by its length, across chunks.
 * An answer begins at a message boundary; a length that cannot be one stops the reading.
 */
export class PanicWatch {
  private readonly header = Buffer.alloc(5);
  private headerUsed = 0;
  /** Body bytes of the current message still to come. */
  private remaining = 0;
  private inBody = false;
  private body: Buffer | null = null;
  private bodyUsed = 0;
  private lost = false;

  constructor(private readonly found: (message: string) => void) {}

  push(data: Uint8Array): void {
    let at = 0;
    while (at < data.length && !this.lost) {
      if (!this.inBody) {
        const take = Math.min(5 - this.headerUsed, data.length - at);
        this.header.set(data.subarray(at, at + take), this.headerUsed);
        this.headerUsed += take;
        at += take;
        if (this.headerUsed < 5) return;
        this.headerUsed = 0;
        const length = this.header.readInt32BE(1);
        if (length < 4) {
          this.lost = true;
          return;
        }
        this.remaining = length - 4;
        this.inBody = true;
        this.body = this.header[0] === ERROR_RESPONSE ? Buffer.alloc(this.remaining) : null;
        this.bodyUsed = 0;
      } else {
        const take = Math.min(this.remaining, data.length - at);
        this.body?.set(data.subarray(at, at + take), this.bodyUsed);
        this.bodyUsed += take;
        this.remaining -= take;
        at += take;
      }
      if (this.inBody && this.remaining === 0) this.finish();
    }
  }

  private finish(): void {
    this.inBody = false;
    const body = this.body;
    this.body = null;
    if (body === null) return;
    const fields = errorFields(body);
    // 'V' is the severity never translated (9.6 on); 'S' may be in the server's language.
    if ((fields.get('V') ?? fields.get('S')) === 'PANIC') this.found(`${fields.get('C') ?? '?'} ${fields.get('M') ?? ''}`.trim());
  }
}

/** An ErrorResponse body's fields: a code byte, a NUL-terminated string, …, then a NUL. */
function errorFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const code = String.fromCharCode(body[at]);
    const end = body.indexOf(0, at + 1);
    if (end < 0) break;
    fields.set(code, body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return fields;
}

/**
 * PGlite as the socket server sees it, with every answer read by a {@link PanicWatch}: `onPanic` is
 * told once the instance has PANICked (and will answer no more).
 */
export function watchingForPanic(db: PGlite, onPanic: (message: string) => void): PGlite {
  let panicked = false;
  const report = (message: string) => {
    if (panicked) return;
    panicked = true;
    onPanic(message);
  };
  const execProtocolRawStream: PGlite['execProtocolRawStream'] = (message, { onRawData, ...options }) => {
    const watch = new PanicWatch(report);
    return db.execProtocolRawStream(message, {
      ...options,
      onRawData: (data) => {
        watch.push(data);
        onRawData(data);
      },
    });
  };
  return withRawStream(db, execProtocolRawStream);
}
