import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * A file kept before its format was understood gets indexed once a plugin for it exists: an
 * archive stores a tally sheet it cannot read, then starts again with a plugin for tally sheets
 * (FORMAT_PLUGIN_MODULES, loaded by the archive and by every analysis thread) and re-indexes.
 */
const TALLY = Buffer.from('TALLY SHEET\nblack: Ann Arbor\nwhite: Bo Brandt\nmoves: c3 d4 e5\nresult: black\n');
const KEY = { Authorization: 'Bearer tally-key' };

/** The tally-sheet plugin, written as a module outside the archive's code would be. */
const PLUGIN_SOURCE = `
const format = { publisher: 'Tally', version: '1', family: 'go', title: 'Tally sheet', mediaTypes: ['text/plain'], extensions: ['.tally'] };
const fields = (bytes) => Object.fromEntries(bytes.toString('utf8').split('\\n').slice(1).filter(Boolean).map((line) => line.split(': ')));
export default {
  id: 'tally-sheet',
  formats: [format],
  detect: (file) => file.bytes.subarray(0, 12).toString('latin1') === 'TALLY SHEET\\n',
  async read(file) {
    const sheet = fields(file.bytes);
    const moves = sheet.moves.split(' ');
    const text = file.bytes.toString('utf8');
    const player = (seat, colour) => ({
      seat, name: sheet[colour], externalId: null, color: colour, declaredPoints: null, points: null, captures: 0,
      outcome: sheet.result === colour ? 'won' : 'lost',
    });
    return {
      publisher: 'Tally', version: '1', family: 'go',
      header: text.slice(0, text.indexOf('moves:') - 1), body: text.slice(text.indexOf('moves:')).trimEnd(),
      analysis: {
        players: [player(0, 'black'), player(1, 'white')],
        moveCount: moves.length,
        result: sheet.result + ' wins',
        verdict: { legal: true, consistent: true, problems: [] },
        facts: { boardWidth: 19, boardHeight: 19, datePlayed: null, event: null, rules: null },
        details: {},
        replay: moves.map((move, i) => ({ ply: i + 1, player: i % 2, move, captured: [], score: [0, 0] })),
      },
    };
  },
  async regenerate(file) {
    return { publisher: 'Tally', version: '1', mediaType: 'text/plain', filename: 'sheet.tally', content: file.bytes };
  },
};
`;

describe('a plugin registered after a file was stored', () => {
  let folder: string;
  let pluginPath: string;
  let settings: Record<string, string>;
  let scratch: ScratchDatabase | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tabula-plugin-'));
    pluginPath = join(folder, 'tally-plugin.mjs');
    writeFileSync(pluginPath, PLUGIN_SOURCE);
    // One database both archives use, the second after the first has stopped.
    const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
    scratch = serverUrl ? await createScratchDatabase(serverUrl, 'tabula_test') : undefined;
    settings = { API_KEYS: 'tally-key', ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: join(folder, 'data') }) };
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is indexed by re-indexing, by the plugin on the analysis threads, with the bytes unchanged', async () => {
    let archive: TestArchive = await startArchive(settings);
    let id: number;
    try {
      const stored = await post(archive, '/games?filename=sheet.tally', TALLY, KEY);
      expect(stored.status).toBe(201);
      const game = await stored.json();
      expect(game).toMatchObject({ status: 'stored', publisher: null, players: [] });
      id = game.id;
    } finally {
      await archive.close();
    }

    archive = await startArchive({ ...settings, FORMAT_PLUGIN_MODULES: pluginPath });
    try {
      const formats = await (await fetch(`${archive.baseUrl}/formats`)).json();
      expect(JSON.stringify(formats)).toContain('"publisher":"Tally"');

      const response = await fetch(`${archive.baseUrl}/reindex?status=stored`, { method: 'POST', headers: KEY });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ reindexed: 1, indexed: 1, refused: [], next: null });

      const game = await (await fetch(`${archive.baseUrl}/games/${id}`)).json();
      expect(game).toMatchObject({
        id,
        status: 'indexed',
        publisher: 'Tally',
        version: '1',
        family: 'go',
        moveCount: 3,
        header: 'TALLY SHEET\nblack: Ann Arbor\nwhite: Bo Brandt',
        body: 'moves: c3 d4 e5\nresult: black',
      });
      expect(game.players.map((player: { name: string; outcome: string }) => [player.name, player.outcome])).toEqual([
        ['Ann Arbor', 'won'],
        ['Bo Brandt', 'lost'],
      ]);
      const raw = Buffer.from(await (await fetch(`${archive.baseUrl}/games/${id}/raw`)).arrayBuffer());
      expect(raw).toEqual(TALLY);

      // The replay is made on an analysis thread, which loaded the plugin too.
      const replay = await (await fetch(`${archive.baseUrl}/games/${id}/replay`)).json();
      expect(replay.plies.map((ply: { move: string }) => ply.move)).toEqual(['c3', 'd4', 'e5']);
      const players = await (await fetch(`${archive.baseUrl}/players?name=ann`)).json();
      expect(players.items).toEqual([{ key: 'ann arbor', name: 'Ann Arbor', games: 1 }]);
      const ann = await (await fetch(`${archive.baseUrl}/players/${encodeURIComponent('ann arbor')}`)).json();
      expect(ann.overall).toMatchObject({ played: 1, won: 1, lost: 0 });
    } finally {
      await archive.close();
    }
  });

  it('stops the start when a module exports no plugin', async () => {
    const broken = join(folder, 'not-a-plugin.mjs');
    writeFileSync(broken, 'export default { id: "half" };\n');
    await expect(startArchive({ FORMAT_PLUGIN_MODULES: broken })).rejects.toThrow(/not-a-plugin\.mjs: its default export must be a format plugin/);
  });
});
