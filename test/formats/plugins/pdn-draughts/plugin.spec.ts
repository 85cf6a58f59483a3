import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import type { GameAnalysis } from '../../../../src/formats/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

const options = limitOptions();
const read = async (text: string) => pdnDraughtsPlugin.read(textFile(text), options);
const analyse = async (text: string): Promise<GameAnalysis> => (await read(text)).analysis!;

describe('FEN setups', () => {
  // White king e1 (square 31); black men d2 (26), d4 (18), d6 (10). Written by its ends, e1:c7.
  const KING = '[FEN "W:WK31:B26,18,10."]\n1. e1:c7 *\n';

  it('starts from the FEN and finds the only route of a capture written by its ends', async () => {
    const analysis = await analyse(KING);
    expect(analysis.replay).toEqual([
      {
        ply: 1,
        player: 0,
        move: 'e1:c3:e5:c7',
        captured: ['d2', 'd4', 'd6'],
        score: [3, 0],
        details: expect.objectContaining({ written: 'e1:c7', promoted: false }),
      },
    ]);
    // Black has nothing left: the rules end the game, and "*" claims nothing against them.
    expect(analysis.result).toBe('white wins: black has no pieces');
    expect(analysis.players.map((p) => [p.color, p.outcome, p.captures])).toEqual([
      ['white', 'won', 3],
      ['black', 'lost', 0],
    ]);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.details).toMatchObject({ start: 'fen', firstToMove: 'white', remaining: { white: { men: 0, kings: 1 }, black: { men: 0, kings: 0 } } });
  });

  it('a Result claiming the other side won is inconsistent with the rules (the outcome follows the rules)', async () => {
    const analysis = await analyse(`[Result "0-1"]\n${KING.replace('*', '0-1')}`);
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems).toEqual([
      { code: 'cache.result', ply: null, message: 'the Result tag says 0-1, but the rules end the game: white wins: black has no pieces' },
    ]);
    expect(analysis.players.map((p) => p.outcome)).toEqual(['won', 'lost']);
  });

  it('reads black to move, number ranges and names: B:W29-32:BKa7,e7', async () => {
    // White men on 29-32 = a1, c1, e1, g1 (nothing behind them to capture into); a black king on
    // a7 and a man on e7; black moves first.
    const analysis = await analyse('[FEN "B:W29-32:BKa7,e7"]\n1... a7-b8 2. a1-b2 *');
    expect(analysis.details).toMatchObject({ firstToMove: 'black', remaining: { white: { men: 4, kings: 0 }, black: { men: 1, kings: 1 } } });
    expect(analysis.replay.map((p) => [p.player, p.move])).toEqual([
      [1, 'a7-b8'],
      [0, 'a1-b2'],
    ]);
  });

  it('gives each player the rating its tag writes (WhiteRating, BlackRating), none where the tag says nothing', async () => {
    const analysis = await analyse('[White "Ann"]\n[Black "Bob"]\n[WhiteRating "2140"]\n[BlackRating "?"]\n1. c3-d4 *');
    expect(analysis.players.map((p) => [p.name, p.color, p.rating])).toEqual([
      ['Ann', 'white', '2140'],
      ['Bob', 'black', null],
    ]);
  });

  it('refuses a FEN square off the board or given twice, at its place in the tag', async () => {
    const error = await refusal(read('[Event "x"]\n[FEN "W:W21,33:B1"]\n1. c3-d4 *'));
    // [FEN "W:W21,33:B1"]: the value starts at column 7, "33" at column 13.
    expect(error.issues[0]).toMatchObject({ line: 2, column: 13, message: 'FEN "W:W21,33:B1": "33" is not a square of the 8x8 board (1-32 or a1-h8 dark)' });
    expect((await refusal(read('[FEN "W:W21:B21"]\n*'))).message).toBe('FEN "W:W21:B21": a3 is given twice');
  });
});

describe('move text', () => {
  it('reads numbered squares: 22-18 is c3-d4 (1 = b8, 32 = g1), and captures written with x', async () => {
    // 1. c3-d4 f6-e5 2. d4:f6 g7:e5 in numbers: 22 c3, 18 d4, 11 f6, 15 e5, 8 g7.
    const analysis = await analyse('1. 22-18 11-15 2. 18x11 8x15 *');
    expect(analysis.replay.map((p) => [p.move, p.captured])).toEqual([
      ['c3-d4', []],
      ['f6-e5', []],
      ['d4:f6', ['e5']],
      ['g7:e5', ['f6']],
    ]);
  });

  it('keeps comments ({…} and ;), NAGs and strength marks with the move they follow, and moves glued to their numbers', async () => {
    const analysis = await analyse('{a preface}\n1.c3-d4! $1 {the centre} f6-g5 ; black answers\n2.d4-c5 ?! d6xb4 1/2-1/2');
    expect(analysis.replay.map((p) => [p.move, p.details!.comments ?? null, p.details!.nags ?? null])).toEqual([
      ['c3-d4', ['the centre'], ['$1']],
      ['f6-g5', ['black answers'], null],
      ['d4-c5', null, ['?!']],
      ['d6:b4', null, null],
    ]);
    expect(analysis.replay[0].details!.written).toBe('c3-d4!');
    expect(analysis.players.map((p) => p.outcome)).toEqual(['drawn', 'drawn']);
  });

  it('reads black move numbers written apart from their dots: 1. c3-d4 {…} 1. ... f6-g5', async () => {
    const analysis = await analyse('1. c3-d4 {centre} 1. ... f6-g5 *');
    expect(analysis.replay.map((p) => [p.player, p.move])).toEqual([
      [0, 'c3-d4'],
      [1, 'f6-g5'],
    ]);
  });

  it('replays every variation from the position before the move it replaces; the main line alone is counted', async () => {
    // Black's alternative to 1... d6-e5 is 1... b6-a5 2. d4-b6: a man moving two squares.
    const analysis = await analyse('1. c3-d4 d6-e5 (1... b6-a5 2. d4-b6 a7:c5) 2. b2-c3 *');
    expect(analysis.moveCount).toBe(3);
    expect(analysis.replay.map((p) => p.move)).toEqual(['c3-d4', 'd6-e5', 'b2-c3']);
    expect(analysis.replay[1].details).toMatchObject({ variations: 1 });
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems).toEqual([
      { code: 'checkers.man_too_far', ply: 3, message: 'variation at ply 3 (white): d4-b6 is not a legal move: a man moves one square' },
      { code: 'note.not_replayed', ply: 3, message: 'variation at ply 3: the 1 move(s) after it in the variation were not replayed' },
    ]);
    expect(analysis.details).toMatchObject({ variations: 1, writtenPlies: 6 });
  });

  it('checks nested variations, and a legal tree is legal', async () => {
    // The main line is the opening of game 4 of ussr1947.pdn.
    const analysis = await analyse('1. c3-d4 (1. c3-b4 (1. g3-h4 f6-g5) b6-a5) f6-g5 2. d4-c5 d6:b4 *');
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.details).toMatchObject({ variations: 2, writtenPlies: 8 });
  });

  it('stops the main line at an illegal move and names the rule', async () => {
    // After 2... d6:b4 white must take b4, and only a3 can (c3 has been empty since move 1): a3:c5; 3. b2-c3 does not.
    const analysis = await analyse('[Result "1-0"]\n1. c3-d4 f6-g5 2. d4-c5 d6:b4 3. b2-c3 g5-h4 1-0');
    expect(analysis.verdict.problems).toEqual([
      { code: 'checkers.must_capture', ply: 5, message: 'ply 5 (white): capture was mandatory: a3:c5 available' },
      { code: 'note.not_replayed', ply: 5, message: 'the move after ply 5 was not replayed' },
    ]);
    expect(analysis.replay).toHaveLength(4);
    // The record's result stands where the rules cannot say.
    expect(analysis.players.map((p) => p.outcome)).toEqual(['won', 'lost']);
  });

  it('explains a capture by its ends that no legal capture makes', async () => {
    // After 1. c3-d4 f6-g5 2. d4-c5 b6:d4 white must take d4, and only e3 can (c3 is empty): e3:c5; "e3:a3" is no capture.
    const analysis = await analyse('1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:a3 *');
    expect(analysis.verdict.problems[0]).toEqual({
      code: 'checkers.no_such_capture',
      ply: 5,
      message: 'ply 5 (white): e3:a3: no legal capture goes from the first to the last square written (legal: e3:c5)',
    });
  });

  it('flags a Result tag that disagrees with the terminator', async () => {
    const analysis = await analyse('[Result "1-0"]\n1. c3-d4 0-1');
    expect(analysis.verdict).toEqual({
      legal: true,
      consistent: false,
      problems: [{ code: 'cache.result', ply: null, message: 'the Result tag says 1-0, the move text ends with 0-1' }],
    });
    expect(analysis.players.map((p) => p.outcome)).toEqual(['won', 'lost']);
  });

  it.each([
    ['2-0', ['won', 'lost'], 'white won'],
    ['0-2', ['lost', 'won'], 'black won'],
    ['1-1', ['drawn', 'drawn'], 'draw'],
    ['*', ['unfinished', 'unfinished'], null],
  ])('result %s', async (result, outcomes, words) => {
    const analysis = await analyse(`[Result "${result}"]\n1. c3-d4 ${result}`);
    expect(analysis.players.map((p) => p.outcome)).toEqual(outcomes);
    expect(analysis.result).toBe(words);
  });
});

describe('malformed text', () => {
  it.each([
    ['[Event "Moscow]\n1. c3-d4 *', 'malformed tag Event: the value is not closed with " on its line', 1, 8],
    ['[White "A"]\n[Black B]\n1. c3-d4 *', 'malformed tag Black: expected its value in double quotes', 2, 8],
    ['[White "A"]\n[ "B"]\n1. c3-d4 *', 'malformed tag: expected a tag name after "["', 2, 3],
    ['[White "A" x]\n1. c3-d4 *', 'malformed tag White: expected "]" after the value', 1, 12],
    ['[White "A"]\n[White "B"]\n*', 'the tag White appears twice', 2, 1],
    ['1. c3-d4 {never closed', 'the comment "{" is never closed with "}"', 1, 10],
    ['1. c3-d4 (1. c3-b4 *', 'the variation "(" is never closed with ")"', 1, 10],
    ['1. (c3-d4) *', 'a variation "(" must follow the move it replaces', 1, 4],
    ['1. c3-d4 ) *', '")" closes no variation', 1, 10],
  ])('%j → %s', async (text, message, line, column) => {
    const error = await refusal(read(text));
    expect(error.status).toBe(422);
    expect(error.issues[0]).toMatchObject({ message, line, column });
  });

  it('read() takes one game: a collection is refused with its count, at the second game', async () => {
    const error = await refusal(read('[White "A"]\n1. c3-d4 *\n\n[White "B"]\n1. c3-b4 *\n\n[White "C"]\n1. e3-f4 *\n'));
    expect(error.issues[0]).toMatchObject({ line: 4, column: 1 });
    expect(error.message).toMatch(/^the file holds 3 games/);
  });

  it('stores games of other variants without indexing them', async () => {
    const international = await read('[GameType "20"]\n1. 32-28 19-23 *');
    expect(international).toMatchObject({ publisher: null, family: null, body: '1. 32-28 19-23 *' });
    expect(international.analysis).toBeUndefined();
    expect(international.notIndexedReason).toMatch(/^GameType "20" is not Russian draughts/);
    // No GameType and a square above 32: PDN's default, International draughts on 10x10.
    expect((await read('1. 32-28 19-23 2. 37-32 *')).notIndexedReason).toMatch(/a move to square 37/);
    expect((await read('[GameType "25,W,8,8,A0,0"]\n1. c3-d4 *')).analysis!.moveCount).toBe(1);
  });
});

describe('dates', () => {
  it.each([
    ['1968.11.10', '1968-11-10', 1968],
    ['10.11.1968', '1968-11-10', 1968],
    ['1973.??.??', null, 1973],
    ['1950.', null, 1950],
    ['????.??.??', null, null],
    ['1970.02.31', null, 1970],
    ['yesterday', null, null],
  ])('%s → %s', async (date, day, year) => {
    const analysis = await analyse(`[Date "${date}"]\n1. c3-d4 *`);
    expect(analysis.facts.datePlayed).toBe(day);
    expect(analysis.details.year).toBe(year);
  });

  it('names are null where PDN writes "?" or nothing', async () => {
    const analysis = await analyse('[White "?"]\n[Black ""]\n[Event "?"]\n1. c3-d4 *');
    expect(analysis.players.map((p) => p.name)).toEqual([null, null]);
    expect(analysis.facts.event).toBeNull();
  });
});

describe('regeneration', () => {
  it('writes every replayed move in full with regenerated numbers, keeps comments and variations, and the Result the rules establish', async () => {
    const text = '[Event "Test"]\n[Result "1/2-1/2"]\n[FEN "W:WK31:B26,18,10."]\n\n{start} 7. e1:c7! {mate} (1. e1:e5:c7) 1/2-1/2\n';
    const file = await pdnDraughtsPlugin.regenerate({ ...textFile(text), filename: 'end.pdn' }, options);
    expect(file.filename).toBe('end.regenerated.pdn');
    expect(file.content).toBe('[Event "Test"]\n[Result "1-0"]\n[FEN "W:WK31:B26,18,10."]\n\n{start} 1. e1:c3:e5:c7! {mate} (1. e1:c3:e5:c7) 1-0\n');
    const again = await analyse(String(file.content));
    expect(again.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });

  it('keeps the square style of the file and writes N... where black resumes', async () => {
    const file = await pdnDraughtsPlugin.regenerate(textFile('1. 22-18 11-15 {ok} 2. 18x11 8x15 *'), options);
    expect(file.content).toBe('1. 22-18 11-15 {ok} 2. 18x11 8x15 *\n');
    const black = await pdnDraughtsPlugin.regenerate(textFile('1. 22-18 {centre} 11-15 *'), options);
    expect(black.content).toBe('1. 22-18 {centre} 1... 11-15 *\n');
  });

  it('leaves moves that were not replayed as written', async () => {
    const file = await pdnDraughtsPlugin.regenerate(textFile('[Result "1/2-1/2"]\n1. - - 2. c3-d4 1/2-1/2'), options);
    expect(file.content).toBe('[Result "1/2-1/2"]\n\n1. - - 2. c3-d4 1/2-1/2\n');
  });
});
