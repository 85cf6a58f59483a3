import pg from 'pg';
import { clientSignal } from '../common/client-gone.js';

/**
 * The PostgreSQL client of a server's pools: a statement sent for a request whose client has gone,
 * or whose deadline has passed (src/common/client-gone.ts), is cancelled on the server — a
 * CancelRequest on a connection of its own, as `pg_cancel_backend` would, naming this connection's
 * backend — rather than run to its end for nobody. The statement then fails with SQLSTATE 57014, and
 * the request with the signal's reason. Statements sent outside a request (imports, maintenance) are
 * never cancelled this way. Streams and cursors (submittables) pass through unwatched.
 */
export class CancellableClient extends pg.Client {
  /** Statements sent for a request and not yet answered. */
  private watched = 0;

  // pg's query() has many overloads; this one forwards whatever it is given.
  override query(...args: unknown[]): never {
    const signal = clientSignal();
    const [config] = args;
    const submittable = config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit === 'function';
    const send = () => (super.query as (...a: unknown[]) => unknown)(...args);
    if (signal === undefined || submittable) return send() as never;
    if (signal.aborted) {
      const failure = Promise.reject(signal.reason as Error);
      const callback = args.find((arg) => typeof arg === 'function') as ((error: Error) => void) | undefined;
      if (callback) {
        failure.catch((error: Error) => callback(error));
        return undefined as never;
      }
      return failure as never;
    }
    const cancel = () => {
      if (this.watched > 0) this.cancelOnServer();
    };
    signal.addEventListener('abort', cancel, { once: true });
    this.watched++;
    const done = () => {
      this.watched--;
      signal.removeEventListener('abort', cancel);
    };
    const callbackAt = args.findIndex((arg) => typeof arg === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (...results: unknown[]) => void;
      args[callbackAt] = (...results: unknown[]) => {
        done();
        callback(...results);
      };
      return send() as never;
    }
    return (send() as Promise<unknown>).finally(done) as never;
  }

  /** Asks the server to cancel what this connection's backend runs now. */
  private cancelOnServer(): void {
    const self = this as unknown as { processID?: number; secretKey?: number; host: string; port: number };
    if (self.processID === undefined || self.secretKey === undefined) return;
    const connection = new (pg as unknown as { Connection: new () => CancelConnection }).Connection();
    connection.on('error', () => connection.end());
    connection.on('connect', () => {
      connection.cancel(self.processID!, self.secretKey!);
      connection.end();
    });
    if (self.host.startsWith('/')) connection.connect(`${self.host}/.s.PGSQL.${self.port}`);
    else connection.connect(self.port, self.host);
  }
}

interface CancelConnection {
  on(event: 'error' | 'connect', listener: () => void): void;
  connect(pathOrPort: string | number, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  end(): void;
}
