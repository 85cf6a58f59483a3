import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { FormatError } from '../../../../src/core/errors.js';
import { FormatReader } from '../../../../src/formats/format-reader.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import type { GameAnalysis } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const upload = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });
const DEMO =
  'go = [[156, 145], [223, 234], [145, 10234, 123], [214, 10123, 232], [152, 141], [205, 214], [141, 10232, 123, 10214, 1105], [203, 214], [1105, 10214, 1123], [212, 11123, 234]]';

async function analyse(text: string): Promise<GameAnalysis> {
  return (await barsCheckersPlugin.read(upload(text), options)).analysis!;
}

async function formatError(text: string): Promise<FormatError> {
  try {
    await barsCheckersPlugin.read(upload(text), options);
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error(`expected a FormatError for ${text}`);
}

/** An area_monitor with the given pieces (`[row, column, code]`), 9 on light squares. */
function board(pieces: [number, number, number][]): string {
  const rows = Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c): number => ((r + c) % 2 === 1 ? 0 : 9)));
  for (const [r, c, code] of pieces) rows[r][c] = code;
  return `area_monitor = [${rows.map((row) => `[${row.join(', ')}]`).join(',\n  ')}]`;
}

describe('detection', () => {
  it('claims both forms, in either order, after comments', () => {
    expect(barsCheckersPlugin.detect(upload(DEMO))).toBe(true);
    expect(barsCheckersPlugin.detect(upload(`# a game\n\n${board([])}\ngo = []`))).toBe(true);
    expect(barsCheckersPlugin.detect(upload('{"go": [[156, 145]]}'))).toBe(true);
    expect(barsCheckersPlugin.detect(upload('go =  # the moves\r\n  [[156, 145]]'))).toBe(true);
    expect(barsCheckersPlugin.detect(upload('\uFEFF{ "area_monitor" : null, "go": [] }'))).toBe(true);
  });

  it('leaves other files alone', () => {
    for (const text of [
      '(;GM[1]FF[4]SZ[19];B[pd])',
      '<?xml version="1.0"?><Game/>',
      '[White "A"]\n1. c3-d4 d6-e5 *',
      '{"moves": [[156, 145]]}',
      '[[156, 145]]',
      'a game: go = [[156, 145]]',
      'go == 3',
      '',
    ]) {
      expect({ text, claimed: barsCheckersPlugin.detect(upload(text)) }).toEqual({ text, claimed: false });
    }
    expect(barsCheckersPlugin.detect({ bytes: Buffer.from([0xff, 0xfe, 0x00, 0x67]) })).toBe(false);
  });

  it('is the plugin the archive registry routes BARS files to', async () => {
    expect(FORMAT_PLUGINS).toContain(barsCheckersPlugin);
    const record = await new FormatReader([barsCheckersPlugin]).read(upload(DEMO), options);
    expect(record.publisher).toBe('BARS');
  });
});

describe('the two file forms', () => {
  it('reads the JSON object like the assignments, with header and body as written', async () => {
    const text = `{\n  "area_monitor": ${board([[5, 2, 1], [4, 3, 2]]).slice('area_monitor = '.length)},\n  "go": [[152, 10243, 134]]\n}`;
    const record = await barsCheckersPlugin.read(upload(text), options);
    expect(record.header).toMatch(/^\[\[9, 0, 9, 0/);
    expect(record.header).toMatch(/\]\]$/);
    expect(record.body).toBe('[[152, 10243, 134]]');
    expect(record.analysis!.result).toBe('white wins: black has no pieces');
  });

  it('keeps comments and line breaks anywhere, and takes go before area_monitor', async () => {
    const text = `go = [  # the moves\n  [152,   # c3\n   10243, 134],\n]\n${board([[5, 2, 1], [4, 3, 2]])}  # c3 against d4\n`;
    const analysis = await analyse(text);
    expect(analysis.replay.map((ply) => ply.move)).toEqual(['c3:e5']);
    expect(analysis.details.start).toBe('area_monitor');
  });

  it('accepts go written as one single move, as the original allows', async () => {
    const analysis = await analyse('go = [156, 145]');
    expect(analysis.moveCount).toBe(1);
    expect(analysis.replay[0]).toMatchObject({ ply: 1, player: 0, move: 'g3-f4', captured: [], score: [0, 0] });
  });

  it('has an empty game when go is empty', async () => {
    const analysis = await analyse('go = []');
    expect(analysis.moveCount).toBe(0);
    expect(analysis.verdict.legal).toBe(true);
  });
});

describe('syntax errors', () => {
  it.each([
    ['go = [[156, 145]', 'the file ends inside an array', 1, 17],
    ['go = [[156 145]]', 'expected "," or "]"', 1, 12],
    ['moves = [[156, 145]]', 'expected "go = [...]" or "area_monitor = [...]", found "moves"', 1, 1],
    ['go = [[0156, 145]]', '"0156": numbers are written without leading zeros', 1, 8],
    ['go = [[156, -145]]', '"-145" is not a non-negative whole number', 1, 13],
    ['go = [[156, 14.5]]', '"14.5" is not a non-negative whole number', 1, 13],
    ['go = []\ngo = []', 'go is assigned twice', 2, 1],
    [board([]), 'the file has no "go" (the list of moves)', 8, 28],
    ['go [[156, 145]]', 'expected "=" after go', 1, 4],
    ['{"go": [], "comment": "x"}', 'unknown key "comment": a BARS object has only "go" and "area_monitor"', 1, 12],
    ['{"go": []} go = []', 'unexpected text after the JSON object', 1, 12],
    ['{"go": [] # moves\n}', 'expected "," or "}" in the JSON object', 1, 11],
    ['go = [[[156]]]', 'arrays nest at most 2 deep in a BARS file', 1, 8],
  ])('%j → %s', async (text, message, line, column) => {
    const error = await formatError(text);
    expect(error.status).toBe(422);
    expect(error.issues[0]).toMatchObject({ message, line, column });
    expect(error.issues[0].offset).toBe(text.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0) + column - 1);
  });
});

describe('hostile input', () => {
  it('refuses 100,000 nested brackets with a located error, not a stack overflow', async () => {
    // One bracket a line, so that no line is longer than MAX_LINE_LENGTH: "go = [" then "\n[" twice.
    const error = await formatError(`go = ${'[\n'.repeat(100000)}`);
    expect(error.issues[0]).toMatchObject({ message: 'arrays nest at most 2 deep in a BARS file', offset: 9, line: 3, column: 1 });
  });

  it('refuses the same brackets on one line by its length, before parsing', async () => {
    const error = await formatError(`go = ${'['.repeat(100000)}`);
    expect(error.code).toBe('limit.line_length');
    expect(error.issues[0]).toMatchObject({ line: 1, column: DEFAULT_LIMITS.maxLineLength + 1 });
  });
});

describe('numbers that are not BARS numbers', () => {
  it.each([
    [20156, 'is too large'],
    [2156, 'the king digit b is 2'],
    [356, 'the colour digit c is 3'],
    [56, 'the colour digit c is 0'],
    [155, 'row 5, column 5 is a light square'],
    [186, 'row 8, column 6 is off the 8x8 board'],
    [178, 'row 7, column 8 is off the 8x8 board'],
  ])('%d is refused at its place, with the ply', async (number, reason) => {
    const text = `go = [[156, 145],\n  [223, ${number}]]`;
    const error = await formatError(text);
    expect(error.issues[0].message).toContain(`go: move 2: ${number}`);
    expect(error.issues[0].message).toContain(reason);
    expect(error.issues[0]).toMatchObject({ ply: 2, line: 2, column: 9, offset: text.indexOf(String(number), 10) });
  });

  it('reads the digits from the right: 1105 is a white king on f8, not "11" "05" from a five-digit string', async () => {
    const analysis = await analyse(`${board([[1, 4, 1]])}\ngo = [[114, 1105]]`);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.replay[0].move).toBe('e7-f8');
  });

  it('refuses moves of the wrong length', async () => {
    expect((await formatError('go = [[156]]')).issues[0].message).toContain('move 1 has 1 numbers');
    expect((await formatError('go = [[156, 145, 134, 123]]')).issues[0].message).toContain('move 1 has 4 numbers');
  });
});

describe('starting boards', () => {
  it('refuses a board of the wrong shape, a piece on a light square and unknown codes', async () => {
    expect((await formatError('area_monitor = [[9, 0]]\ngo = []')).issues[0].message).toBe('area_monitor has 1 rows, expected 8');
    expect((await formatError(`${board([[0, 0, 1]])}\ngo = []`)).issues[0].message).toBe('area_monitor[0][0] is a light square and must be 9, found 1');
    expect((await formatError(`${board([[3, 0, 3]])}\ngo = []`)).issues[0].message).toBe('area_monitor[3][0] (a5) is 3: expected 0, 1, 2, 11 or 12');
    expect((await formatError(`${board([[0, 1, 1]])}\ngo = []`)).issues[0].message).toBe('area_monitor[0][1]: a white man on b8 would be a king (11)');
  });

  it('lets the colour of the first moving piece decide who starts', async () => {
    const analysis = await analyse(`${board([[2, 3, 2], [7, 0, 1]])}\ngo = [[223, 234], [170, 161]]`);
    expect(analysis.details.firstToMove).toBe('black');
    expect(analysis.replay.map((ply) => [ply.player, ply.move])).toEqual([
      [1, 'd6-e5'],
      [0, 'a1-b2'],
    ]);
  });

  it('takes the colour from the board when the first number says otherwise, and reports the code', async () => {
    const analysis = await analyse(`${board([[2, 3, 2], [7, 0, 1]])}\ngo = [[123, 234]]`);
    expect(analysis.details.firstToMove).toBe('black');
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.problems).toEqual([{ code: 'cache.pieces', ply: 1, message: 'ply 1: 123 says white man on d6, but it is a black man on d6 (223)' }]);
  });
});

describe('verdicts', () => {
  it('names the ply and the reason of an illegal move, and stops replaying there', async () => {
    const analysis = await analyse('go = [[152, 143], [225, 234], [150, 141], [223, 232]]');
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.consistent).toBe(true);
    expect(analysis.verdict.problems).toEqual([
      { code: 'checkers.must_capture', ply: 3, message: 'ply 3 (white): capture was mandatory: d4:f6 available' },
      { code: 'note.not_replayed', ply: 3, message: 'the move after ply 3 was not replayed' },
    ]);
    expect(analysis.replay).toHaveLength(2);
    expect(analysis.moveCount).toBe(4);
    expect(analysis.result).toBeNull();
  });

  it('refuses a side moving twice', async () => {
    const analysis = await analyse('go = [[156, 145], [145, 134], [223, 234], [167, 156]]');
    expect(analysis.verdict.problems).toEqual([
      { code: 'checkers.opponent_piece', ply: 2, message: 'ply 2 (black): f4 holds a white man, but black is to move' },
      { code: 'note.not_replayed', ply: 2, message: 'the 2 moves after ply 2 were not replayed' },
    ]);
  });

  it('refuses a move after the game has ended', async () => {
    const analysis = await analyse(`${board([[5, 2, 1], [4, 3, 2]])}\ngo = [[152, 10243, 134], [134, 123]]`);
    expect(analysis.verdict.problems).toEqual([
      { code: 'checkers.game_over', ply: 2, message: 'ply 2 (black): the game is already over (white wins: black has no pieces)' },
    ]);
  });

  it('reports codes that disagree with the board as inconsistent, not illegal', async () => {
    const wrong = DEMO.replace('[145, 10234, 123]', '[145, 234, 123]').replace('10214, 1105]', '10214, 105]');
    const analysis = await analyse(wrong);
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems).toEqual([
      { code: 'cache.pieces', ply: 3, message: 'ply 3: 234 says black man on e5, but it is a captured black man on e5 (10234)' },
      { code: 'cache.pieces', ply: 7, message: 'ply 7: 105 says white man on f8, but it is a white king on f8 (1105)' },
    ]);
  });

  it('gives each broken rule its code at its ply', async () => {
    // Numbers are a b c y x: capture flag, king, colour (1 white, 2 black), row (0 = rank 8), column (0 = file a).
    const cases: [string, string][] = [
      // White man d4 (row 4, column 3) steps back to c3 (row 5, column 2); black a7 only stands by.
      [`${board([[4, 3, 1], [1, 0, 2]])}\ngo = [[143, 152]]`, 'checkers.man_backwards'],
      // White c3 takes d4 landing on e5, but black f6 (g7 empty behind it) is still to take: the capture must go on.
      [`${board([[5, 2, 1], [4, 3, 2], [2, 5, 2]])}\ngo = [[152, 10243, 134]]`, 'checkers.must_continue'],
      // The white king a1 flies over c3 to e5; the record says it captured d4, which is empty.
      [`${board([[7, 0, 11], [5, 2, 2]])}\ngo = [[1170, 10243, 1134]]`, 'checkers.wrong_captured'],
    ];
    for (const [text, code] of cases) {
      const analysis = await analyse(text);
      expect({ code, legal: analysis.verdict.legal, problems: analysis.verdict.problems.map((p) => [p.code, p.ply]) }).toEqual({
        code,
        legal: false,
        problems: [[code, 1]],
      });
    }
  });

  it('gives the result when a side has no move left', async () => {
    // Black's only man on a5 cannot step to b4 nor jump it (c3 is behind); white plays h2-g3 and black is stuck.
    const analysis = await analyse(`${board([[3, 0, 2], [4, 1, 1], [5, 2, 1], [6, 7, 1]])}\ngo = [[167, 156]]`);
    expect(analysis.result).toBe('white wins: black has no move');
  });
});

describe('regeneration', () => {
  it('re-derives every number and keeps the text around them', async () => {
    const wrong = `# demo\n${DEMO.replace('[145, 10234, 123]', '[145, 234, 123]').replace('10214, 1105]', '10214, 105]')}  # end\n`;
    const file = await barsCheckersPlugin.regenerate({ ...upload(wrong), filename: 'demo.txt' }, options);
    expect(file.content).toBe(`# demo\n${DEMO}  # end\n`);
    expect(file.filename).toBe('demo.regenerated.bars');
    expect((await analyse(String(file.content))).verdict.consistent).toBe(true);
  });

  it('writes the JSON form back as JSON', async () => {
    const text = '{"go": [[156, 145], [223, 234], [145, 234, 123]]}';
    const file = await barsCheckersPlugin.regenerate(upload(text), options);
    expect(file.mediaType).toBe('application/json');
    expect(JSON.parse(String(file.content))).toEqual({ go: [[156, 145], [223, 234], [145, 10234, 123]] });
  });

  it('leaves the moves after an illegal one as written', async () => {
    const text = 'go = [[152, 143], [225, 234], [150, 141], [1223, 232]]';
    const file = await barsCheckersPlugin.regenerate(upload(text), options);
    expect(file.content).toBe(text);
  });
});
