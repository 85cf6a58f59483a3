import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PostgreSQL in the process (PGlite), served on a loopback port so the ordinary `pg` driver and
 * TypeORM talk to it exactly as to a real server. PGlite runs one query at a time; the socket
 * server multiplexes connections and keeps a transaction's statements together.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly port: number,
  ) {}

  /** One connection: PGlite executes serially anyway, and one client keeps protocol exchanges unmixed. */
  static readonly MAX_CONNECTIONS = 1;

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const inMemory = dataDir === 'memory://';
    const location = inMemory ? undefined : resolve(dataDir, 'pgdata');
    if (location) mkdirSync(location, { recursive: true });
    const db = await PGlite.create(location, { extensions: { pg_trgm } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: EmbeddedPostgres.MAX_CONNECTIONS });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    return new EmbeddedPostgres(db, server, port);
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
