import 'reflect-metadata';
import { DataSource } from 'typeorm';
import type { Logger } from 'typeorm';
import { databaseOptions, runMigrations } from '../src/database/database-options.js';
import { DatabaseRepository } from '../src/database/database.repository.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { ReplicationRepository } from '../src/database/replication.repository.js';
import { sqlMethods } from '../src/database/sql.js';
import { DotsRepository } from '../src/dots-server/dots.repository.js';
import { GamesExportRepository } from '../src/games/games-export.repository.js';
import { GamesSearchRepository } from '../src/games/games-search.repository.js';
import { GamesViewRepository } from '../src/games/games-view.repository.js';
import { GamesWriteRepository } from '../src/games/games-write.repository.js';
import { EXAMPLE, SEEDED_GAMES, SEEDED_UPLOAD, sqlExamplesOf } from './sql-examples.js';
import type { RepositoryClass } from './sql-examples.js';
import { ImportsRepository } from '../src/imports/imports.repository.js';
import { PlayersRepository } from '../src/players/players.repository.js';
import { IdentityRepository } from '../src/identity/identity.repository.js';
import { TagsRepository } from '../src/tags/tags.repository.js';
import { PositionsRepository } from '../src/positions/positions.repository.js';
import { PositionPostingsRepository } from '../src/indexes/positions/postings.repository.js';
import { Indexes } from '../src/indexes/indexes.js';
import { GAME_INDEXES } from '../src/indexes/registry.js';
import type { PositionsIndex } from '../src/indexes/positions/positions.index.js';
import { loadConfig } from '../src/common/config.js';
import { PatternsRepository } from '../src/patterns/patterns.repository.js';
import { DraughtsRepository } from '../src/patterns/draughts.repository.js';
import { UploadsRepository } from '../src/uploads/uploads.repository.js';
import { AccountsRepository } from '../src/accounts/accounts.repository.js';
import { AuditRepository } from '../src/accounts/audit.repository.js';

/**
 * The SQL files of `npm run sql` (scripts/generate-sql.ts), made from the code: every method of
 * every repository below carries @GenerateSql (src/database/sql.ts) and is called with its examples
 * (sql-examples.ts) on an in-memory database migrated as the archive's is, and the statements it
 * sends, as TypeORM hands them to the driver (transaction boundaries included), are written in
 * order into the repository's file. Running them also proves they parse and run on PostgreSQL
 * (PGlite).
 */

/**
 * Every index on, as on a server; their upkeep (the postings' merges) stopped, so that no merge's
 * statements fall into another method's record: the merges' own are recorded by their methods.
 */
function indexesOver(db: DataSource): Indexes {
  const indexes = new Indexes(db, false, loadConfig({}));
  void indexes.beforeApplicationShutdown();
  return indexes;
}
const postingsOver = (db: DataSource) => (indexesOver(db).get('positions') as PositionsIndex).postings;
const writesOver = (db: DataSource) => new GamesWriteRepository(db, indexesOver(db));

/** Where the files are kept. */
export const QUERIES_FOLDER = 'src/queries';

/** Every repository of the archive: its source, its class, and how to make one over a data source. */
export const REPOSITORIES: readonly RecordedRepository[] = [
  repository('src/games/games-write.repository.ts', GamesWriteRepository, writesOver),
  repository('src/games/games-search.repository.ts', GamesSearchRepository, (db) => new GamesSearchRepository(db)),
  repository('src/games/games-view.repository.ts', GamesViewRepository, (db) => new GamesViewRepository(db)),
  repository('src/games/games-export.repository.ts', GamesExportRepository, (db) => new GamesExportRepository(db)),
  repository('src/uploads/uploads.repository.ts', UploadsRepository, (db) => new UploadsRepository(db, writesOver(db))),
  repository('src/indexes/positions/postings.repository.ts', PositionPostingsRepository, postingsOver),
  repository('src/imports/imports.repository.ts', ImportsRepository, (db) => new ImportsRepository(db)),
  repository('src/players/players.repository.ts', PlayersRepository, (db) => new PlayersRepository(db)),
  repository('src/positions/positions.repository.ts', PositionsRepository, (db) => new PositionsRepository(db)),
  repository('src/identity/identity.repository.ts', IdentityRepository, (db) => new IdentityRepository(db)),
  repository('src/tags/tags.repository.ts', TagsRepository, (db) => new TagsRepository(db)),
  repository('src/patterns/patterns.repository.ts', PatternsRepository, (db) => new PatternsRepository(db)),
  repository('src/patterns/draughts.repository.ts', DraughtsRepository, (db) => new DraughtsRepository(db)),
  repository('src/dots-server/dots.repository.ts', DotsRepository, (db) => new DotsRepository(db)),
  repository('src/accounts/accounts.repository.ts', AccountsRepository, (db) => new AccountsRepository(db)),
  repository('src/accounts/audit.repository.ts', AuditRepository, (db) => new AuditRepository(db)),
  repository('src/database/database.repository.ts', DatabaseRepository, (db) => new DatabaseRepository(db)),
  repository('src/database/replication.repository.ts', ReplicationRepository, (db) => new ReplicationRepository(db)),
];

export interface RecordedRepository<T extends object = object> {
  readonly source: string;
  readonly type: RepositoryClass<T>;
  readonly make: (dataSource: DataSource) => T;
}

function repository<T extends object>(source: string, type: RepositoryClass<T>, make: (dataSource: DataSource) => T): RecordedRepository<T> {
  return { source, type, make };
}

/** The file a repository's SQL goes to: `src/queries/<its file name>.sql`. */
export function sqlFileOf(source: string): string {
  return `${QUERIES_FOLDER}/${source.slice(source.lastIndexOf('/') + 1).replace(/\.ts$/, '.sql')}`;
}

/** Keeps the statements TypeORM sends while `recording` is set. */
class StatementRecorder implements Logger {
  recording: string[] | undefined;

  logQuery(query: string): void {
    this.recording?.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/** The SQL files as the code makes them now, by path (`src/queries/…`). */
export async function renderSqlFiles(repositories: readonly RecordedRepository[] = REPOSITORIES): Promise<Map<string, string>> {
  const embedded = await EmbeddedPostgres.start('memory://');
  let dataSource: DataSource | undefined;
  try {
    await runMigrations(embedded.url);
    await embedded.whenNoConnections();
    const recorder = new StatementRecorder();
    dataSource = new DataSource({ ...databaseOptions(embedded.url, EmbeddedPostgres.MAX_CONNECTIONS, undefined, { sharedSession: true }), logger: recorder });
    await dataSource.initialize();
    const db = dataSource;
    await seed(db);
    const files = new Map<string, string>();
    for (const { source, type, make } of repositories) {
      const instance = make(db) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const sections: string[] = [];
      for (const method of sqlMethods(type)) {
        const examples = sqlExamplesOf(type, method);
        if (examples === undefined || examples.length === 0) throw new Error(`${type.name}.${method} carries @GenerateSql and has no example in scripts/sql-examples.ts`);
        for (const example of examples) {
          const statements: string[] = [];
          recorder.recording = statements;
          try {
            await instance[method](...example.params);
          } finally {
            recorder.recording = undefined;
          }
          const title = `${type.name}.${method}${example.name === undefined ? '' : ` (${example.name})`}`;
          if (statements.length === 0) throw new Error(`${title} sent no SQL: its example should make it send what it sends in use`);
          sections.push(`-- ${title}\n${statements.map((statement) => `${statement};`).join('\n\n')}\n`);
        }
      }
      const header = `-- The SQL ${type.name} (${source}) sends, as \`npm run sql\` recorded it calling each method\n-- with the examples of its @GenerateSql. Generated by scripts/generate-sql.ts: do not edit.\n`;
      files.set(sqlFileOf(source), [header, ...sections].join('\n'));
    }
    if (repositories === REPOSITORIES) for (const [path, text] of indexFiles(db)) files.set(path, text);
    return files;
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await embedded.stop();
  }
}

/**
 * What each index of the registry adds to the games' writer's statements, a file each
 * (`src/queries/index.<name>.sql`): its fields in the writer's JSON, its CTEs writing a batch's rows
 * from the writer's CTE `made`, and those removing games' rows. The statements they are part of are
 * recorded, run, in games-write.repository.sql; these show each index's part on its own.
 */
function indexFiles(db: DataSource): Map<string, string> {
  const files = new Map<string, string>();
  for (const definition of GAME_INDEXES) {
    const index = definition.open({ dataSource: db, embedded: false });
    const parts = [
      `-- The SQL of the ${definition.name} index (src/indexes/${definition.name}/), as the games' writer puts it into its statements.`,
      `-- Generated by scripts/generate-sql.ts: do not edit. Its tables: ${definition.tables.join(', ')}${definition.triggers ? `; its triggers: ${definition.triggers.join(', ')}` : ''}.`,
      `-- It takes of the replay: ${definition.takes.length > 0 ? definition.takes.join(', ') : 'the analysis only'}.`,
      '',
      `-- Its fields in the writer's JSON of a game:\n-- ${index.fields ? index.fields.replace(/\s+/g, ' ') : '(none)'}`,
      '',
      `-- Its rows, from the writer's CTE made (a game's bytes the i-th of ${index.bytesOf ? 'ARRAY[$3::bytea, …]' : 'none'}):\n${index.rows ? `WITH made AS (…), ${index.rows('made', index.bytesOf ? 'ARRAY[$3::bytea, $4::bytea]' : `'{}'::bytea[]`)}` : '-- (none)'}`,
      '',
      `-- Removing games' rows (their ids $1):\n${index.remove ? `WITH ${index.remove('$1::bigint[]')}` : '-- (nothing: its rows go with the game)'}`,
      '',
    ];
    files.set(`${QUERIES_FOLDER}/index.${definition.name}.sql`, parts.join('\n'));
  }
  return files;
}

/** Stores the rows the examples name ({@link EXAMPLE}); nothing of it is recorded. */
async function seed(db: DataSource): Promise<void> {
  const writes = writesOver(db);
  const games = await writes.insertMany(SEEDED_GAMES);
  const uploads = new UploadsRepository(db, writes);
  const upload = await uploads.insert(SEEDED_UPLOAD);
  const uploadGames = (await uploads.findById(String(upload)))?.games.map((game) => String(game.gameId));
  const imported = await new ImportsRepository(db).create('zip', 'seed.zip', 2, '/tmp/tabula-sql-seed', null);
  const dots = new DotsRepository(db);
  await dots.insertAccount(EXAMPLE.login, 'scrypt$seed$hash');
  const dotsGame = await dots.insertGame({ players: 2, width: 39, height: 32, seconds: 30, extraMove: false }, EXAMPLE.login);
  const got = { games: games.map((game) => (game.created ? String(game.id) : null)), upload: String(upload), uploadGames, import: imported.id, dotsGame };
  const wanted = {
    games: [EXAMPLE.game, EXAMPLE.otherGame, EXAMPLE.gameToDelete],
    upload: EXAMPLE.upload,
    uploadGames: [EXAMPLE.gameInUpload, EXAMPLE.game],
    import: EXAMPLE.import,
    dotsGame: EXAMPLE.dotsGame,
  };
  if (JSON.stringify(got) !== JSON.stringify(wanted)) throw new Error(`the seed rows are not those the examples name: ${JSON.stringify(got)}, not ${JSON.stringify(wanted)}`);
}
