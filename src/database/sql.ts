/**
 * How the archive sends SQL, and how what it sends is kept where a reviewer can read it.
 *
 * Every statement is sent by a method of a repository (a `*.repository.ts` file), and every method
 * of a repository carries {@link GenerateSql}. Its example arguments live apart, in
 * scripts/sql-examples.ts (the archive itself never loads them): one example, or one per shape when
 * the statement's text depends on the arguments. `npm run sql` (scripts/generate-sql.ts) calls each
 * method with each example over an in-memory database migrated as the archive's is, and writes the
 * statements it sent, in order, into `src/queries/<repository>.sql`: a change to the SQL shows in
 * review as a change to those files. test/database/queries.spec.ts fails when a repository method
 * lacks the decorator or its examples, when a file outside the repositories sends SQL, or when the
 * committed files differ from what the code sends now.
 *
 * The statements that were sent from elsewhere moved into a repository rather than being recorded
 * apart: GET /health's and the table maintenance's are DatabaseRepository's
 * (database.repository.ts). Not recorded: the migrations (migrations/, SQL files of their own that
 * run once) and what TypeORM sends by itself (the migrations table, the server's version).
 */

import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { QueryFailedError } from 'typeorm';
import type { DataSource } from 'typeorm';

/** Runs one statement and answers its rows: the pool's, or a transaction's. */
export type Query = <Row = unknown>(sql: string, params?: unknown[]) => Promise<Row[]>;

/**
 * A {@link Query} on the data source's pool that sends each statement as a named prepared statement
 * of the connection it runs on, named by a hash of its text. A connection parses such a statement
 * once; after five runs PostgreSQL may keep one generic plan for it rather than plan every run
 * again. For statements a route sends on every request whose best plan does not hang on their
 * parameters' values (a row by its id, a page cut from a CTE by LIMIT): on the embedded database,
 * at 100,000 games, the position search's page took 2 to 6 ms to plan and 0.5 ms to run. Each
 * statement is logged as TypeORM logs its own (so `npm run sql` records it), and fails as TypeORM's
 * do (a QueryFailedError wrapping the driver's error).
 */
export function namedStatements(dataSource: DataSource): Query {
  return async <Row>(text: string, params: unknown[] = []): Promise<Row[]> => {
    const logger = dataSource.logger;
    logger.logQuery(text, params);
    const name = `tabula_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    try {
      const { rows } = await (dataSource.driver as unknown as { master: Pool }).master.query<Row & QueryResultRow>({ name, text, values: params });
      return rows;
    } catch (error) {
      logger.logQueryError(error instanceof Error ? error : String(error), text, params);
      throw new QueryFailedError(text, params, error as Error);
    }
  };
}

/**
 * Run on each new connection to the embedded database before its pool hands it out. PGlite has one
 * session, which the connections made to it in turn share: the statements a closed connection
 * prepared ({@link namedStatements}) are still there, and the next connection, knowing none, would
 * prepare them again under the same names and fail ("prepared statement … already exists").
 */
export async function forgetNamedStatements(client: PoolClient): Promise<void> {
  await client.query('DEALLOCATE ALL');
}

const methodsByPrototype = new Map<object, string[]>();

/**
 * Marks a repository method for `npm run sql`: it is called with each of its examples
 * (scripts/sql-examples.ts, under the class and the method's name) and the statements it sends are
 * written into the repository's file.
 */
export function GenerateSql(): MethodDecorator {
  return (prototype, method) => {
    const methods = methodsByPrototype.get(prototype) ?? [];
    methods.push(String(method));
    methodsByPrototype.set(prototype, methods);
  };
}

/** The decorated methods of a repository class, in the order the class declares them (their examples run in it). */
export function sqlMethods(repository: abstract new (...args: never[]) => object): readonly string[] {
  return methodsByPrototype.get(repository.prototype) ?? [];
}
