import pg from 'pg';

/** A database of its own on a PostgreSQL server, for one test suite or benchmark; dropped again by `drop`. */
export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

let created = 0;

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<pid>_<time>_<n>` on the server `serverUrl` names (connected to as an
 * administrator), optionally with its own LC_CTYPE and LC_COLLATE. Only databases made here are dropped.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string, options: { locale?: string } = {}): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${created++}`;
  const locale = options.locale === undefined ? '' : ` TEMPLATE template0 LC_CTYPE '${options.locale}' LC_COLLATE '${options.locale}'`;
  await admin(serverUrl, `CREATE DATABASE ${name}${locale}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
