import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQL_EXAMPLES, sqlExamplesOf } from '../../scripts/sql-examples.js';
import type { RepositoryClass } from '../../scripts/sql-examples.js';
import { QUERIES_FOLDER, REPOSITORIES, renderSqlFiles, sqlFileOf } from '../../scripts/sql-files.js';
import { GenerateSql, sqlMethods } from '../../src/database/sql.js';
import { GAME_INDEXES } from '../../src/indexes/registry.js';

/**
 * Every statement the archive sends is in src/queries (see src/database/sql.ts): sent by a
 * repository, from a method that carries @GenerateSql and has examples (scripts/sql-examples.ts),
 * and written into the committed file as the code sends it now (`npm run sql` writes them again).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * What would leave a repository's SQL unrecorded: a method without @GenerateSql, a marked method
 * without examples, examples of a method that is not marked (renamed, or gone).
 */
function unrecorded(types: readonly RepositoryClass[]): string[] {
  return types.flatMap((type) => {
    const methods = Object.getOwnPropertyNames(type.prototype).filter((name) => name !== 'constructor');
    const marked = sqlMethods(type);
    return [
      ...methods.filter((method) => !marked.includes(method)).map((method) => `${type.name}.${method} lacks @GenerateSql`),
      ...marked.filter((method) => (sqlExamplesOf(type, method) ?? []).length === 0).map((method) => `${type.name}.${method} has no example in scripts/sql-examples.ts`),
      ...Object.keys(SQL_EXAMPLES.get(type) ?? {})
        .filter((method) => !marked.includes(method))
        .map((method) => `scripts/sql-examples.ts has examples of ${type.name}.${method}, which carries no @GenerateSql`),
    ];
  });
}

/** A call that sends SQL through TypeORM: a data source's or an entity manager's. */
const SENDS_SQL = /\.(query|transaction|createQueryBuilder|getRepository|getTreeRepository)\s*[(<]|\bmanager\.(insert|update|delete|save|remove|find\w*|count\w*)\s*\(/;

describe('the SQL the archive sends', () => {
  it('is sent by repositories only', () => {
    // sql.ts holds the sender of named statements that repositories use (logged, so recorded, as TypeORM's own).
    const senders = sourcesUnder('src').filter((path) => !path.endsWith('.repository.ts') && path !== 'src/database/sql.ts' && SENDS_SQL.test(readFileSync(join(root, path), 'utf8')));
    expect(senders).toEqual([]);
  });

  it('is recorded for every repository of src', async () => {
    const sources = sourcesUnder('src').filter((path) => path.endsWith('.repository.ts'));
    expect([...sources].sort()).toEqual(REPOSITORIES.map((repository) => repository.source).sort());
    for (const { source, type } of REPOSITORIES) {
      const exported = Object.entries(await import(join(root, source))).filter(([name, value]) => typeof value === 'function' && name.endsWith('Repository'));
      expect(exported.map(([, value]) => value)).toEqual([type]);
    }
  });

  it('is recorded for every method of every repository (each carries @GenerateSql and has examples)', () => {
    expect(unrecorded(REPOSITORIES.map(({ type }) => type))).toEqual([]);
    // Examples only of the repositories recorded.
    expect([...SQL_EXAMPLES.keys()].filter((type) => !REPOSITORIES.some((repository) => repository.type === type))).toEqual([]);
  });

  it('would go unrecorded for a method without @GenerateSql, or marked without examples', () => {
    class ExampleRepository {
      @GenerateSql()
      async marked(): Promise<void> {}
      async unmarked(): Promise<void> {}
    }
    expect(unrecorded([ExampleRepository])).toEqual(['ExampleRepository.unmarked lacks @GenerateSql', 'ExampleRepository.marked has no example in scripts/sql-examples.ts']);
  });

  it('is what the committed files say (npm run sql writes them again)', async () => {
    const files = await renderSqlFiles();
    // A file a repository, and one an index of the registry (its part of the writer's statements).
    const indexFiles = GAME_INDEXES.map((index) => `${QUERIES_FOLDER}/index.${index.name}.sql`);
    expect([...files.keys()].sort()).toEqual([...REPOSITORIES.map((repository) => sqlFileOf(repository.source)), ...indexFiles].sort());
    const committed = readdirSync(join(root, QUERIES_FOLDER)).filter((name) => name.endsWith('.sql')).map((name) => `${QUERIES_FOLDER}/${name}`);
    expect(committed.sort()).toEqual([...files.keys()].sort());
    // File by file, so that a failure shows the lines that changed.
    for (const [path, text] of files) expect({ path, text: readFileSync(join(root, path), 'utf8') }).toEqual({ path, text });
  }, 120_000);
});
