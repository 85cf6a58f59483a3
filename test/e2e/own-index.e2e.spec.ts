import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { IndexDefinition } from '../../src/indexes/game-index.js';
import { GAME_INDEXES } from '../../src/indexes/registry.js';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';

/**
 * The proof of src/indexes' design: an index written here, in this file alone — the plies of each
 * game's main line — is registered in a test archive, fed by every write path (a single game, a
 * collection, re-index, delete) and searched, with nothing outside this file knowing of it.
 */
const PLIES_INDEX: IndexDefinition = {
  name: 'plies',
  summary: 'the plies of each main line (a test of the index interface)',
  takes: [],
  tables: ['test_plies'],
  open: () => ({
    name: 'plies',
    fields: 'plies_count int',
    fieldsOf: (reading) => ({ plies_count: reading.analysis?.moveCount ?? null }),
    rows: (made) => `plies AS (INSERT INTO test_plies (game_id, plies) SELECT m.id, m.plies_count FROM ${made} m WHERE m.plies_count IS NOT NULL)`,
    remove: (ids) => `plies AS (DELETE FROM test_plies WHERE game_id = ANY(${ids}))`,
  }),
};

/** SGF games whose plies are counted by hand: a pass is a ply. */
const THREE = '(;GM[1]FF[4]SZ[9];B[ee];W[gc];B[cg])';
const FIVE = '(;GM[1]FF[4]SZ[9];B[ee];W[gc];B[cg];W[];B[gg])';
const ONE = '(;GM[1]FF[4]SZ[9];B[cc])';
const SEVEN = '(;GM[1]FF[4]SZ[19];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[jp])';

describe('an index written in a test', () => {
  let archive: TestArchive;
  let db: DataSource;

  beforeAll(async () => {
    archive = await startArchive({}, { indexes: [PLIES_INDEX] });
    db = archive.app.get<DataSource>(getDataSourceToken());
    await db.query(`CREATE TABLE test_plies (game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE, plies int NOT NULL)`);
  });
  afterAll(async () => {
    await archive.close();
  });

  const sgf = { 'Content-Type': 'application/x-go-sgf' };
  /** The search the index serves: games of at least `plies` plies, by id. */
  const atLeast = async (plies: number) => (await db.query<{ game_id: string }[]>(`SELECT game_id FROM test_plies WHERE plies >= $1 ORDER BY game_id`, [plies])).map((row) => Number(row.game_id));
  const rows = async () => (await db.query<{ game_id: string; plies: number }[]>(`SELECT game_id, plies FROM test_plies ORDER BY game_id`)).map((row) => [Number(row.game_id), row.plies]);

  it('is written for games stored alone and in collections, and searched', async () => {
    const three = (await (await post(archive, '/games', THREE, sgf)).json()) as { id: number };
    const upload = await post(archive, '/uploads', `${FIVE}\n${ONE}`, sgf);
    expect(upload.status).toBe(201);
    const [five, one] = ((await upload.json()) as { games: { gameId: number }[] }).games.map((game) => game.gameId);
    expect(await rows()).toEqual([
      [three.id, 3],
      [five, 5],
      [one, 1],
    ]);
    expect(await atLeast(3)).toEqual([three.id, five]);
  });

  it('is removed and written again when a game is re-indexed, and rebuilt alone when named', async () => {
    const seven = (await (await post(archive, '/games', SEVEN, sgf)).json()) as { id: number };
    await db.query(`UPDATE test_plies SET plies = 0 WHERE game_id = $1`, [seven.id]);
    const whole = await fetch(`${archive.baseUrl}/games/${seven.id}/reindex`, { method: 'POST' });
    expect(whole.status).toBe(200);
    expect((await rows()).filter(([id]) => id === seven.id)).toEqual([[seven.id, 7]]);

    // Named alone, only it is rebuilt: another index's rows (the game's analysis) stay as they were.
    await db.query(`UPDATE test_plies SET plies = 0 WHERE game_id = $1`, [seven.id]);
    await db.query(`UPDATE game_analyses SET event = 'left alone' WHERE game_id = $1`, [seven.id]);
    const alone = await fetch(`${archive.baseUrl}/reindex?indexes=plies&limit=1000`, { method: 'POST' });
    expect(alone.status).toBe(200);
    expect((await rows()).filter(([id]) => id === seven.id)).toEqual([[seven.id, 7]]);
    expect(await db.query(`SELECT event FROM game_analyses WHERE game_id = $1`, [seven.id])).toEqual([{ event: 'left alone' }]);
  });

  it('loses a deleted game', async () => {
    const before = await atLeast(0);
    const gone = before[0];
    expect((await fetch(`${archive.baseUrl}/games/${gone}`, { method: 'DELETE' })).status).toBe(204);
    expect(await atLeast(0)).toEqual(before.slice(1));
  });

  it('is refused by name where it is not registered, and INDEXES names only registered indexes', async () => {
    const other = await startArchive();
    try {
      const response = await fetch(`${other.baseUrl}/reindex?indexes=plies`, { method: 'POST' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'reindex.unknown_index' });
    } finally {
      await other.close();
    }
    await expect(startArchive({ INDEXES: 'facts,plies' })).rejects.toThrow(/INDEXES: "plies" is no index/);
    await expect(startArchive({ INDEXES: 'players,positions' })).rejects.toThrow(/INDEXES: must name facts/);
  });

  it("owns its table, as every index owns the tables and triggers it names: the rest are the archive's own", async () => {
    // The archive's own tables, as the migrations made them: games and their bytes, kept files,
    // imports, the Dots server, accounts, limits, the owners' tags (not read from the files: no
    // index's), and the migrations' own record.
    const own = ['games', 'game_files', 'formats', 'families', 'uploads', 'upload_games', 'imports', 'import_entries', 'import_spool', 'dots_accounts', 'dots_games', 'dots_nodes', 'dots_logins', 'accounts', 'tokens', 'audit', 'rate_limits', 'game_tags', 'tag_counts', 'migrations'];
    // The archive's own triggers: the tags' counts.
    const ownTriggers = ['tag_counts_added', 'tag_counts_removed'];
    const tables = (await db.query<{ name: string }[]>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)).map((row) => row.name);
    const owners = (table: string) => [...(own.includes(table) ? ['the archive'] : []), ...[...GAME_INDEXES, PLIES_INDEX].filter((index) => index.tables.includes(table)).map((index) => index.name)];
    expect(tables.map((table) => ({ table, owners: owners(table) })).filter((entry) => entry.owners.length !== 1)).toEqual([]);
    expect([...GAME_INDEXES.flatMap((index) => index.tables), ...own].filter((table) => !tables.includes(table))).toEqual([]);
    const triggers = (await db.query<{ name: string; table: string }[]>(`SELECT DISTINCT trigger_name AS name, event_object_table AS table FROM information_schema.triggers WHERE trigger_schema = 'public'`)).map((row) => row);
    const named = GAME_INDEXES.flatMap((index) => (index.triggers ?? []).map((name) => ({ name, index })));
    // Every trigger is the archive's own or one index's, on one of that index's tables; every trigger an index names exists.
    expect(triggers.filter((trigger) => !ownTriggers.includes(trigger.name) && !named.some(({ name, index }) => name === trigger.name && index.tables.includes(trigger.table)))).toEqual([]);
    expect(ownTriggers.filter((name) => !triggers.some((trigger) => trigger.name === name && own.includes(trigger.table)))).toEqual([]);
    expect(named.map(({ name }) => name).filter((name) => !triggers.some((trigger) => trigger.name === name))).toEqual([]);
  });

  it('is not written while INDEXES leaves it out, nor is any other index left out, and the replay makes what the others take', async () => {
    const off = await startArchive({ INDEXES: 'facts,players,identities,patterns' }, { indexes: [PLIES_INDEX] });
    try {
      const offDb = off.app.get<DataSource>(getDataSourceToken());
      await offDb.query(`CREATE TABLE test_plies (game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE, plies int NOT NULL)`);
      expect((await post(off, '/games', THREE, sgf)).status).toBe(201);
      expect(await offDb.query(`SELECT * FROM test_plies`)).toEqual([]);
      expect(await offDb.query(`SELECT count(*)::int AS n FROM game_positions`)).toEqual([{ n: 0 }]);
      expect(await offDb.query(`SELECT count(*)::int AS n FROM position_runs`)).toEqual([{ n: 0 }]);
      expect(await offDb.query(`SELECT count(*)::int AS n FROM game_players`)).toEqual([{ n: 2 }]);
      // The Go replay without the positions' keys still makes the identity (its three plies) and the board's changes.
      expect(await offDb.query(`SELECT plies FROM game_identities`)).toEqual([{ plies: 3 }]);
      expect(await offDb.query(`SELECT width, height FROM game_patterns`)).toEqual([{ width: 9, height: 9 }]);
    } finally {
      await off.close();
    }
  });
});
