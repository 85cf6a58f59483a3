import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { FormatReader } from '../../../../src/formats/format-reader.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';
import { limitOptions, refusal } from '../../../support/limits.js';
import { FOX_GAMES, describeWithRealdata, inShared } from '../../../support/realdata.js';

const GNUGO = 'test/fixtures/realdata/go/gnugo_regression_games/';
// Written for the tests in the Fox client's shape (the Fox games themselves are read from TABULA_REALDATA).
const FOX_LIKE = 'test/fixtures/written/fox-like/';
const options = limitOptions();
const read = (text: string | Buffer, limits = options) => sgfGoPlugin.read({ bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text }, limits);
const analysis = async (text: string | Buffer) => (await read(text)).analysis!;

describe('SGF Go: real files checked by hand', () => {
  it("GNU Go vs Aya, Computer Olympiad 2006 (RE[W+]): white won as recorded, no count of the board decides", async () => {
    // Read from the file: PB[GNU Go] PW[Aya] KM[6.5] RE[W+] DT[2006-05-29] RO[4] RU[Chinese]; 242 moves,
    // the last four of them passes (B[] W[gl] B[] W[fl] B[] W[]); one tree, no variations.
    const a = await analysis(readFileSync(GNUGO + 'olympiad2006/19x19/gnu-aya.sgf'));
    expect(a.players.map((p) => [p.name, p.color, p.outcome])).toEqual([
      ['GNU Go', 'black', 'lost'],
      ['Aya', 'white', 'won'],
    ]);
    expect(a.result).toBe('white wins');
    expect(JSON.stringify(a)).not.toMatch(/black wins/);
    expect(a.moveCount).toBe(242);
    expect(a.details).toMatchObject({ komi: 6.5, komiText: '6.5', passes: 4, round: '4', place: 'Turin, Italy', variations: 0, resultText: 'W+' });
    // RE[W+]: a win with neither a margin nor a reason.
    expect(a.facts).toEqual({ boardWidth: 19, boardHeight: 19, datePlayed: '2006-05-29', event: '11th Computer Olympiad', rules: 'Chinese', ending: 'unknown', margin: null });
    expect(a.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });

  it('the Latin-1 file egc2001/tg-gg.sgf ("créé par TurboGo", no CA) is read through the archive\'s reader', async () => {
    // PB[Gnu Go] PW[TurboGo v5.01] KM[6.5] RE[B+206.5] DT[August 1, 2001]; 326 moves, 27 of them passes.
    const bytes = readFileSync(GNUGO + 'egc2001/tg-gg.sgf');
    expect(bytes.includes(Buffer.from('cr\xe9\xe9 par', 'latin1'))).toBe(true);
    const record = await new FormatReader(FORMAT_PLUGINS).read({ bytes, filename: 'tg-gg.sgf' }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
    expect(record).toMatchObject({ publisher: 'SGF', version: 'FF4-Go', family: 'go' });
    const a = record.analysis!;
    expect(a.players.map((p) => [p.name, p.outcome])).toEqual([
      ['Gnu Go', 'won'],
      ['TurboGo v5.01', 'lost'],
    ]);
    expect(a.result).toBe('black wins by 206.5');
    expect(a.moveCount).toBe(326);
    expect(a.details.passes).toBe(27);
    expect(a.details.charset).toEqual({ encoding: 'windows-1252', declared: null });
    // "August 1, 2001" is not a form read as a date.
    expect(a.facts.datePlayed).toBeNull();
    // The header (root node) holds Latin-1 bytes: it is not a UTF-8 slice of the file, so it is kept as text.
    expect(record.header).toContain('créé par TurboGo');
    expect(record.spans.header).toBeNull();
    // The body is ASCII, the same bytes in either charset: kept as a byte range of the file.
    expect(bytes.subarray(record.spans.body!.start, record.spans.body!.end).toString('latin1')).toBe(record.body);
  });
});

// The same shown on games written for the tests: test/formats/plugins/sgf-go/fox-like.spec.ts.
describeWithRealdata('SGF Go: a Fox game of the shared real data, checked by hand', inShared(FOX_GAMES, 'fox-002.sgf'), (path) => {
  it('a Fox game: UTF-8 names, ranks in 段, KM[650] read as 6.5, B+R as a resignation', async () => {
    // fox-002.sgf: PB[DeepZenGo]BR[9段] PW[赵治勋]WR[P9段] KM[650] RE[B+R] DT[2016-11-20]; 179 moves.
    const a = await analysis(readFileSync(path));
    expect(a.players.map((p) => [p.name, p.outcome])).toEqual([
      ['DeepZenGo', 'won'],
      ['赵治勋', 'lost'],
    ]);
    expect(a.details).toMatchObject({ komi: 6.5, komiText: '650', komiForm: 'hundredths', ratings: { black: '9段', white: 'P9段' }, gameName: '第2届电王战第2局', end: 'resignation' });
    expect(a.result).toBe('black wins by resignation');
    expect(a.moveCount).toBe(179);
    expect(a.facts.datePlayed).toBe('2016-11-20');
  });

  it('header and body of a UTF-8 file are byte ranges of it: the root node, and the rest of the tree', async () => {
    const bytes = readFileSync(path);
    const record = await new FormatReader(FORMAT_PLUGINS).read({ bytes }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
    expect(record.header!.startsWith(';CA[UTF-8]AP[YuanYu]GM[1]')).toBe(true);
    expect(record.header!.endsWith('TT[60]')).toBe(true);
    expect(record.body!.startsWith('\n;B[pd];W[dd]')).toBe(true);
    expect(record.body!.endsWith(';B[kf]')).toBe(true);
    expect(bytes.subarray(record.spans.header!.start, record.spans.header!.end).toString('utf8')).toBe(record.header);
    expect(bytes.subarray(record.spans.body!.start, record.spans.body!.end).toString('utf8')).toBe(record.body);
  });

  it('regenerates it to a game with the same replay and index values, KM[650] written KM[6.5]', async () => {
    const bytes = readFileSync(path);
    const regenerated = await sgfGoPlugin.regenerate({ bytes }, options);
    expect(regenerated.content.toString()).toContain('KM[6.5]');
    const [before, after] = [await analysis(bytes), await analysis(regenerated.content as Buffer)];
    expect(after.replay).toEqual(before.replay);
    expect(after.players).toEqual(before.players);
    expect(after.details.komi).toBe(6.5);
  });
});

describe('SGF Go: moves, passes, setup', () => {
  it('replays captures in SGF letters, with the capture tally', async () => {
    // White's corner stone aa loses its last liberty when black plays ab (ba is already black).
    const a = await analysis('(;GM[1]FF[4]SZ[9];B[ba];W[aa];B[ab];W[ee])');
    expect(a.replay.map((p) => [p.move, p.captured, p.score])).toEqual([
      ['ba', [], [0, 0]],
      ['aa', [], [0, 0]],
      ['ab', ['aa'], [1, 0]],
      ['ee', [], [1, 0]],
    ]);
    expect(a.replay[2].details).toMatchObject({ color: 'black', x: 0, y: 1, removes: [{ x: 0, y: 0 }] });
    expect(a.players.map((p) => p.captures)).toEqual([1, 0]);
  });

  it('reads B[] and B[tt] as passes up to 19x19; on 21x21 tt is a point', async () => {
    const small = await analysis('(;SZ[19];B[];W[tt];B[aa])');
    expect(small.replay.map((p) => p.move)).toEqual(['pass', 'pass', 'aa']);
    expect(small.details.passes).toBe(2);
    const large = await analysis('(;SZ[21];B[tt];W[])');
    expect(large.replay.map((p) => [p.move, p.details?.x, p.details?.y])).toEqual([
      ['tt', 19, 19],
      ['pass', null, null],
    ]);
  });

  it('starts from the root\'s setup stones (HA/AB) and applies setup of a move-less node before the next move', async () => {
    // Black's handicap stones at dd and pp; a move-less node after W aa adds a white stone at ab and
    // empties pp.
    const a = await analysis('(;GM[1]SZ[19]HA[2]AB[dd][pp];W[aa];AW[ab]AE[pp];B[ac];W[pp];B[bb];W[qq];B[ba])');
    expect(a.details).toMatchObject({ handicap: 2, setup: { black: ['dd', 'pp'], white: [] } });
    // The moves: W aa, B ac, W pp (legal only because AE emptied pp), B bb, W qq, B ba, which takes
    // the white aa+ab group (liberties: ba taken last; ac and bb black).
    expect(a.replay.map((p) => p.move)).toEqual(['aa', 'ac', 'pp', 'bb', 'qq', 'ba']);
    expect([...a.replay[5].captured].sort()).toEqual(['aa', 'ab']);
    expect(a.replay[1].details?.setup).toEqual(
      expect.arrayContaining([
        { x: 0, y: 1, cell: 'white' },
        { x: 15, y: 15, cell: 'empty' },
      ]),
    );
    expect(a.replay[1].details?.setup).toHaveLength(2);
    expect(a.verdict.legal).toBe(true);
  });

  it('sets up rectangles of points (AB[aa:bb])', async () => {
    const a = await analysis('(;SZ[5]AB[aa:bb];W[cc])');
    expect(a.details.setup).toEqual({ black: ['aa', 'ba', 'ab', 'bb'], white: [] });
  });

  it('reads FF[3] identifiers with lower-case letters', async () => {
    const a = await analysis('(;GaMe[1]SiZe[9]PlayerBlack[Ann]AddBlack[cc];White[dd];Black[ee])');
    expect(a.players[0].name).toBe('Ann');
    expect(a.details.setup).toEqual({ black: ['cc'], white: [] });
    expect(a.replay.map((p) => p.move)).toEqual(['dd', 'ee']);
  });
});

describe('SGF Go: variations', () => {
  it('replays every line; the main line is the first child; an illegal move in a variation is reported at its ply', async () => {
    // Main line: B ee, W cc, B dd. Variation 1 (second child of W cc): B cc, on White's stone.
    const a = await analysis('(;GM[1]SZ[9];B[ee];W[cc](;B[dd];W[ef])(;B[cc]))');
    expect(a.moveCount).toBe(4);
    expect(a.replay.map((p) => p.move)).toEqual(['ee', 'cc', 'dd', 'ef']);
    expect(a.verdict.legal).toBe(false);
    expect(a.verdict.problems).toEqual([{ code: 'go.occupied', ply: 3, message: expect.stringMatching(/^variation 1, ply 3 \(B\[cc\], line 1\): illegal move, the point is occupied/) }]);
    expect(a.details).toMatchObject({ variations: 1, treeMoves: 5 });
  });

  it('finds a suicide in a variation, at its ply', async () => {
    // Black ba and ab guard the corner aa; its other neighbours are none. Main line: W bb elsewhere.
    // Variation 1: W aa has no liberty and takes nothing (ba still has bb, ab has ac and bb): suicide.
    const a = await analysis('(;SZ[5];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb](;W[bb])(;W[aa]))');
    expect(a.verdict.problems).toEqual([{ code: 'go.suicide', ply: 8, message: expect.stringMatching(/^variation 1, ply 8 \(W\[aa\]/) }]);
  });

  it('a simple ko: the immediate retake is illegal, a retake after a ko threat is not', async () => {
    // (x, y): black ba(1,0) ab(0,1) bc(1,2); white ca(2,0) db(3,1) cc(2,2); black cb(2,1) is played into
    // white's mouth; white bb(1,1) takes it (cb's neighbours ca, db, cc, bb are all white). Black cb at
    // once would take back the single stone bb (its neighbours ba, ab, bc black, cb): ko, illegal.
    const ko = await analysis('(;SZ[5];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb];W[bb](;B[cb])(;B[ee];W[ed];B[cb]))');
    expect(ko.replay.map((p) => [p.move, p.captured])).toEqual([
      ['ba', []], ['ca', []], ['ab', []], ['db', []], ['bc', []], ['cc', []], ['cb', []], ['bb', ['cb']], ['cb', []],
    ]);
    expect(ko.verdict.problems).toEqual([{ code: 'go.ko', ply: 9, message: expect.stringMatching(/^ply 9 \(B\[cb\]/) }]);
    // In variation 1 black first plays elsewhere (ee), white answers (ed); the retake at ply 11 is then legal.
    expect(ko.verdict.problems.some((p) => p.ply === 11)).toBe(false);
    // Had white answered at aa instead, that would have taken black ba (its liberties aa, ca, bb all
    // white) and black cb would be suicide: bb then has the liberty ba.
    const suicide = await analysis('(;SZ[5];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb];W[bb];B[ee];W[aa];B[cb])');
    expect(suicide.replay[9].captured).toEqual(['ba']);
    expect(suicide.verdict.problems.map((p) => [p.code, p.ply])).toEqual([['go.suicide', 11]]);
  });
});

describe('SGF Go: komi, result, date', () => {
  it.each([
    ['6.5', 6.5, 'points'],
    ['7.50', 7.5, 'points'],
    ['0', 0, 'points'],
    ['-2.5', -2.5, 'points'],
    ['750', 7.5, 'hundredths'],
    ['650', 6.5, 'hundredths'],
    ['375', 3.75, 'hundredths'],
    ['99', 99, 'points'],
  ])('KM[%s] is %d (%s)', async (km, komi, form) => {
    expect((await analysis(`(;KM[${km}];B[aa])`)).details).toMatchObject({ komi, komiForm: form, komiText: km });
  });

  it('KM that is not a number is kept as text, komi null', async () => {
    expect((await analysis('(;KM[six];B[aa])')).details).toMatchObject({ komi: null, komiText: 'six' });
  });

  it.each([
    ['B+R', 'black wins by resignation', ['won', 'lost'], 'resignation'],
    ['B+Resign', 'black wins by resignation', ['won', 'lost'], 'resignation'],
    ['W+2.5', 'white wins by 2.5', ['lost', 'won'], 'score'],
    ['W+0.50', 'white wins by 0.5', ['lost', 'won'], 'score'],
    ['B+T', 'black wins on time', ['won', 'lost'], 'time'],
    ['W+Time', 'white wins on time', ['lost', 'won'], 'time'],
    ['W+F', 'white wins by forfeit', ['lost', 'won'], 'forfeit'],
    ['B+', 'black wins', ['won', 'lost'], 'none'],
    ['W+', 'white wins', ['lost', 'won'], 'none'],
    ['W+Illegal', 'white wins (Illegal)', ['lost', 'won'], 'none'],
    ['0', 'jigo', ['drawn', 'drawn'], 'score'],
    ['Draw', 'jigo', ['drawn', 'drawn'], 'score'],
    ['Void', 'void (no result)', ['unfinished', 'unfinished'], 'none'],
    ['?', 'result unknown', ['unfinished', 'unfinished'], 'none'],
    ['White resigns.', 'black wins by resignation', ['won', 'lost'], 'resignation'],
    ['has adjourned.', 'recorded as "has adjourned."', ['unfinished', 'unfinished'], 'none'],
  ])('RE[%s]: "%s", outcomes %j, end %s', async (re, words, outcomes, end) => {
    const a = await analysis(`(;SZ[9]RE[${re}];B[aa];W[bb])`);
    expect(a.result).toBe(words);
    expect(a.players.map((p) => p.outcome)).toEqual(outcomes);
    expect(a.details.end).toBe(end);
  });

  it('without RE: no result, unfinished; two passes at the end are the end', async () => {
    const a = await analysis('(;SZ[9];B[aa];W[];B[])');
    expect(a.result).toBeNull();
    expect(a.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
    expect(a.details.end).toBe('two passes');
  });

  it.each([
    ['2006-05-29', '2006-05-29'],
    ['2002-10-16,17', '2002-10-16'],
    ['2001/10/10 15:38:55 UT', '2001-10-10'],
    ['1996-05', null],
    ['2023-02-29', null],
    ['August 1, 2001', null],
  ])('DT[%s] → datePlayed %s', async (dt, date) => {
    expect((await analysis(`(;DT[${dt}];B[aa])`)).facts.datePlayed).toBe(date);
  });
});

describe('SGF Go: boards the engine cannot replay, bounds, malformed files', () => {
  it('stores a rectangular board or a side past 25 without indexing it', async () => {
    const rectangular = await read('(;GM[1]SZ[19:13];B[aa])');
    expect(rectangular).toMatchObject({ publisher: 'SGF', family: 'go' });
    expect(rectangular.analysis).toBeUndefined();
    expect(rectangular.notIndexedReason).toMatch(/19x13.*square boards only/);
    expect((await read('(;SZ[37];B[aa])')).notIndexedReason).toMatch(/sides 2 to 25/);
  });

  it('refuses a board past MAX_BOARD_SIDE and more moves than MAX_PLIES', async () => {
    const board = await refusal(read('(;SZ[19];B[aa])', limitOptions({ maxBoardSide: 13 })));
    expect(board.code).toBe('limit.board');
    const plies = await refusal(read('(;SZ[9];B[aa]W[bb];B[cc])', limitOptions({ maxPlies: 2 })));
    expect(plies.code).toBe('limit.plies');
  });

  it('malformed input is a FormatError at its line and column', async () => {
    const error = await refusal(read('(;GM[1]SZ[9]\n;B[aa]\n;W[bb'));
    expect(error).toBeInstanceOf(FormatError);
    expect(error.issues[0]).toMatchObject({ line: 3, column: 3 });
    const move = await refusal(read('(;SZ[9]\n;B[a1])'));
    expect(move.message).toMatch(/B\[a1\] is not a move/);
    expect(move.issues[0]).toMatchObject({ line: 2, column: 4 });
    const size = await refusal(read('(;SZ[big];B[aa])'));
    expect(size.message).toMatch(/SZ\[big\] is not a board size/);
    const setup = await refusal(read('(;SZ[9]AB[jj])'));
    expect(setup.message).toMatch(/off the 9x9 board/);
  });

  it('a move off the board is an illegal move, not a malformed file', async () => {
    const a = await analysis('(;SZ[9];B[jj])');
    expect(a.verdict.problems.map((p) => p.code)).toEqual(['go.off_board']);
  });

  it('a declared charset that cannot be used, or bytes that are not text in it, are a note', async () => {
    const a = await analysis(Buffer.concat([Buffer.from('(;CA[UTF-8]PB[caf'), Buffer.from([0xe9]), Buffer.from('];B[aa])')]));
    expect(a.verdict).toMatchObject({ legal: true, consistent: true });
    expect(a.verdict.problems.map((p) => p.code)).toEqual(['note.charset']);
    expect(a.players[0].name).toBe('caf\uFFFD');
  });
});

describe('SGF Go: collections', () => {
  const collection = '(;GM[1]PB[Ann];B[aa])\r\n(;GM[1]PB[Ben];W[bb];B[cc])\n';

  it('split() gives each game tree\'s bytes; each slice reads as a game of its own', async () => {
    const bytes = Buffer.from(collection);
    const slices = sgfGoPlugin.split!({ bytes }, options);
    expect(slices).toEqual([
      { start: 0, end: 21 },
      { start: 23, end: 50 },
    ]);
    const games = await Promise.all(slices.map((s) => analysis(bytes.subarray(s.start, s.end))));
    expect(games.map((g) => [g.players[0].name, g.moveCount])).toEqual([
      ['Ann', 1],
      ['Ben', 2],
    ]);
  });

  it('read() of the whole file reads its first game and says how many the file holds', async () => {
    const a = await analysis(collection);
    expect(a.players[0].name).toBe('Ann');
    expect(a.details.gamesInFile).toBe(2);
  });
});

describe('SGF Go: detection', () => {
  const detect = (text: string) => sgfGoPlugin.detect({ bytes: Buffer.from(text, 'utf8') });
  it('claims GM[1] and SGF without GM, after blanks, a BOM or notes before the game', () => {
    expect(detect('(;GM[1]FF[4];B[aa])')).toBe(true);
    expect(detect('\uFEFF\n (;FF[4]SZ[9];B[aa])')).toBe(true);
    expect(detect('Here is the game record.\n\n(;\nGM[1]US[x];B[aa])')).toBe(true);
  });
  it('leaves Dots (GM[40]), other games, XML and plain text alone', () => {
    expect(detect('(;FF[4]GM[40]SZ[39:32];B[aa])')).toBe(false);
    expect(detect('(;GM[2];B[aa])')).toBe(false);
    expect(detect('<Game><!-- (;GM[1]) --></Game>')).toBe(false);
    expect(detect('just (some) text')).toBe(false);
    expect(detect('')).toBe(false);
  });
});

describe('SGF Go: regenerate', () => {
  it('writes FF[4] UTF-8 with every node and variation, points komi, [] passes and upper-case identifiers', async () => {
    const source = '(;FF[3]GaMe[1]SZ[9]KM[650]PB[A\\]b]C[x];Black[tt];W[cc](;B[dd]C[main])(;B[ee]))';
    const regenerated = await sgfGoPlugin.regenerate({ bytes: Buffer.from(source), filename: 'old.sgf' }, options);
    expect(regenerated).toMatchObject({ publisher: 'SGF', version: 'FF4-Go', mediaType: 'application/x-go-sgf', filename: 'old.regenerated.sgf' });
    const text = regenerated.content.toString();
    expect(text).toBe('(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[6.5]PB[A\\]b]C[x]\n;B[];W[cc](;B[dd]C[main])(;B[ee]))\n');
    const before = await analysis(source);
    const after = await analysis(text);
    expect(after.replay).toEqual(before.replay);
    expect(after.details.variations).toBe(1);
  });

  it('regenerates real files, and a Fox-like one written for the tests, to games with the same replay and index values', async () => {
    for (const path of [GNUGO + 'egc2001/tg-gg.sgf', FOX_LIKE + 'hundredths-650.sgf', GNUGO + 'atari_atari04.sgf']) {
      const bytes = readFileSync(path);
      const regenerated = await sgfGoPlugin.regenerate({ bytes }, options);
      const [before, after] = [await analysis(bytes), await analysis(regenerated.content as Buffer)];
      expect(after.replay).toEqual(before.replay);
      expect(after.players).toEqual(before.players);
      expect(after.details.komi).toBe(before.details.komi);
      expect(after.details.setup).toEqual(before.details.setup);
    }
  });
});

describe('Go coordinates beside SGF letters', () => {
  it('names points as players do: column letters without I, rows from the bottom', async () => {
    const { goCoordinate, sgfLetters } = await import('../../../../src/formats/families/go/index.js');
    // The 4-4 point in the upper right of 19x19 is Q16 (SGF pd); tengen K10 (jj); the lower left A1 (as).
    expect([goCoordinate({ x: 15, y: 3 }, 19), sgfLetters({ x: 15, y: 3 })]).toEqual(['Q16', 'pd']);
    expect(goCoordinate({ x: 9, y: 9 }, 19)).toBe('K10');
    expect([goCoordinate({ x: 0, y: 18 }, 19), sgfLetters({ x: 0, y: 18 })]).toEqual(['A1', 'as']);
    expect(goCoordinate({ x: 8, y: 0 }, 9)).toBe('J9');
  });
});

describe('Go readings only to be stored (withReplay: false)', () => {
  it('leave the replay out and keep everything else: players, captures, result, facts, verdict', async () => {
    // gnu-aya.sgf: 242 moves; the full reading's replay has a row per move.
    const bytes = readFileSync(GNUGO + 'olympiad2006/19x19/gnu-aya.sgf');
    const full = await read(bytes);
    const stored = await read(bytes, { ...options, withReplay: false });
    expect(full.analysis!.replay).toHaveLength(242);
    expect(stored.analysis!.replay).toEqual([]);
    expect({ ...stored, analysis: { ...stored.analysis!, replay: [] } }).toEqual({ ...full, analysis: { ...full.analysis!, replay: [] } });
  });

  it('do the same for GoFans, whose captures the replay tallies', async () => {
    // GoFans example 2.2: black's third stone takes white's 0,0, so black has one capture.
    const bytes = readFileSync('test/fixtures/gofans-examples/ex_2.2.xml');
    const full = await gofansXmlPlugin.read({ bytes }, options);
    const stored = await gofansXmlPlugin.read({ bytes }, { ...options, withReplay: false });
    expect(stored.analysis!.replay).toEqual([]);
    expect(stored.analysis!.players.map((player) => player.captures)).toEqual([1, 0]);
    expect({ ...stored.analysis!, replay: [] }).toEqual({ ...full.analysis!, replay: [] });
  });
});
