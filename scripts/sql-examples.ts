import { createHash } from 'node:crypto';
import { AccountsRepository } from '../src/accounts/accounts.repository.js';
import type { NewToken } from '../src/accounts/accounts.repository.js';
import { AuditRepository } from '../src/accounts/audit.repository.js';
import type { AuditEntry } from '../src/accounts/audit.repository.js';
import { DatabaseRepository } from '../src/database/database.repository.js';
import { ReplicationRepository } from '../src/database/replication.repository.js';
import type { Query } from '../src/database/sql.js';
import { DotsRepository } from '../src/dots-server/dots.repository.js';
import type { ReadResult } from '../src/formats/format-reader.js';
import { GamesExportRepository } from '../src/games/games-export.repository.js';
import { GamesSearchRepository } from '../src/games/games-search.repository.js';
import { GamesViewRepository } from '../src/games/games-view.repository.js';
import { GamesWriteRepository } from '../src/games/games-write.repository.js';
import type { NewGame } from '../src/games/games-write.repository.js';
import { IdentityRepository } from '../src/identity/identity.repository.js';
import { ImportsRepository } from '../src/imports/imports.repository.js';
import { encodeRows, postingsOf, sortedDistinct } from '../src/indexes/positions/postings.js';
import type { EncodedRows } from '../src/indexes/positions/postings.js';
import { PositionPostingsRepository } from '../src/indexes/positions/postings.repository.js';
import { PatternsRepository } from '../src/patterns/patterns.repository.js';
import { DraughtsRepository } from '../src/patterns/draughts.repository.js';
import { PlayersRepository } from '../src/players/players.repository.js';
import { PositionsRepository } from '../src/positions/positions.repository.js';
import { TagsRepository } from '../src/tags/tags.repository.js';
import type { PositionSought } from '../src/positions/positions.repository.js';
import { UploadsRepository } from '../src/uploads/uploads.repository.js';
import type { NewUpload } from '../src/uploads/uploads.repository.js';

/**
 * The example calls `npm run sql` (scripts/sql-files.ts) makes of every method that carries
 * @GenerateSql (src/database/sql.ts), to record the SQL it sends: {@link SQL_EXAMPLES}, by
 * repository and method, and what they are made of. Games are written out here as the plugins would
 * read them, no file read. Before it calls the examples, `npm run sql` stores the rows they name,
 * always in the same order on a new database: so the ids are those of {@link EXAMPLE}.
 */
export const EXAMPLE = {
  /** Games 1 and 2: Go games between Lee Sedol and Gu Li ({@link SEEDED_GAMES}). */
  game: '1',
  otherGame: '2',
  /** Game 3: stored, not indexed; only GamesWriteRepository.delete's example removes it. */
  gameToDelete: '3',
  /** Upload 1: a kept file of two games, game 4 and a duplicate of game 1. */
  upload: '1',
  gameInUpload: '4',
  /** Import 1, running. */
  import: 1,
  /** The Dots server's account `alice`, and her game 1. */
  login: 'alice',
  dotsGame: 1,
} as const;

/** Games 1 to 3 of {@link EXAMPLE}, stored one by one. */
export const SEEDED_GAMES: readonly NewGame[] = [
  exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[pd])'),
  exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[dp])'),
  exampleGame('some notes', { stored: true }),
];

/** A file of two games kept whole: a Go game of these bytes (text), then a copy of game 1's bytes. */
export function exampleUpload(firstGame: string): NewUpload {
  const first = exampleGame(firstGame);
  const twin = SEEDED_GAMES[0];
  const bytes = Buffer.concat([first.file.bytes, twin.file.bytes]);
  return {
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: 'application/x-go-sgf',
    filename: 'collection.sgf',
    publisher: 'SGF',
    version: 'FF4-Go',
    owner: 'club-a',
    games: [
      { start: 0, end: first.file.bytes.length, game: first },
      { start: first.file.bytes.length, end: bytes.length, game: twin },
    ],
  };
}

/** Upload 1 of {@link EXAMPLE}, kept after the games. */
export const SEEDED_UPLOAD: NewUpload = exampleUpload('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[qq])');

/** A Go game's reading as the SGF plugin gives it: two players, the facts search goes by, a problem. */
export function exampleRecord(black: string, white: string, datePlayed: string): ReadResult {
  return {
    publisher: 'SGF',
    version: 'FF4-Go',
    header: `PB[${black}]PW[${white}]DT[${datePlayed}]`,
    body: ';B[pd];W[dp]',
    family: 'go',
    charset: 'utf-8',
    spans: { header: null, body: null },
    analysis: {
      players: [
        { seat: 0, name: black, externalId: null, color: 'black', declaredPoints: null, points: null, rating: '9p', captures: 0, outcome: 'won' },
        { seat: 1, name: white, externalId: null, color: 'white', declaredPoints: null, points: null, rating: '9p', captures: 0, outcome: 'lost' },
      ],
      moveCount: 2,
      result: 'white resigned',
      verdict: { legal: true, consistent: false, problems: [{ code: 'cache.result', ply: null, message: 'an example problem' }] },
      facts: { boardWidth: 19, boardHeight: 19, datePlayed, event: 'Example Cup', rules: 'Japanese', ending: 'resignation', margin: null },
      details: { komi: 6.5 },
      replay: [],
    },
  };
}

/** A game to store: these bytes (text), read as {@link exampleRecord} unless `stored` (no plugin read it). */
export function exampleGame(text: string, options: { stored?: boolean } = {}): NewGame {
  const bytes = Buffer.from(text);
  const record: ReadResult = options.stored
    ? { publisher: null, version: null, header: null, body: null, family: null, charset: 'utf-8', spans: { header: null, body: null }, notIndexedReason: 'no format recognised' }
    : exampleRecord('Lee Sedol', 'Gu Li', '2004-05-01');
  return {
    file: { bytes },
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: options.stored ? 'application/octet-stream' : 'application/x-go-sgf',
    filename: options.stored ? 'notes.bin' : 'example.sgf',
    owner: options.stored ? null : 'club-a',
    record,
  };
}

/** A game with eight positions past the openings (keys of made-up bytes): its postings are a run. */
const EXAMPLE_TRACKED_GAME: NewGame = (() => {
  const game = exampleGame('(;GM[1]SZ[9];B[ee])');
  const entries = Uint8Array.from({ length: 14 * 11 }, (_, i) => (i * 37 + 11) & 0xff);
  return { ...game, record: { ...game.record, positions: { family: 'go', stride: 11, entries } } };
})();

/** Three postings in two buckets, encoded as a run's rows. */
const EXAMPLE_ROWS: EncodedRows = encodeRows(sortedDistinct(postingsOf([[0x800000, 1], [0x800001, 1], [0x800000, 2]])), 24);

/** The node the imports' examples claim imports for. */
const IMPORTS_NODE = 'example-node';

/** A Dots node's id. */
const DOTS_NODE = 'dots_0123456789abcdef';

const EXAMPLE_SOUGHT: PositionSought = { key: Buffer.from('8000000000000001', 'hex'), bucket: 0x80000, top: 0x80000000, stride: 11, transforms: null };

const EXAMPLE_TOKEN: NewToken = { account: 'club-a', name: 'uploader laptop', scopes: ['games:write'], secretSha256: Buffer.alloc(32, 7), expiresAt: null };

const AUDIT_ENTRY: AuditEntry = { account: 'club-a', tokenId: '1', action: 'game.delete', target: '1', status: 204, requestId: 'example' };

/** One call of a repository method made to record the SQL it sends. */
export interface SqlExample<Params extends readonly unknown[] = readonly unknown[]> {
  /** What sets this example apart from the method's others (the shape of the statement it makes). */
  readonly name?: string;
  /** The arguments, as the method takes them (an empty list for a method that takes none). */
  readonly params: Params;
}

/** A repository class. */
export type RepositoryClass<T extends object = object> = abstract new (...args: never[]) => T;

/** A repository's examples by method, each one's arguments checked against the method's parameters. */
type ExamplesOf<T> = { readonly [Method in keyof T]?: T[Method] extends (...args: infer Params) => unknown ? readonly SqlExample<Params>[] : never };

function examples<T extends object>(type: RepositoryClass<T>, byMethod: NoInfer<ExamplesOf<T>>): [RepositoryClass, Readonly<Record<string, readonly SqlExample[]>>] {
  return [type, byMethod as Readonly<Record<string, readonly SqlExample[]>>];
}

/**
 * The examples of every method that carries @GenerateSql, by repository and method: one, or one per
 * shape of its statement, called in this order. The methods are called in the order their class
 * declares them, the repositories in the order of REPOSITORIES (sql-files.ts): an example may count
 * on what an earlier one left in the database.
 */
export const SQL_EXAMPLES: ReadonlyMap<RepositoryClass, Readonly<Record<string, readonly SqlExample[]>>> = new Map([
  examples(GamesWriteRepository, {
    transaction: [{ params: [async (query: Query) => query('SELECT 1')] }],
    idsBySha256: [{ params: [[SEEDED_GAMES[0].sha256, '0'.repeat(64)]] }],
    findIdBySha256: [{ params: [SEEDED_GAMES[0].sha256] }],
    insert: [{ params: [exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[qd])')] }],
    insertAll: [{ params: [[exampleGame('(;GM[1];B[ab])'), exampleGame('(;GM[1];B[ac])')]] }],
    insertMany: [
      { name: 'every file small enough to stay in its row', params: [[exampleGame('(;GM[1];B[aa])'), exampleGame('(;GM[1];B[bb])')]] },
      { name: 'a file kept in game_files beside one kept in its row', params: [[exampleGame(`(;GM[1]C[${'a long comment '.repeat(20)}];B[cc])`), exampleGame('(;GM[1];B[dd])')]] },
    ],
    afterInsert: [{ params: [[EXAMPLE_TRACKED_GAME], [{ id: Number(EXAMPLE.game), uploadedAt: new Date(0), created: true }]] }],
    replaceReading: [
      { params: [EXAMPLE.game, exampleRecord('Lee Sedol', 'Gu Li', '2004-05-02'), 'application/x-go-sgf'] },
      { name: 'the positions and patterns only', params: [EXAMPLE.game, exampleRecord('Lee Sedol', 'Gu Li', '2004-05-02'), 'application/x-go-sgf', ['positions', 'patterns']] },
    ],
    ownerOf: [{ params: [EXAMPLE.game] }],
    delete: [{ params: [EXAMPLE.gameToDelete] }],
  }),
  examples(GamesSearchRepository, {
    search: [
      { name: 'newest first, no filter', params: [{}, 21] },
      { name: 'one name part alone: the page is found among the seats', params: [{ player: 'sedol' }, 21] },
      { name: 'a short name part alone, oldest first, past a game', params: [{ player: 'gu', sort: 'uploaded', pastId: 1 }, 21] },
      { name: 'tags: all of two, none of one', params: [{ tags: 'studied,joseki,-handicap' }, 21] },
      { name: 'a winner among other filters', params: [{ winner: 'lee', family: 'go', status: 'indexed', consistent: false }, 21] },
      { name: 'by the day played, past a day', params: [{ sort: 'played', pastDate: '2004-05-01', pastId: 1, playedFrom: '2000-01-01', playedTo: '2010-12-31' }, 21] },
      {
        name: 'in a window of upload times, past an upload time',
        params: [{ uploadedFrom: new Date('2020-01-01T00:00:00Z'), uploadedTo: new Date('2100-01-01T00:00:00Z'), pastUploadedAt: '2099-12-31T23:59:59.999999Z', pastId: 99 }, 21],
      },
      {
        name: 'every other filter',
        params: [
          {
            publisher: 'SGF', version: 'FF4-Go', boardWidth: 19, boardHeight: 19, event: 'Example Cup', externalId: '12345', filename: 'example.sgf',
            ending: 'resignation', marginMin: 0, marginMax: 10, rules: 'japanese', rating: '9P', movesMin: 1, movesMax: 300,
          },
          21,
        ],
      },
      { name: 'a publisher alone', params: [{ publisher: 'SGF', sort: '-played' }, 21] },
      { name: 'a version alone', params: [{ version: 'FF4-Go', status: 'stored' }, 21] },
      { name: 'each game once', params: [{ unique: true }, 21] },
      { name: 'a Dyer signature', params: [{ signature: 'pdddpppdddpp' }, 21] },
      { name: 'words of the texts, with a player', params: [{ text: 'ladder -handicap', player: 'sedol' }, 21] },
      { name: 'words of the texts matched by few games, found first', params: [{ text: 'ladder', textGames: [1, 2] }, 21] },
      { name: 'a phrase matched by few games, found first as its words', params: [{ text: '"ladder works"', textGames: [1, 2] }, 21] },
    ],
    idsAfter: [{ name: 'every game', params: [{}, 0, 101] }, { name: 'a name among other filters', params: [{ player: 'sedol', family: 'go' }, 1, 101] }],
    hitsOf: [{ params: [[Number(EXAMPLE.game), Number(EXAMPLE.otherGame)], 'ladder -handicap'] }],
    textGames: [{ params: ['ladder -handicap', 201] }],
    textEstimate: [{ params: ['ladder -handicap'] }],
    phrasePairs: [{ params: [['ladder works', 'sente resign']] }],
    pairsEstimate: [{ params: [[4712]] }],
    pairGames: [{ params: [[4712, 60321], 1001] }],
  }),
  examples(GamesViewRepository, {
    findById: [{ params: [EXAMPLE.game] }],
    viewsOf: [{ params: [[EXAMPLE.game, EXAMPLE.otherGame]] }],
    viewsWithJsonTextOf: [{ params: [[Number(EXAMPLE.game), Number(EXAMPLE.otherGame)]] }],
    findRaw: [{ params: [EXAMPLE.game] }],
  }),
  examples(GamesExportRepository, {
    filesOf: [{ params: [[Number(EXAMPLE.game), Number(EXAMPLE.gameInUpload)]] }],
    exportKeys: [
      { name: 'every game, newest first', params: [{}, 2000] },
      { name: 'one name part alone, from an offset', params: [{ player: 'sedol' }, 2, 19] },
      { name: 'by the day played, past a day', params: [{ sort: '-played', pastDate: '2004-05-01', pastId: 2 }, 2000] },
      { name: 'in a window of upload times', params: [{ uploadedFrom: new Date('2020-01-01T00:00:00Z'), sort: 'uploaded', family: 'go' }, 2000] },
    ],
    sizesOf: [{ params: [[Number(EXAMPLE.game), Number(EXAMPLE.otherGame), 99]] }],
  }),
  examples(UploadsRepository, {
    findIdBySha256: [{ params: [SEEDED_UPLOAD.sha256] }],
    findById: [{ params: [EXAMPLE.upload] }],
    findRaw: [{ params: [EXAMPLE.upload] }],
    findKept: [{ params: [[SEEDED_UPLOAD.sha256, '0'.repeat(64)]] }],
    insert: [{ name: 'a new game and a copy of a stored one', params: [exampleUpload('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[jj])')] }],
    insertMany: [{ name: 'two files and a copy of the first', params: [[exampleUpload('(;GM[1];B[ja])'), exampleUpload('(;GM[1];B[jb])'), exampleUpload('(;GM[1];B[ja])')]] }],
  }),
  examples(PositionPostingsRepository, {
    writeRun: [{ params: [[{ id: 1, buckets: [0x800000, 0x800001] }, { id: 2, buckets: [0x800000] }]] }],
    runs: [{ params: [] }],
    claimMerge: [{ params: [[1, 2], 24, 16, 400] }],
    rowsIn: [{ params: [[{ run: 1, shift: 24 }], 0, 0xffffff] }],
    moveRange: [{ params: [3, EXAMPLE_ROWS, [{ run: 1, shift: 24 }], 0, 0xffffff] }],
    reclaim: [{ params: [] }],
    finishMerge: [{ params: [3, 350] }],
    removals: [{ params: [] }],
    whileCompacting: [{ params: [async () => undefined] }],
  }),
  examples(ImportsRepository, {
    create: [
      { params: ['zip', 'games.zip', 3, '/tmp/tabula-import-spool', 'club-a'] },
      {
        name: 'with its body',
        params: ['zip', 'games.zip', 3, '/tmp/tabula-import-spool', 'club-a', { files: [{ name: 'body', bytes: 6 }, { name: 'parts.json', bytes: 2 }], chunks: [Buffer.from('PK\x05\x06[]')] }],
      },
    ],
    spoolChunk: [{ params: [EXAMPLE.import, 0] }],
    findById: [{ params: [String(EXAMPLE.import)] }],
    claim: [{ params: [IMPORTS_NODE, 20_000] }],
    heartbeat: [{ params: [EXAMPLE.import, IMPORTS_NODE] }],
    beginAttempt: [{ params: [EXAMPLE.import, IMPORTS_NODE, 0] }],
    giveBackAttempt: [{ params: [EXAMPLE.import, IMPORTS_NODE, 0] }],
    nextPosition: [{ params: [EXAMPLE.import] }],
    record: [
      {
        name: 'in a transaction of its own',
        params: [EXAMPLE.import, IMPORTS_NODE, { position: 0, path: 'games/one.sgf', outcome: 'indexed', uploadId: null, gameIds: [Number(EXAMPLE.game)], problem: null, gamesStored: 1, duplicates: 0 }],
      },
    ],
    recordMany: [
      {
        name: 'two files, one refused',
        params: [
          EXAMPLE.import,
          IMPORTS_NODE,
          [
            { position: 1, path: 'games/two.sgf', outcome: 'indexed', uploadId: null, gameIds: [Number(EXAMPLE.game)], problem: null, gamesStored: 0, duplicates: 1 },
            { position: 2, path: 'games/three.sgf', outcome: 'refused', uploadId: null, gameIds: [], problem: { type: 'about:blank', title: 'Unprocessable Entity', status: 422, code: 'format.malformed', detail: 'an example refusal' }, gamesStored: 0, duplicates: 0 },
          ],
        ],
      },
    ],
    finish: [
      {
        params: [EXAMPLE.import, IMPORTS_NODE, 'failed', { type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'service.unavailable', detail: 'an example failure' }],
      },
    ],
    entriesAfter: [{ params: [String(EXAMPLE.import), -1, 100] }],
    spoolOwners: [{ params: [['/tmp/tabula-sql-seed', '/tmp/tabula-imports/no-such-import']] }],
    release: [{ params: [EXAMPLE.import, IMPORTS_NODE] }],
  }),
  examples(PlayersRepository, {
    find: [{ name: 'a part of three characters or more, first page', params: ['sedol', undefined, 21] }, { name: 'a shorter part, after a name', params: ['gu', 'gu k', 21] }],
    outcomes: [{ params: ['lee sedol'] }],
    names: [{ params: ['lee sedol', 10] }],
    games: [{ name: 'first page', params: ['lee sedol', undefined, 21] }, { name: 'before a game', params: ['lee sedol', 2, 21] }],
  }),
  examples(PositionsRepository, {
    track: [{ params: [EXAMPLE.game] }],
    gameExists: [{ params: [EXAMPLE.game] }],
    games: [
      { name: 'newest first', params: [EXAMPLE_SOUGHT, {}, 21] },
      { name: 'the next page', params: [EXAMPLE_SOUGHT, { pastId: 5 }, 21] },
      { name: 'exact, a player, past a game', params: [{ ...EXAMPLE_SOUGHT, transforms: [0] }, { player: 'sedol', pastId: 5 }, 21] },
    ],
    count: [{ name: 'every game', params: [EXAMPLE_SOUGHT, {}] }, { name: 'in a period', params: [EXAMPLE_SOUGHT, { playedFrom: '2000-01-01', playedTo: '2010-12-31' }] }],
    moves: [{ name: 'every game', params: [EXAMPLE_SOUGHT, {}] }, { name: 'a player', params: [EXAMPLE_SOUGHT, { player: 'sedol' }] }],
    arrivals: [{ name: 'every game', params: [EXAMPLE_SOUGHT, {}, 9] }, { name: 'a player', params: [EXAMPLE_SOUGHT, { player: 'sedol' }, 9] }],
    hasRanks: [{ params: [] }],
    years: [{ name: 'every game', params: [EXAMPLE_SOUGHT, {}] }, { name: 'a player', params: [EXAMPLE_SOUGHT, { player: 'sedol' }] }],
    movesByYear: [
      { name: 'every game, with Go ranks', params: [EXAMPLE_SOUGHT, {}, { level: 'rank', moverInPly: true }] },
      { name: 'every game, with the ratings of players taking turns', params: [EXAMPLE_SOUGHT, {}, { level: 'rating', moverInPly: false }] },
      { name: 'a period, no levels', params: [EXAMPLE_SOUGHT, { playedFrom: '2000-01-01', playedTo: '2010-12-31' }, null] },
    ],
    narrowFirst: [{ params: [['a.date_played >= $1::date', 'a.date_played <= $2::date'], ['2006-01-01', '2006-01-31'], 10_000] }],
    candidates: [{ params: [EXAMPLE_SOUGHT] }],
  }),
  examples(TagsRepository, {
    ownerOf: [{ params: [EXAMPLE.game] }],
    replace: [{ params: [EXAMPLE.game, ['studied', 'joseki']] }],
    idsAfter: [{ name: 'no filter', params: [{}, 0, 1001] }, { name: 'an owner and a tag', params: [{ owner: 'club-a', tags: '-studied' }, 1, 1001] }],
    change: [
      { name: 'add and remove', params: [[1, 2], ['joseki'], ['studied']] },
      { name: 'add only', params: [[1, 2], ['studied'], []] },
    ],
    counts: [{ name: 'every tag', params: [undefined, 101] }, { name: 'a prefix', params: ['stu', 101] }],
  }),
  examples(IdentityRepository, {
    own: [{ params: [EXAMPLE.game] }],
    gameExists: [{ params: [EXAMPLE.game] }],
    relatives: [
      { name: 'a game of 30 plies or more', params: [EXAMPLE.game, 100, [], false] },
      { name: 'a short game that ended by rule', params: [EXAMPLE.game, 100, ['1', '2'], true] },
    ],
    sameAs: [{ params: [[1, 2]] }],
    standings: [{ params: [[1, 2]] }],
  }),
  examples(PatternsRepository, {
    filterRows: [{ name: 'every row', params: [null] }, { name: 'since a transaction', params: ['1000'] }],
    changesOf: [{ params: [[1, 2]] }],
    passing: [{ name: 'no filter', params: [[1, 2], {}] }, { name: 'a player', params: [[1, 2], { player: 'sedol' }] }],
    boards: [{ name: 'no filter', params: [[1, 2], {}] }, { name: 'a player', params: [[1, 2], { player: 'sedol' }] }],
    summaries: [{ params: [[1, 2]] }],
  }),
  examples(DraughtsRepository, {
    snapshotXmin: [{ params: [] }],
    rowsSince: [{ name: 'every row', params: [null, 0, 5000] }, { name: 'since a transaction', params: ['1000', 100, 5000] }],
    rowsOf: [{ params: [[1, 2]] }],
    count: [{ params: [] }],
    gameIds: [{ params: [] }],
    passing: [{ name: 'the family', params: [[1, 2], { family: 'checkers' }] }, { name: 'a player', params: [[1, 2], { family: 'checkers', player: 'sedol' }] }],
  }),
  examples(DotsRepository, {
    insertAccount: [{ params: ['bob', 'scrypt$example$hash'] }],
    loginTaken: [{ params: ['Bob'] }],
    replacePasswordHash: [{ params: [EXAMPLE.login, 'scrypt$16384$example$hash', 'scrypt$131072$example$hash'] }],
    account: [{ params: [EXAMPLE.login] }],
    insertGame: [{ params: [{ players: 2, width: 39, height: 32, seconds: 30, extraMove: false }, EXAMPLE.login, DOTS_NODE] }],
    updateGame: [{ params: [EXAMPLE.dotsGame, 'finished', [EXAMPLE.login, 'bob'], 'an example transcript'] }],
    updateGames: [
      {
        params: [
          [{ id: EXAMPLE.dotsGame, state: 'running', options: { players: 2, width: 39, height: 32, seconds: 30, extraMove: false }, players: [EXAMPLE.login, 'bob'], transcript: 'an example transcript' }],
          DOTS_NODE,
        ],
      },
    ],
    markArchived: [{ params: [EXAMPLE.dotsGame, Number(EXAMPLE.game)] }],
    openGames: [{ params: [] }],
    unarchivedGames: [{ params: [] }],
    outcomes: [{ params: ['tabula-dots:alice'] }],
    listen: [{ params: [['dots_example_node', 'dots_cluster'], { notified: () => undefined, lost: () => undefined }, AbortSignal.abort()] }],
    notify: [{ params: [[{ channel: DOTS_NODE, payload: '{"k":"out"}' }]] }],
    registerNode: [{ params: [DOTS_NODE, 'example-host/1234'] }],
    beat: [{ params: [DOTS_NODE] }],
    removeNode: [{ params: [DOTS_NODE] }],
    removeDeadNodes: [{ params: [DOTS_NODE, 30_000] }],
    claimOrphanGames: [{ params: [DOTS_NODE] }],
    endGame: [{ params: [EXAMPLE.dotsGame, DOTS_NODE, 'unfinished', [EXAMPLE.login, 'bob'], 'an example transcript'] }],
    gamesElsewhere: [{ params: [DOTS_NODE] }],
    homeOf: [{ params: [EXAMPLE.dotsGame, DOTS_NODE] }],
    seatsElsewhere: [{ params: [EXAMPLE.login, DOTS_NODE] }],
    claimLogin: [{ params: [EXAMPLE.login, DOTS_NODE] }],
    releaseLogin: [{ params: [EXAMPLE.login, DOTS_NODE] }],
  }),
  examples(AccountsRepository, {
    createToken: [{ params: [EXAMPLE_TOKEN] }],
    findToken: [{ params: ['1'] }],
    listTokens: [{ name: 'every account', params: [undefined] }, { name: 'one account', params: ['club-a'] }],
    touchToken: [{ params: ['1'] }],
    revokeToken: [{ params: ['1'] }],
  }),
  examples(AuditRepository, {
    record: [{ params: [AUDIT_ENTRY] }],
    page: [
      { name: 'unfiltered', params: [{}, 50] },
      { name: 'every filter', params: [{ account: 'club-a', action: 'game.delete', from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z'), before: '100' }, 50] },
    ],
  }),
  examples(DatabaseRepository, {
    ping: [{ params: [] }],
    tableActivity: [{ params: [] }],
    exists: [{ params: ['"player_names"'] }],
    upkeep: [{ name: 'vacuum', params: ['"player_names"', 'vacuum'] }, { name: 'analyse only', params: ['"player_names"', 'analyze'] }],
    autovacuumOn: [{ params: [] }],
    whileMigrationLocked: [{ params: [async () => undefined] }],
  }),
  examples(ReplicationRepository, {
    walPosition: [{ params: [] }],
    replayPosition: [{ params: [] }],
  }),
]);

/** The examples of a repository's method, or undefined when it has none. */
export function sqlExamplesOf(type: RepositoryClass, method: string): readonly SqlExample[] | undefined {
  return SQL_EXAMPLES.get(type)?.[method];
}
