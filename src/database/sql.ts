/**
 * How the archive sends SQL, and how what it sends is kept where a reviewer can read it.
 *
 * Every statement is sent by a method of a repository (a `*.repository.ts` file), and every method
 * of a repository carries {@link GenerateSql}, listing example arguments: one example, or one per
 * shape when the statement's text depends on the arguments. `npm run sql` (scripts/generate-sql.ts)
 * calls each method with each example over an in-memory database migrated as the archive's is, and
 * writes the statements it sent, in order, into `src/queries/<repository>.sql`: a change to the SQL
 * shows in review as a change to those files. test/database/queries.spec.ts fails when a
 * repository method lacks the decorator, when a file outside the repositories sends SQL, or when the
 * committed files differ from what the code sends now.
 *
 * The statements that were sent from elsewhere moved into a repository rather than being recorded
 * apart: GET /health's and the table maintenance's are DatabaseRepository's
 * (database.repository.ts). Not recorded: the migrations (migrations/, SQL files of their own that
 * run once) and what TypeORM sends by itself (the migrations table, the server's version).
 */

/** Runs one statement and answers its rows: the pool's, or a transaction's. */
export type Query = <Row = unknown>(sql: string, params?: unknown[]) => Promise<Row[]>;

/** One call of a repository method made to record the SQL it sends. */
export interface SqlExample {
  /** What sets this example apart from the method's others (the shape of the statement it makes). */
  readonly name?: string;
  /** The arguments, as the method takes them. */
  readonly params?: readonly unknown[];
}

const examplesByPrototype = new Map<object, Map<string, readonly SqlExample[]>>();

/**
 * Marks a repository method for `npm run sql`: it is called once per example (once without
 * arguments when none is given) and the statements it sends are written into the repository's file.
 */
export function GenerateSql(...examples: SqlExample[]): MethodDecorator {
  return (prototype, method) => {
    const methods = examplesByPrototype.get(prototype) ?? new Map<string, readonly SqlExample[]>();
    methods.set(String(method), examples.length > 0 ? examples : [{}]);
    examplesByPrototype.set(prototype, methods);
  };
}

/** The decorated methods of a repository class and their examples, in the order the class declares them. */
export function sqlExamples(repository: abstract new (...args: never[]) => object): ReadonlyMap<string, readonly SqlExample[]> {
  return examplesByPrototype.get(repository.prototype) ?? new Map();
}
