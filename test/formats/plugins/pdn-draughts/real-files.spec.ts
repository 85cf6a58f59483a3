import { readFileSync } from 'node:fs';
import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

// Real files written by another program (the PDN standard repository, see PROVENANCE.txt there).
const FOLDER = 'test/fixtures/realdata/checkers/russian';
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

interface ReadGame {
  readonly text: string;
  readonly record: GameRecord;
}

async function readAll(name: string): Promise<{ bytes: Buffer; games: ReadGame[] }> {
  const bytes = readFileSync(`${FOLDER}/${name}`);
  const slices = pdnDraughtsPlugin.split!({ bytes, filename: name }, options);
  const games: ReadGame[] = [];
  for (const slice of slices) {
    const piece = bytes.subarray(slice.start, slice.end);
    games.push({ text: piece.toString('utf8'), record: await pdnDraughtsPlugin.read({ bytes: piece }, options) });
  }
  return { bytes, games };
}

/** Counted from the text with a regular expression, not by the plugin: one `[White` tag per game. */
const gamesInText = (text: string) => text.match(/^\[White\s/gm)!.length;
/** Move tokens as written, numbers and results left out: a-h1-8 squares joined by -, : or x, or the `-` placeholders. */
const pliesInText = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('['))
    .join(' ')
    .split(/\s+/)
    .filter((token) => /^(?:[a-h][1-8](?:[-:x][a-h][1-8])+|-)$/.test(token)).length;

describe('USSR championship games (ussr1947.pdn)', () => {
  let file: { bytes: Buffer; games: ReadGame[] };
  beforeAll(async () => {
    file = await readAll('ussr1947.pdn');
  });

  it('splits into its 153 games, each slice running from its first tag to its result', () => {
    const text = file.bytes.toString('utf8');
    expect(gamesInText(text)).toBe(153);
    expect(file.games).toHaveLength(153);
    for (const { text: game, record } of file.games) {
      expect(game.startsWith('[White "')).toBe(true);
      const result = /\[Result "([^"]+)"\]/.exec(game)![1];
      expect(game.endsWith(result)).toBe(true);
      expect(record.header).toMatch(/^\[White "[^"]*"\]\r\n[\s\S]*\[FEN "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4\."\]$/);
      expect(record.body!.startsWith('1. ')).toBe(true);
    }
    // Between the slices there is nothing but line breaks: no byte of a game is left out.
    const slices = pdnDraughtsPlugin.split!({ bytes: file.bytes }, options);
    expect(slices[0].start).toBe(0);
    for (let i = 1; i < slices.length; i++) expect(file.bytes.subarray(slices[i - 1].end, slices[i].start).toString()).toMatch(/^\s+$/);
    expect(file.bytes.subarray(slices[152].end).toString()).toMatch(/^\s*$/);
  });

  it('replays every game as legal and consistent, 8,730 plies in all (the count of move tokens in the text)', () => {
    let plies = 0;
    for (const [i, { record }] of file.games.entries()) {
      const analysis = record.analysis!;
      expect({ game: i + 1, verdict: analysis.verdict }).toEqual({ game: i + 1, verdict: { legal: true, consistent: true, problems: [] } });
      expect(analysis.replay).toHaveLength(analysis.moveCount);
      plies += analysis.moveCount;
    }
    expect(plies).toBe(pliesInText(file.bytes.toString('utf8')));
    expect(plies).toBe(8730);
  });

  it('gives the players, results and facts of the first three games as the file writes them', () => {
    const summary = file.games.slice(0, 3).map(({ record }) => {
      const analysis = record.analysis!;
      return {
        players: analysis.players.map((p) => [p.color, p.name, p.outcome]),
        result: analysis.result,
        moveCount: analysis.moveCount,
        last: analysis.replay[analysis.replay.length - 1].move,
      };
    });
    expect(summary).toEqual([
      // 31. h4:f6 1-0: white's 31st move is the 61st ply.
      { players: [['white', 'Блиндер Б.', 'won'], ['black', 'Миротин Б.', 'lost']], result: 'white won', moveCount: 61, last: 'h4:f6' },
      // 35. h6-g7 1/2-1/2.
      { players: [['white', 'Коршунов Д.', 'drawn'], ['black', 'Коган М', 'drawn']], result: 'draw', moveCount: 69, last: 'h6-g7' },
      // 29. a5-b6 e3-f2 1/2-1/2.
      { players: [['white', 'Коршунов Д.', 'drawn'], ['black', 'Петров С.', 'drawn']], result: 'draw', moveCount: 58, last: 'e3-f2' },
    ]);
    const facts = file.games[0].record.analysis!.facts;
    // "1950." names a year only: no day to index, the year kept in the details.
    expect(facts).toEqual({ boardWidth: 8, boardHeight: 8, datePlayed: null, event: 'X чемпионат СССР', rules: 'Russian draughts' });
    expect(file.games[0].record.analysis!.details).toMatchObject({ year: 1950, start: 'fen', round: null });
  });

  it('writes captures given by their ends only with every landing: 30... c5:g5 of game 1 is c5:e3:g5', () => {
    // Before 30... c5:g5 black's c5 man can take d4 (landing e3) and then f4 (landing g5).
    const replay = file.games[0].record.analysis!.replay;
    expect(replay[59]).toMatchObject({ ply: 60, player: 1, move: 'c5:e3:g5', captured: ['d4', 'f4'], details: { written: 'c5:g5' } });
  });
});

describe('games of N. Abatsiev (abatsiev.pdn, from the upstream "fail" folder)', () => {
  let file: { bytes: Buffer; games: ReadGame[] };
  beforeAll(async () => {
    file = await readAll('abatsiev.pdn');
  });

  it('splits into its 56 games and reads every one of them', () => {
    expect(gamesInText(file.bytes.toString('utf8'))).toBe(56);
    expect(file.games).toHaveLength(56);
    expect(file.games.every(({ record }) => record.publisher === 'PDN' && record.analysis !== undefined)).toBe(true);
    const plies = file.games.reduce((sum, { record }) => sum + record.analysis!.moveCount, 0);
    expect(plies).toBe(pliesInText(file.bytes.toString('utf8')));
  });

  it('hands over each game\'s Site as its one text (the file has no comments), at ply 0', () => {
    // Game 1 writes [Site "Лиепая"], game 2 [Site "Москва, 1965 г."]; the file has no "{" or ";" comment.
    expect(file.games[0].record.analysis!.texts).toEqual([{ ply: 0, text: 'Лиепая' }]);
    expect(file.games[1].record.analysis!.texts).toEqual([{ ply: 0, text: 'Москва, 1965 г.' }]);
    for (const { text, record } of file.games) {
      const site = /^\[Site\s+"([^"]*)"\]/m.exec(text)?.[1].trim() ?? '';
      expect(record.analysis!.texts).toEqual(site === '' ? [] : [{ ply: 0, text: site }]);
    }
  });

  it('game 36 (Абациев – Лебедев) has "-" for every move: kept, illegal at ply 1 where its first "-" stands', () => {
    const { text, record } = file.games[35];
    expect(text).toContain('[Black       "Лебедев Ю."]');
    const analysis = record.analysis!;
    // "1. - - 2. - - … 25. - -": 50 plies written, none of them a move.
    expect(analysis.moveCount).toBe(50);
    expect(analysis.replay).toEqual([]);
    // The slice's 7 tag lines, a blank line, then "1. - -": the first "-" is at line 9, column 4.
    expect(analysis.verdict).toEqual({
      legal: false,
      consistent: true,
      problems: [
        { code: 'move.unreadable', ply: 1, message: 'ply 1 (white): "-" is not a move (line 9, column 4)' },
        { code: 'note.not_replayed', ply: 1, message: 'the 49 moves after ply 1 were not replayed' },
      ],
    });
    // The game is still indexed by what its tags say.
    expect(analysis.players.map((p) => [p.name, p.outcome])).toEqual([
      ['Абациев Н.', 'drawn'],
      ['Лебедев Ю.', 'drawn'],
    ]);
    expect(analysis.facts.datePlayed).toBe('1973-10-11');
  });

  it('replays the other 55 games as legal and consistent', () => {
    const broken = file.games.map(({ record }, i) => [i + 1, record.analysis!.verdict.legal, record.analysis!.verdict.consistent]).filter(([, legal, consistent]) => !legal || !consistent);
    expect(broken).toEqual([[36, false, true]]);
  });

  it('reads the first game with its D.M.YYYY date, site and result', () => {
    const analysis = file.games[0].record.analysis!;
    expect(analysis.players.map((p) => [p.name, p.outcome])).toEqual([
      ['Абаулин В.', 'won'],
      ['Абациев Н.', 'lost'],
    ]);
    // 42. d8-f6 1-0: 83 plies.
    expect(analysis.moveCount).toBe(83);
    expect(analysis.facts).toEqual({ boardWidth: 8, boardHeight: 8, datePlayed: '1965-01-01', event: 'XXV первенство СССР', rules: 'Russian draughts' });
    expect(analysis.details).toMatchObject({ site: 'Лиепая', start: 'standard' });
    // Game 37 writes "????.??.??": no date at all.
    expect(file.games[36].record.analysis!.facts.datePlayed).toBeNull();
  });
});

describe('regeneration of the real games', () => {
  it.each(['ussr1947.pdn', 'abatsiev.pdn'])('%s: every game written back reads as the same game', async (name) => {
    const bytes = readFileSync(`${FOLDER}/${name}`);
    for (const [i, slice] of pdnDraughtsPlugin.split!({ bytes }, options).entries()) {
      const piece = { bytes: bytes.subarray(slice.start, slice.end) };
      const before = (await pdnDraughtsPlugin.read(piece, options)).analysis!;
      const written = String((await pdnDraughtsPlugin.regenerate(piece, options)).content);
      const after = (await pdnDraughtsPlugin.read({ bytes: Buffer.from(written) }, options)).analysis!;
      const same = (a: typeof before) => ({ game: i + 1, moves: a.replay.map((p) => [p.move, p.captured]), players: a.players, result: a.result, codes: a.verdict.problems.map((p) => p.code) });
      expect(same(after)).toEqual(same(before));
      // Every replayed move is written with all its landings: nothing is left for a reader to search.
      expect(after.details.abbreviatedCaptures).toBe(0);
    }
  });
});

