import { createServer, type Server, type Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { DATABASE_TIMEOUTS, databaseOptions, type DatabaseTimeouts } from '../../src/database/database-options.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { namedStatements } from '../../src/database/sql.js';
import type { Pool } from 'pg';

/**
 * The pool fails instead of hanging when PostgreSQL is gone: small timeouts here, through the same
 * databaseOptions the archive uses, against stand-ins for a server that stopped answering.
 */
const SHORT: DatabaseTimeouts = { CONNECT_TIMEOUT_MS: 300, STATEMENT_TIMEOUT_MS: 200, QUERY_TIMEOUT_MS: 400 };

/** A TCP server that handles each connection with `onConnection`, and a URL pointing at it. */
async function standIn(onConnection: (socket: Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://tabula@127.0.0.1:${port}/tabula`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A backend message: type byte, int32 length (itself included), body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

async function initializeError(url: string, timeouts: DatabaseTimeouts): Promise<Error> {
  const dataSource = new DataSource({ ...databaseOptions(url, 1, timeouts), logging: false });
  try {
    await dataSource.initialize();
  } catch (error) {
    return error as Error;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
  throw new Error('initialize() succeeded');
}

describe('database options', () => {
  it('give up connecting to a server that accepts the connection but never answers', async () => {
    const server = await standIn(() => undefined);
    try {
      expect((await initializeError(server.url, SHORT)).message).toMatch(/timeout/i);
    } finally {
      await server.close();
    }
  });

  it('fail a query whose answer never comes', async () => {
    // Completes the startup (AuthenticationOk, ReadyForQuery) and then reads queries without answering.
    const server = await standIn((socket) => {
      socket.once('data', () => {
        socket.write(Buffer.concat([message('R', Buffer.from([0, 0, 0, 0])), message('Z', Buffer.from('I'))]));
      });
    });
    try {
      expect((await initializeError(server.url, SHORT)).message).toMatch(/Query read timeout/);
    } finally {
      await server.close();
    }
  });

  it('on the embedded database, fail a query that runs longer than the query timeout', async () => {
    const embedded = await EmbeddedPostgres.start('memory://');
    const dataSource = new DataSource({ ...databaseOptions(embedded.url, 1, SHORT), logging: false });
    try {
      await dataSource.initialize();
      const sent = performance.now();
      await expect(dataSource.query('SELECT pg_sleep(1)')).rejects.toThrow(/Query read timeout/);
      // The database runs on a thread of its own: the request fails on time, while the statement still runs.
      expect(performance.now() - sent).toBeLessThan(1000);
      // The connection is still usable once the statement has finished.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded.whenNoConnections();
      await embedded.stop();
    }
  });

  it('on the embedded database, run named statements again on a new connection (its one session keeps what a closed one prepared)', async () => {
    const embedded = await EmbeddedPostgres.start('memory://');
    const sql = 'SELECT $1::int + 1 AS next';
    /** A pool's named statement, then its connection closed (as its idle timeout closes it) and the statement run on the next. */
    const acrossConnections = async (sharedSession: boolean) => {
      const dataSource = new DataSource({ ...databaseOptions(embedded.url, 1, DATABASE_TIMEOUTS, { sharedSession }), logging: false });
      await dataSource.initialize();
      try {
        const named = namedStatements(dataSource);
        expect(await named(sql, [1])).toEqual([{ next: 2 }]);
        const pool = (dataSource.driver as unknown as { master: Pool }).master;
        (await pool.connect()).release(true);
        await embedded.whenNoConnections();
        return await named(sql, [41]);
      } finally {
        await dataSource.destroy();
        await embedded.whenNoConnections();
      }
    };
    try {
      // The archive's options: each new connection forgets the session's named statements first.
      expect(await acrossConnections(true)).toEqual([{ next: 42 }]);
      // Without, the new connection prepares the statement again under its name, which the session holds.
      await expect(acrossConnections(false)).rejects.toThrow(/already exists/);
    } finally {
      await embedded.stop();
    }
  });

  const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
  (serverUrl ? it : it.skip)('set the statement timeout, which cancels a long statement (only on a PostgreSQL server)', async () => {
    const archiveDefaults = new DataSource(databaseOptions(serverUrl!, 1));
    await archiveDefaults.initialize();
    try {
      expect(await archiveDefaults.query('SHOW statement_timeout')).toEqual([{ statement_timeout: `${DATABASE_TIMEOUTS.STATEMENT_TIMEOUT_MS / 1000}s` }]);
    } finally {
      await archiveDefaults.destroy();
    }
    const short = new DataSource({ ...databaseOptions(serverUrl!, 1, { ...SHORT, QUERY_TIMEOUT_MS: 10_000 }), logging: false });
    await short.initialize();
    try {
      // 57014: query_canceled, "canceling statement due to statement timeout".
      await expect(short.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await short.destroy();
    }
  });

  (serverUrl ? it : it.skip)('end a session left idle in a transaction, which frees the rows it locked (only on a PostgreSQL server)', async () => {
    const archiveDefaults = new DataSource(databaseOptions(serverUrl!, 1));
    await archiveDefaults.initialize();
    try {
      expect(await archiveDefaults.query('SHOW idle_in_transaction_session_timeout')).toEqual([{ idle_in_transaction_session_timeout: `${DATABASE_TIMEOUTS.IDLE_IN_TRANSACTION_MS! / 1000}s` }]);
    } finally {
      await archiveDefaults.destroy();
    }
    const short = new DataSource({ ...databaseOptions(serverUrl!, 2, { ...SHORT, STATEMENT_TIMEOUT_MS: 10_000, QUERY_TIMEOUT_MS: 10_000, IDLE_IN_TRANSACTION_MS: 300 }), logging: false });
    await short.initialize();
    const stalled = short.createQueryRunner();
    try {
      await stalled.connect();
      await stalled.startTransaction();
      // An advisory lock held by the transaction stands for the rows a stalled node would hold.
      await stalled.query('SELECT pg_advisory_xact_lock(424242)');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // The server ended the stalled session: another one gets the lock at once.
      expect(await short.query('SELECT pg_try_advisory_xact_lock(424242) AS got')).toEqual([{ got: true }]);
      await expect(stalled.query('SELECT 1')).rejects.toThrow();
    } finally {
      await stalled.release().catch(() => undefined);
      await short.destroy();
    }
  });
});
