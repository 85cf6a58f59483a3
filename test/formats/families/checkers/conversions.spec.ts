import { readFileSync } from 'node:fs';
import { BARS_FORMAT, barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { readBarsRecord } from '../../../../src/formats/plugins/bars-checkers/model.js';
import type { CheckersInterchange } from '../../../../src/formats/families/checkers/interchange.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { PDN_FORMAT, pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import type { FormatDescriptor, FormatPlugin, GameAnalysis, InterchangeGame } from '../../../../src/formats/plugin.js';
import fc from 'fast-check';
import { FormatError } from '../../../../src/core/errors.js';
import { refusal } from '../../../support/limits.js';
import { applyMove } from '../../../../src/rules/checkers/apply-move.js';
import { legalMoves } from '../../../../src/rules/checkers/legal-moves.js';
import type { Move } from '../../../../src/rules/checkers/move.js';
import { Position } from '../../../../src/rules/checkers/position.js';
import { squareName } from '../../../../src/formats/families/checkers/notation.js';
import { numberOfSquare } from '../../../../src/formats/plugins/pdn-draughts/notation.js';
import { formatWords, mutatedFixture } from '../../../support/fuzz.js';

// Real files written by another program (the PDN standard repository, see PROVENANCE.txt there).
const FOLDER = 'test/fixtures/realdata/checkers/russian';
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const upload = (text: string | Buffer) => ({ bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8') });

const PLUGINS: readonly [FormatPlugin, FormatDescriptor][] = [
  [barsCheckersPlugin, BARS_FORMAT],
  [pdnDraughtsPlugin, PDN_FORMAT],
];
const pluginOf = (format: FormatDescriptor) => PLUGINS.find(([, f]) => f === format)![0];

async function toModel(format: FormatDescriptor, text: string | Buffer): Promise<CheckersInterchange> {
  return (await pluginOf(format).toInterchange!(upload(text), options)) as CheckersInterchange;
}

async function write(game: InterchangeGame, format: FormatDescriptor): Promise<string> {
  const file = await pluginOf(format).fromInterchange!(game, { ...options, format });
  expect([file.publisher, file.version]).toEqual([format.publisher, format.version]);
  return file.content as string;
}

/** One conversion as the archive will make it: read into the model with one plugin, write with the other. */
async function convert(text: string | Buffer, from: FormatDescriptor, to: FormatDescriptor): Promise<string> {
  return write(await toModel(from, text), to);
}

async function analyse(format: FormatDescriptor, text: string): Promise<GameAnalysis> {
  return (await pluginOf(format).read(upload(text), options)).analysis!;
}

/** The games of a PDN file, as the plugin splits it. */
function pdnGames(name: string): Buffer[] {
  const bytes = readFileSync(`${FOLDER}/${name}`);
  return pdnDraughtsPlugin.split!({ bytes }, options).map((slice) => bytes.subarray(slice.start, slice.end));
}

/** A BARS file's moves, board and comments, read by the BARS reader: what two files must share to be the same game. */
function barsContent(text: string) {
  const record = readBarsRecord(text, DEFAULT_LIMITS);
  return { start: record.start?.rows() ?? null, go: record.moves.map((move) => move.numbers.map((n) => n.token.value)), comments: record.comments.map((c) => c.trim()) };
}

const words = (text: string) => text.trim().split(/\s+/).join(' ');
const moves = (analysis: GameAnalysis) => analysis.replay.map((ply) => ply.move);

describe('USSR championship games (ussr1947.pdn): PDN → BARS → PDN', () => {
  const games = pdnGames('ussr1947.pdn');

  it('converts every one of the 153 games to BARS and back, replaying to the same moves, position and rules result', async () => {
    expect(games).toHaveLength(153);
    let plies = 0;
    for (const [i, game] of games.entries()) {
      const original = await analyse(PDN_FORMAT, game.toString('utf8'));
      const bars = await convert(game, PDN_FORMAT, BARS_FORMAT);
      const viaBars = await analyse(BARS_FORMAT, bars);
      const back = await convert(bars, BARS_FORMAT, PDN_FORMAT);
      const again = await analyse(PDN_FORMAT, back);
      const summary = (analysis: GameAnalysis) => ({
        game: i + 1,
        verdict: analysis.verdict,
        moves: moves(analysis),
        captured: analysis.replay.map((ply) => ply.captured),
        final: analysis.details.finalPosition,
        sideToMove: analysis.details.sideToMove,
      });
      expect(summary(viaBars)).toEqual(summary(original));
      expect(summary(again)).toEqual(summary(original));
      // No game ends by the rules (all by resignation or agreement): no result survives BARS.
      expect(viaBars.result).toBeNull();
      expect(again.result).toBeNull();
      expect(again.details.resultTag).toBe('*');
      plies += again.moveCount;
    }
    // The count of move tokens in the file's text (test/formats/plugins/pdn-draughts/real-files.spec.ts).
    expect(plies).toBe(8730);
  });

  it('spells the BARS numbers of the first game as the BARS datasheet does (digits a b c y x)', async () => {
    // 1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 4. f2-e3 c7-b6 5. c1-b2 b6-c5 6. d4:b6 a5:c7, by hand:
    // c3 is row 5, column 2: a white man there is 0 0 1 5 2 = 152; the capture d4:b6 takes the black
    // man on c5 (1 0 2 3 2 = 10232) and lands on b6 (121).
    const bars = await convert(games[0], PDN_FORMAT, BARS_FORMAT);
    expect(barsContent(bars).go.slice(0, 12)).toEqual([
      [152, 143], [223, 234], [161, 152], [214, 223], [154, 145], [221, 230],
      [165, 154], [212, 221], [172, 161], [221, 232], [143, 10232, 121], [230, 10121, 212],
    ]);
  });

  it('keeps what BARS has no field for as # lines: players, event, date and the recorded result', async () => {
    // [White "Блиндер Б."] [Black "Миротин Б."] [Event "X чемпионат СССР"] [Round ""] [Date "1950."] [Result "1-0"]
    const bars = await convert(games[0], PDN_FORMAT, BARS_FORMAT);
    expect(bars.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '# White: Блиндер Б.',
      '# Black: Миротин Б.',
      '# Event: X чемпионат СССР',
      '# Date: 1950',
      '# Result: white won',
    ]);
    // The standard starting position the FEN states needs no area_monitor.
    expect(bars).not.toMatch(/area_monitor/);
    // Read back, they are the game's comments, and PDN writes them before the first move.
    const back = await convert(bars, BARS_FORMAT, PDN_FORMAT);
    expect(words(back)).toMatch(/^\[Result "\*"\] \[GameType "25"\] \{White: Блиндер Б\.\} \{Black: Миротин Б\.\} \{Event: X чемпионат СССР\} \{Date: 1950\} \{Result: white won\} 1\. c3-d4 /);
  });
});

describe('PDN → PDN: a normalised copy', () => {
  it('keeps the moves, players, event, year and recorded result of every game of ussr1947.pdn', async () => {
    for (const [i, game] of pdnGames('ussr1947.pdn').entries()) {
      const original = await analyse(PDN_FORMAT, game.toString('utf8'));
      const copy = await analyse(PDN_FORMAT, await convert(game, PDN_FORMAT, PDN_FORMAT));
      const summary = (analysis: GameAnalysis) => ({
        game: i + 1,
        verdict: analysis.verdict,
        moves: moves(analysis),
        players: analysis.players,
        result: analysis.result,
        facts: analysis.facts,
        year: analysis.details.year,
        resultTag: analysis.details.resultTag,
      });
      expect(summary(copy)).toEqual(summary(original));
    }
  });

  it('writes the tags in PDN form: a day-month-year date as YYYY.MM.DD, GameType 25, other tags kept', async () => {
    const [first] = pdnGames('abatsiev.pdn');
    const copy = await convert(first, PDN_FORMAT, PDN_FORMAT);
    // The file: [Event "XXV первенство СССР"] [Site "Лиепая"] [Date "1.1.1965"] [White "Абаулин В."]
    // [Black "Абациев Н."] [Result "1-0"] [Opening "Новоленинградская защита"], moves with x.
    expect(copy.split('\n\n')[0].split('\n')).toEqual([
      '[Event "XXV первенство СССР"]',
      '[Site "Лиепая"]',
      '[Date "1965.01.01"]',
      '[White "Абаулин В."]',
      '[Black "Абациев Н."]',
      '[Result "1-0"]',
      '[GameType "25"]',
      '[Opening "Новоленинградская защита"]',
    ]);
    expect(words(copy.split('\n\n')[1]).startsWith('1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6 4. d4-c5 b6:d4 5. e3:c5 c7-b6')).toBe(true);
    expect(words(copy).endsWith('41. d6:h2 f8:a3 42. d8-f6 1-0')).toBe(true);
  });

  it('keeps variations, comments, strength marks and NAGs, with every landing written', async () => {
    const text = '[Event "club"]\n{a sample} 1. c3-d4 {the usual} (1. c3-b4 $2 b6-a5) 1... f6-g5! 2. g3-h4 *\n';
    const copy = await convert(text, PDN_FORMAT, PDN_FORMAT);
    expect(words(copy)).toBe(
      '[Event "club"] [Result "*"] [GameType "25"] {a sample} 1. c3-d4 {the usual} (1. c3-b4 $2 1... b6-a5) 1... f6-g5! 2. g3-h4 *',
    );
  });
});

describe('the games of abatsiev.pdn (upstream "fail" folder)', () => {
  const games = pdnGames('abatsiev.pdn');

  it('converts the 55 games that replay, both ways, and refuses game 36, whose moves are "-" placeholders', async () => {
    expect(games).toHaveLength(56);
    const converted: number[] = [];
    for (const [i, game] of games.entries()) {
      if (i + 1 === 36) continue;
      const original = await analyse(PDN_FORMAT, game.toString('utf8'));
      const back = await analyse(PDN_FORMAT, await convert(await convert(game, PDN_FORMAT, BARS_FORMAT), BARS_FORMAT, PDN_FORMAT));
      expect({ game: i + 1, moves: moves(back), legal: back.verdict.legal }).toEqual({ game: i + 1, moves: moves(original), legal: true });
      converted.push(i + 1);
    }
    expect(converted).toHaveLength(55);
    for (const format of [BARS_FORMAT, PDN_FORMAT]) {
      const error = await refusal(convert(games[35], PDN_FORMAT, format));
      expect([error.status, error.code]).toEqual([422, 'export.does_not_fit']);
      expect(error.message).toMatch(/^the game does not replay, so it cannot be converted: ply 1 \(white\): "-" is not a move .*\(move\.unreadable\)/);
    }
  });
});

describe('BARS → PDN → BARS', () => {
  const demonstration = readFileSync('test/e2e/fixtures/demonstration.bars', 'utf8');

  it('writes the demonstration game of the datasheet as PDN moves (derived by hand from its numbers)', async () => {
    // [156, 145] = white man g3 → f4; [223, 234] = black man d6 → e5; [145, 10234, 123] = f4 takes e5,
    // lands on d6; … [141, 10232, 123, 10214, 1105] = b4 takes c5 and e7, crowned on f8 (1105).
    const pdn = await convert(demonstration, BARS_FORMAT, PDN_FORMAT);
    expect(words(pdn)).toBe(
      '[Result "*"] [GameType "25"] {The demonstration game of the BARS datasheet (test/fixtures/seeds/003_b00896b3e4bd24ba.txt)} ' +
        '1. g3-f4 d6-e5 2. f4:d6 e7:c5 3. c3-b4 f8-e7 4. b4:d6:f8 d8-e7 5. f8:d6 c7:e5 *',
    );
  });

  const fixtures: [string, string][] = [
    ['the demonstration game (test/e2e/fixtures/demonstration.bars)', demonstration],
    // 256 says a black man stands on g3: the colour is a cache, regenerated as 156.
    ['a JSON file with a wrong piece code', '{"go": [[256, 145], [223, 234]], "area_monitor": null}'],
    // Black man d6 (row 2, column 3) against white man c3: black moves first, takes on b4, and white has nothing left.
    [
      'a board with black to move, ending by the rules',
      `# black to move\n${board([[5, 2, 1], [2, 3, 2]])}\ngo = [[223, 232], [152, 141], [232, 10141, 250]]\n`,
    ],
  ];

  it.each(fixtures)('%s: regenerates what BARS regenerate() does', async (_, text) => {
    const regenerated = (await barsCheckersPlugin.regenerate(upload(text), options)).content as string;
    const pdn = await convert(text, BARS_FORMAT, PDN_FORMAT);
    const back = await convert(pdn, PDN_FORMAT, BARS_FORMAT);
    expect(barsContent(back)).toEqual(barsContent(regenerated));
    expect(barsContent(await convert(text, BARS_FORMAT, BARS_FORMAT))).toEqual(barsContent(regenerated));
  });

  it('gives PDN the board as a FEN with black to move, and the result the rules decide', async () => {
    const text = `${board([[5, 2, 1], [2, 3, 2]])}\ngo = [[223, 232], [152, 141], [232, 10141, 250]]\n`;
    const pdn = await convert(text, BARS_FORMAT, PDN_FORMAT);
    // c3 is square 22, d6 square 10 (numbered from b8 = 1, row by row); black's first move is 1...
    expect(words(pdn)).toBe('[Result "0-1"] [GameType "25"] [FEN "B:W22:B10"] 1... d6-c5 2. c3-b4 c5:a3 0-1');
    const analysis = await analyse(PDN_FORMAT, pdn);
    expect(analysis.result).toBe('black wins: white has no pieces');
    expect(analysis.verdict.consistent).toBe(true);
  });
});

describe('what does not fit', () => {
  it('a variation does not fit BARS, which holds one line of moves', async () => {
    const error = await refusal(convert('1. c3-d4 d6-e5 2. g3-f4 (2. b2-c3 f6-g5) e5:g3 *', PDN_FORMAT, BARS_FORMAT));
    expect([error.status, error.code]).toEqual([422, 'export.does_not_fit']);
    expect(error.message).toBe('BARS holds a single line of moves, and the game has 1 variation(s), the first at ply 3; export it to PDN, which keeps variations');
  });

  it('a FEN with black to move and no move does not fit BARS, which has no side to move', async () => {
    const error = await refusal(convert('[FEN "B:W22:B10"]\n*', PDN_FORMAT, BARS_FORMAT));
    expect([error.status, error.code]).toEqual([422, 'export.does_not_fit']);
    expect(error.message).toMatch(/black to move and has no move: BARS has no side to move/);
    // With a move, the board and the mover's colour say it: the same FEN converts.
    const bars = await convert('[FEN "B:W22:B10"]\n1... d6-c5 *', PDN_FORMAT, BARS_FORMAT);
    expect(barsContent(bars)).toMatchObject({ go: [[223, 232]] });
    expect(bars).toMatch(/^area_monitor = /m);
  });

  it('a comment holding "}" does not fit PDN', async () => {
    const error = await refusal(convert('# see {1}\ngo = []\n', BARS_FORMAT, PDN_FORMAT));
    expect([error.status, error.code]).toEqual([422, 'export.does_not_fit']);
    expect(error.message).toBe('the comment "see {1}" holds "}", which ends a PDN comment');
  });

  it('an annotation PDN has no token for, or metadata that cannot be a tag, does not fit PDN', async () => {
    const game = await toModel(PDN_FORMAT, '1. c3-d4! *');
    expect(game.main.moves[0].annotations).toEqual(['!']);
    const annotated = { ...game, main: { ...game.main, moves: [{ ...game.main.moves[0], annotations: ['good move'] }] } };
    expect((await refusal(write(annotated, PDN_FORMAT))).message).toBe('the annotation "good move" is neither a PDN strength mark (!, ?!…) nor a NAG ($n)');
    const badTag = { ...game, other: [{ name: 'Time control', value: '40/2h' }] };
    expect((await refusal(write(badTag, PDN_FORMAT))).code).toBe('export.does_not_fit');
  });

  it('another family, or a format the plugin does not write, is export.unsupported', async () => {
    const game = await toModel(BARS_FORMAT, demonstrationGo());
    for (const [plugin, format] of PLUGINS) {
      const other = PLUGINS.find(([, f]) => f !== format)![1];
      expect((await refusal(plugin.fromInterchange!(game, { ...options, format: other }))).code).toBe('export.unsupported');
      expect((await refusal(plugin.fromInterchange!({ family: 'go' }, { ...options, format }))).code).toBe('export.unsupported');
    }
  });

  it('a move of the model that is not legal is refused by either writer', async () => {
    const game = await toModel(BARS_FORMAT, demonstrationGo());
    // The second move played twice: black's d6-e5 again, from an empty d6.
    const illegal = { ...game, main: { ...game.main, moves: [game.main.moves[0], game.main.moves[1], game.main.moves[1]] } };
    for (const format of [BARS_FORMAT, PDN_FORMAT]) {
      expect((await refusal(write(illegal, format))).message).toBe('the main line, ply 3 (white) is not a legal move: there is no piece on d6');
    }
  });
});

describe('the model', () => {
  it('holds squares as engine indices (row * 8 + column, row 0 = rank 8) and the landings of a capture written by its ends', async () => {
    // The white king on e1 (square 31) takes d2, d4 and d6 (26, 18, 10); only one route ends on c7.
    const game = await toModel(PDN_FORMAT, '[FEN "W:WK31:B26,18,10."]\n[White "A"]\n[WhiteRating "2100"]\n1. e1:c7 *\n');
    // e1 = row 7, column 4 = 60; c3 = 42, e5 = 28, c7 = 10; d2 = 51, d4 = 35, d6 = 19.
    expect(game.main.moves).toEqual([{ from: 60, landings: [42, 28, 10], captured: [51, 35, 19], annotations: [], comments: [], variations: [] }]);
    expect(game.players[0]).toEqual({ colour: 'white', name: 'A', externalId: null, rating: 2100 });
    expect(game.setup!.toMove).toBe('white');
    expect(game.setup!.cells.filter((cell) => cell !== 0)).toEqual([2, 2, 2, 11]);
  });

  it('takes a standard starting board (a FEN or area_monitor of the initial position) as no setup', async () => {
    const fen = await toModel(PDN_FORMAT, '[FEN "W:W21-32:B1-12"]\n1. c3-d4 *');
    expect(fen.setup).toBeNull();
    const standardRows = [
      [9, 2, 9, 2, 9, 2, 9, 2], [2, 9, 2, 9, 2, 9, 2, 9], [9, 2, 9, 2, 9, 2, 9, 2], [0, 9, 0, 9, 0, 9, 0, 9],
      [9, 0, 9, 0, 9, 0, 9, 0], [1, 9, 1, 9, 1, 9, 1, 9], [9, 1, 9, 1, 9, 1, 9, 1], [1, 9, 1, 9, 1, 9, 1, 9],
    ];
    const bars = await toModel(BARS_FORMAT, `area_monitor = ${JSON.stringify(standardRows)}\ngo = [[152, 143]]`);
    expect(bars.setup).toBeNull();
    expect(bars.main.moves).toEqual(fen.main.moves);
  });
});

describe('fuzzing the conversions', () => {
  /**
   * Whatever a plugin reads into the model converts to each format or is refused with a FormatError,
   * and what is written reads back, legal, with the same main line.
   */
  const roundTrip = async (format: FormatDescriptor, bytes: Buffer): Promise<void> => {
    let game: CheckersInterchange;
    try {
      game = await toModel(format, bytes);
    } catch (error) {
      if (error instanceof FormatError) return;
      throw error;
    }
    for (const [, target] of PLUGINS) {
      let text: string;
      try {
        text = await write(game, target);
      } catch (error) {
        if (error instanceof FormatError && error.code === 'export.does_not_fit') continue;
        throw error;
      }
      const back = await toModel(target, text);
      expect(back.main.moves.map(({ from, landings, captured }) => ({ from, landings, captured }))).toEqual(
        game.main.moves.map(({ from, landings, captured }) => ({ from, landings, captured })),
      );
      expect(back.setup).toEqual(game.setup);
      expect((await analyse(target, text)).verdict.legal).toBe(true);
    }
  };

  /** A random legal game as PDN: moves chosen among the legal ones, some variations and comments, squares named or numbered. */
  const randomGame = fc
    .record({
      choices: fc.array(fc.nat(), { maxLength: 90 }),
      alternatives: fc.array(fc.option(fc.nat(), { freq: 5 }), { maxLength: 90 }),
      numeric: fc.boolean(),
      abbreviate: fc.boolean(),
    })
    .map(({ choices, alternatives, numeric, abbreviate }) => {
      const square = (sq: number) => (numeric ? String(numberOfSquare(sq)) : squareName(sq));
      const token = (move: Move, short: boolean) => {
        const stops = [move.from, ...move.landings];
        const written = short && move.captured.length > 0 ? [stops[0], stops[stops.length - 1]] : stops;
        return written.map(square).join(move.captured.length === 0 ? '-' : numeric ? 'x' : ':');
      };
      let position = Position.initial();
      const words: string[] = [];
      for (const [i, choice] of choices.entries()) {
        const legal = legalMoves(position);
        if (legal.length === 0) break;
        const move = legal[choice % legal.length];
        words.push(`${i % 2 === 0 ? `${i / 2 + 1}.` : `${(i + 1) / 2}...`} ${token(move, abbreviate)}`);
        const alternative = alternatives[i];
        if (alternative !== null && alternative !== undefined && legal.length > 1) {
          words.push(`{at ${i + 1}} (${token(legal[(choice + 1 + (alternative % (legal.length - 1))) % legal.length], false)})`);
        }
        position = applyMove(position, move);
      }
      return { text: `[Event "random"]\n${words.join(' ')} *\n`, abbreviate };
    });

  it('random legal games written as PDN convert to both formats and back', async () => {
    await fc.assert(
      fc.asyncProperty(randomGame, async ({ text, abbreviate }) => {
        if (!abbreviate) await toModel(PDN_FORMAT, text); // a full path is never ambiguous: it must convert
        await roundTrip(PDN_FORMAT, Buffer.from(text));
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ['PDN', PDN_FORMAT, 'pdn-draughts'],
    ['BARS', BARS_FORMAT, 'bars-checkers'],
  ] as const)('%s files, mutated and made of the format’s words', async (_, format, id) => {
    await fc.assert(fc.asyncProperty(fc.oneof(mutatedFixture(id), formatWords(id)), (bytes) => roundTrip(format, bytes)), { numRuns: 150 });
  });
});

function demonstrationGo(): string {
  return 'go = [[156, 145], [223, 234]]';
}

/** An area_monitor with the given pieces (`[row, column, code]`), 9 on light squares. */
function board(pieces: [number, number, number][]): string {
  const rows = Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c): number => ((r + c) % 2 === 1 ? 0 : 9)));
  for (const [r, c, code] of pieces) rows[r][c] = code;
  return `area_monitor = [${rows.map((row) => `[${row.join(', ')}]`).join(',\n  ')}]`;
}
