import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { STANDARD_SCHEMA } from '../../../../src/formats/plugins/gofans-xml/schemas.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { GoFansDraft, GoFansDraftMove, writeGoFans11, writeGoFans12 } from '../../../../src/formats/plugins/gofans-xml/write.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const EXAMPLES = new URL('../../../fixtures/gofans-examples/', import.meta.url);
const example = (version: string): string => readFileSync(new URL(`ex_${version}.xml`, EXAMPLES), 'utf8');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const read = (xml: string): Promise<GameRecord> => gofansXmlPlugin.read({ bytes: Buffer.from(xml), filename: 'game.xml' }, options);

async function formatError(xml: string): Promise<FormatError> {
  try {
    await read(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return error as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** 1-based line and column of the first occurrence of `needle`. */
function position(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

const twoPlayers: GoFansDraft = {
  boardSize: 5,
  players: [
    { id: 0, name: 'Black', points: '0' },
    { id: 1, name: 'White', points: '0' },
  ],
};
const b = (x: number, y: number, ...next: GoFansDraftMove[]): GoFansDraftMove => ({ playerId: 0, color: 'black', point: { x, y }, next });
const w = (x: number, y: number, ...next: GoFansDraftMove[]): GoFansDraftMove => ({ playerId: 1, color: 'white', point: { x, y }, next });
const pass = (playerId: number, ...next: GoFansDraftMove[]): GoFansDraftMove => ({ playerId, point: null, next });

describe('GoFans examples', () => {
  it('1.1: stores Header and Body verbatim and indexes players, colours, moves and the end', async () => {
    const xml = example('1.1');
    const record = await read(xml);
    expect(record).toMatchObject({ publisher: 'GoFans', version: '1.1', family: 'go' });
    expect(record.header).toBe(xml.slice(xml.indexOf('<Header>'), xml.indexOf('</Header>') + '</Header>'.length));
    expect(record.body).toBe(xml.slice(xml.indexOf('<Body>'), xml.indexOf('</Body>') + '</Body>'.length));
    const analysis = record.analysis!;
    expect(analysis.players.map((p) => [p.externalId, p.name, p.color, p.declaredPoints])).toEqual([
      ['0', 'Anna', 'black', -1],
      ['1', 'Bernd', 'white', 0],
    ]);
    expect(analysis.moveCount).toBe(3);
    // Usual Go coordinates on 9x9: columns A-J without I from the left, rows 9-1 from the top (x 2, y 2 is C7).
    expect(analysis.replay.map((p) => [p.player, p.move, p.details?.x, p.details?.y, p.details?.sgf])).toEqual([
      [0, 'C7', 2, 2, 'cc'],
      [1, 'G3', 6, 6, 'gg'],
      [0, 'pass', null, null, ''],
    ]);
    expect(analysis.details).toMatchObject({ boardSize: 9, komi: 0, passes: 1, end: 'resignation', header: { event: 'Vereinsabend' }, variations: 0 });
    expect(analysis.result).toBe('Anna (black) resigned');
    expect(analysis.verdict.legal).toBe(true);
  });

  it("1.1 and 1.2: Bernd's Points 0 disagree with the area score, one white stone = 1", async () => {
    for (const version of ['1.1', '1.2']) {
      const analysis = (await read(example(version))).analysis!;
      // One stone each on 9x9: every empty point reaches both colours, so white's area is its stone.
      expect(analysis.players.map((p) => p.points)).toEqual([-1, 1]);
      expect(analysis.verdict.consistent).toBe(false);
      expect(analysis.verdict.problems).toEqual([
        { code: 'cache.points', ply: null, message: expect.stringMatching(/player 1 \(Bernd\): points 0 in the file, 1 regenerated/) },
      ]);
    }
  });

  it('1.2: replays the variation too (white 6,2 instead of 6,6) and counts it', async () => {
    const analysis = (await read(example('1.2'))).analysis!;
    expect(analysis.details).toMatchObject({ variations: 1, treeMoves: 4 });
    expect(analysis.moveCount).toBe(3);
  });

  it('2.1 and 2.2: the Removes agree with the capture of 0,0; the resignation lacks its formal pass', async () => {
    for (const version of ['2.1', '2.2']) {
      const analysis = (await read(example(version))).analysis!;
      // x 1, y 0 on 9x9 is B9; the captured stone at 0,0 is A9.
      expect(analysis.replay[2]).toMatchObject({ ply: 3, player: 0, move: 'B9', captured: ['A9'], score: [1, 0] });
      // White has no stone left and every empty point reaches only black: white's area is 0.
      expect(analysis.players.map((p) => [p.points, p.captures])).toEqual([
        [-1, 1],
        [0, 0],
      ]);
      expect(analysis.verdict).toEqual({
        legal: true,
        consistent: true,
        problems: [
          { code: 'note.resigned_without_pass', ply: 3, message: expect.stringMatching(/Anna\) is marked resigned .* ply 3 \(black x=1 y=0\), is not a pass/) },
        ],
      });
    }
  });
});

describe('header fields', () => {
  it('indexes the elements after players as they are, and only the fixed ones as board size and komi', async () => {
    const draft: GoFansDraft = { players: twoPlayers.players, headerFields: [['event', 'Club & co'], ['boardSize', '13']] };
    const xml = writeGoFans11(draft, [b(3, 3)]).replace('</Header>', '<place><city>Berlin</city></place></Header>');
    const details = (await read(xml)).analysis!.details;
    // No boardSize before players: the default 19; the later <boardSize> is just a kept field.
    expect(details).toMatchObject({ boardSize: 19, komi: 0 });
    expect(details.header).toEqual({ event: 'Club & co', boardSize: '13', place: '<city>Berlin</city>' });
  });
});

describe('ratings', () => {
  it('gives each player the rating its <rating playerId> element writes, none where there is none', async () => {
    const draft: GoFansDraft = { players: twoPlayers.players, headerFields: [['rating', '3 dan', { playerId: '1' }]] };
    const players = (await read(writeGoFans11(draft, [b(3, 3)]))).analysis!.players;
    expect(players.map((p) => [p.name, p.rating])).toEqual([
      ['Black', null],
      ['White', '3 dan'],
    ]);
  });
});

describe('regenerated files', () => {
  it('1.1 comes back as 2.1 and 1.2 as 2.2 with regenerated Points, passing the 2.x XSD', async () => {
    for (const [from, to] of [
      ['1.1', '2.1'],
      ['1.2', '2.2'],
    ]) {
      const xml = example(from);
      const regenerated = await gofansXmlPlugin.regenerate({ bytes: Buffer.from(xml), filename: `ex_${from}.xml` }, options);
      expect(regenerated).toMatchObject({ publisher: 'GoFans', version: to, mediaType: 'application/xml', filename: `ex_${from}.regenerated.xml` });
      // Nothing is captured in these games, so only Version and Bernd's Points change.
      const expected = xml.replace(`<Version>${from}</Version>`, `<Version>${to}</Version>`).replace('name="Bernd" points="0"', 'name="Bernd" points="1"');
      expect(regenerated.content).toBe(expected);
      const again = (await read(String(regenerated.content))).analysis!;
      expect(again.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    }
  });

  it('a consistent 2.1 file regenerates to itself', async () => {
    for (const version of ['2.1', '2.2']) {
      const regenerated = await gofansXmlPlugin.regenerate({ bytes: Buffer.from(example(version)) }, options);
      expect(regenerated.content).toBe(example(version));
    }
  });

  it('writes Removes into every line of a 1.2 tree, self-closing moves included, and keeps the rest', async () => {
    // Main line: black captures white's corner stone at ply 3. Variation at ply 3: black captures nothing.
    const xml = writeGoFans12(twoPlayers, [b(0, 1, w(0, 0, b(1, 0, pass(1)), b(4, 4, w(1, 0))))]).replace('<Body>', '<Body><!-- kept -->');
    const regenerated = await gofansXmlPlugin.regenerate({ bytes: Buffer.from(xml) }, options);
    expect(regenerated.version).toBe('2.2');
    const content = String(regenerated.content);
    expect(content).toContain('<!-- kept -->');
    expect(content).toContain('<move playerId="0" color="black" x="1" y="0"><removes><remove x="0" y="0"/></removes><move playerId="1"/></move>');
    const again = (await read(content)).analysis!;
    expect(again.verdict.consistent).toBe(true);
    // Black: 2 stones + 23 empty points that reach only black.
    expect(again.players.map((p) => p.declaredPoints)).toEqual([25, 0]);
  });
});

describe('validation', () => {
  it('refuses XML that is not well-formed with the parser line and column', async () => {
    const xml = '<Game>\n<Publisher>GoFans</Publisher>\n<Version>1.1</Versio>\n</Game>';
    const error = await formatError(xml);
    expect(error.status).toBe(422);
    expect(error.issues[0]).toMatchObject({ line: 3, message: expect.stringMatching(/mismatch/) });
    expect(error.issues[0].column).toBeGreaterThan(1);
  });

  it('finds the column of a parser error far into a long line', async () => {
    // The examples keep a whole game on one line; the error sits beyond libxml2's 80-byte context.
    const xml = example('1.1').replace('<event>Vereinsabend</event>', '<event>Vereinsabend</evnt>');
    const error = await formatError(xml);
    const { line, column } = position(xml, '</evnt>');
    expect(error.issues[0]).toMatchObject({ line, message: expect.stringMatching(/mismatch/) });
    // libxml2 reports the mismatch where the end tag's name ends.
    expect(error.issues[0].column).toBe(column + '</evnt'.length);
  });

  it('refuses a file failing Standard.xsd (no Version) at the element that is wrong', async () => {
    const xml = '<Game><Publisher>GoFans</Publisher><Header/><Body/></Game>';
    const error = await formatError(xml);
    expect(error.message).toMatch(/Standard\.xsd/);
    expect(error.issues[0]).toMatchObject({ ...position(xml, '<Header'), message: expect.stringMatching(/Header.*not expected/) });
  });

  it('stores a file of another publisher that passes Standard.xsd, not indexed', async () => {
    const xml = '<?xml version="1.0"?>\n<Game><Publisher>ChessFans</Publisher><Version>3.0</Version><Header><anything a="1"/></Header><Body>e4 e5</Body></Game>';
    const record = await read(xml);
    expect(record).toEqual({
      publisher: 'ChessFans',
      version: '3.0',
      header: '<Header><anything a="1"/></Header>',
      body: '<Body>e4 e5</Body>',
      family: null,
      notIndexedReason: expect.stringMatching(/no schema for publisher "ChessFans" version "3\.0"/),
    });
  });

  it('refuses a GoFans 1.1 file carrying Removes (a 2.1 feature) at the move that carries them', async () => {
    const xml = example('2.1').replace('<Version>2.1</Version>', '<Version>1.1</Version>');
    const error = await formatError(xml);
    expect(error.message).toMatch(/GoFans-1\.1\.xsd/);
    expect(error.issues[0]).toMatchObject({ ...position(xml, '<move playerId="0" color="black" x="1" y="0">'), message: expect.stringMatching(/content/) });
  });

  it('refuses a negative coordinate and an undeclared player with line and column', async () => {
    const bad = writeGoFans11(twoPlayers, [b(1, 1), w(2, 2)]).replace('x="2"', 'x="-2"');
    expect((await formatError(bad)).issues[0]).toMatchObject({ ...position(bad, '<move playerId="1"'), message: expect.stringMatching(/'-2'/) });
    const stranger = writeGoFans11(twoPlayers, [b(1, 1), { playerId: 7, color: 'white', point: { x: 2, y: 2 } }]);
    const error = await formatError(stranger);
    expect(error.issues[0]).toMatchObject({ line: position(stranger, 'playerId="7"').line, message: expect.stringMatching(/keyref|key-sequence/) });
  });

  it('refuses a move with x but no y, and DOCTYPE declarations', async () => {
    const half = writeGoFans11(twoPlayers, [b(1, 1)]).replace(' y="1"', '');
    expect((await formatError(half)).issues[0]).toMatchObject({ ...position(half, '<move'), message: expect.stringMatching(/both x and y/) });
    const doctype = '<?xml version="1.0"?>\n<!DOCTYPE Game [<!ENTITY a "aaaa">]>\n<Game/>';
    expect((await formatError(doctype)).issues[0]).toMatchObject({ line: 2, column: 1 });
  });

  it("gives a stone without colour its player's colour, and refuses one whose player shows none", async () => {
    const inferred = writeGoFans11(twoPlayers, [b(1, 1), w(2, 2), { playerId: 0, point: { x: 3, y: 3 } }]);
    expect((await read(inferred)).analysis!.replay[2].details).toMatchObject({ color: 'black', x: 3, y: 3 });
    const unknown = writeGoFans11(twoPlayers, [b(1, 1), { playerId: 1, point: { x: 3, y: 3 } }]);
    expect((await formatError(unknown)).issues[0]).toMatchObject({ ...position(unknown, '<move playerId="1"'), message: expect.stringMatching(/no color/) });
  });

  it('refuses a file named as another version than it declares', async () => {
    const format = gofansXmlPlugin.formats.find((f) => f.version === '2.1')!;
    await expect(gofansXmlPlugin.read({ bytes: Buffer.from(example('1.1')) }, { ...options, format })).rejects.toThrow(/named GoFans\/2\.1/);
  });
});

describe('verdicts', () => {
  it('an illegal move (occupied point, point off the board) makes the game illegal but it is stored', async () => {
    const record = await read(writeGoFans11(twoPlayers, [b(2, 2), w(2, 2), w(5, 0)]));
    expect(record.family).toBe('go');
    expect(record.analysis!.verdict.legal).toBe(false);
    expect(record.analysis!.verdict.problems.filter((p) => p.ply !== null)).toEqual([
      { code: 'go.occupied', ply: 2, message: 'ply 2 (white x=2 y=2): illegal move, the point is occupied' },
      { code: 'go.off_board', ply: 3, message: 'ply 3 (white x=5 y=0): illegal move, the point is off the board' },
    ]);
  });

  it('2.1 Removes that differ from the capture name the ply and x/y', async () => {
    const draft = { ...twoPlayers, players: [{ id: 0, name: 'B', points: '25' }, { id: 1, name: 'W', points: '0' }] };
    const xml = writeGoFans11(draft, [b(0, 1), w(0, 0), b(1, 0)])
      .replace('<Version>1.1</Version>', '<Version>2.1</Version>')
      .replace('<move playerId="0" color="black" x="0" y="1"/>', '<move playerId="0" color="black" x="0" y="1"><removes><remove x="3" y="3"/></removes></move>');
    const verdict = (await read(xml)).analysis!.verdict;
    expect(verdict.legal).toBe(true);
    expect(verdict.consistent).toBe(false);
    expect(verdict.problems).toEqual([
      { code: 'cache.removes', ply: 1, message: 'ply 1 (black x=0 y=1): the file removes [3,3], the replay removes []' },
      { code: 'cache.removes', ply: 3, message: 'ply 3 (black x=1 y=0): the file removes [], the replay removes [0,0]' },
    ]);
  });

  it('checks every line of a tree: a ko retaken at once in a variation names the variation and the ply', async () => {
    // Ko shape on 5x5: white takes black 2,2 by playing 1,2; black retaking at 2,2 at once is illegal.
    const moves = [b(1, 1), w(2, 1), b(0, 2), w(3, 2), b(1, 3), w(2, 3), b(2, 2)];
    let tail: GoFansDraftMove = w(1, 2, pass(0), b(2, 2));
    for (let i = moves.length - 1; i >= 0; i--) tail = { ...moves[i], next: [tail] };
    const verdict = (await read(writeGoFans12(twoPlayers, [tail]))).analysis!.verdict;
    expect(verdict.legal).toBe(false);
    expect(verdict.problems.filter((p) => p.code.startsWith('go.'))).toEqual([
      { code: 'go.ko', ply: 9, message: 'variation 1, ply 9 (black x=2 y=2): illegal move, it retakes a ko at once (simple ko)' },
    ]);
  });

  it('a suicide is go.suicide at its ply', async () => {
    // Black walls the corner point 0,0 with 1,0 and 0,1; white playing 0,0 takes nothing and has no liberty.
    const verdict = (await read(writeGoFans11(twoPlayers, [b(1, 0), w(4, 4), b(0, 1), w(0, 0)]))).analysis!.verdict;
    expect(verdict.legal).toBe(false);
    expect(verdict.problems.filter((p) => p.code.startsWith('go.'))).toEqual([
      { code: 'go.suicide', ply: 4, message: 'ply 4 (white x=0 y=0): illegal move, it is suicide (its group would have no liberty)' },
    ]);
  });

  it('two passes end the game; Points are area scores with komi for white', async () => {
    const draft: GoFansDraft = {
      boardSize: 5,
      komi: '2.5',
      players: [
        { id: 0, name: 'B', points: '10' },
        { id: 1, name: 'W', points: '17.5' },
      ],
    };
    // Black walls column 1, white column 2: black owns column 0 (10 points), white columns 3-4 (15 + komi).
    const moves = [0, 1, 2, 3, 4].flatMap((y) => [b(1, y), w(2, y)]);
    const analysis = (await read(writeGoFans11(draft, [...moves, pass(0), pass(1)]))).analysis!;
    expect(analysis.details).toMatchObject({ end: 'two passes', passes: 2, komi: 2.5, areaScore: { black: 10, white: 15, neutral: 0 } });
    expect(analysis.players.map((p) => p.points)).toEqual([10, 17.5]);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.result).toBe('white wins by 7.5 (area score, komi included)');
  });
});

describe('deep game trees', () => {
  function deepGame(plies: number): string {
    // Stones along the rows of a 19x19 board, then passes: no captures, one move per nesting level.
    let tail: GoFansDraftMove | undefined;
    for (let i = plies - 1; i >= 0; i--) {
      const player = i % 2;
      const point = i < 300 ? { x: i % 19, y: 2 * Math.floor(i / 38) + player } : null;
      tail = { playerId: player, color: player === 0 ? 'black' : 'white', point, next: tail ? [tail] : [] };
    }
    return writeGoFans12({ players: twoPlayers.players }, [tail!]);
  }

  it('reads and regenerates a 1.2 game of 1,500 nested moves', async () => {
    const xml = deepGame(1500);
    const record = await read(xml);
    expect(record.analysis!.moveCount).toBe(1500);
    expect(record.analysis!.verdict.legal).toBe(true);
    const regenerated = await gofansXmlPlugin.regenerate({ bytes: Buffer.from(xml) }, options);
    expect((await read(String(regenerated.content))).analysis!.moveCount).toBe(1500);
  });

  it('refuses a document nested beyond 2,048 levels instead of exhausting the reader', async () => {
    const error = await formatError(deepGame(2100));
    expect(error.issues[0].message).toMatch(/depth/i);
    expect(error.issues[0].line).toBeDefined();
  });
});

describe('detection and the format index', () => {
  it('claims XML (after a BOM, blanks or a declaration) and nothing else', () => {
    const detect = (text: string | Buffer) => gofansXmlPlugin.detect({ bytes: Buffer.isBuffer(text) ? text : Buffer.from(text) });
    expect(detect(example('1.1'))).toBe(true);
    expect(detect(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n  <Game/>')]))).toBe(true);
    expect(detect('(;GM[1]FF[4]SZ[19];B[pd])')).toBe(false);
    expect(detect('')).toBe(false);
    expect(detect(Buffer.from([0x00, 0x3c]))).toBe(false);
  });

  it('lists the four versions with their XSDs and shares Standard.xsd', () => {
    expect(gofansXmlPlugin.formats.map((f) => `${f.publisher}/${f.version}`)).toEqual(['GoFans/1.1', 'GoFans/1.2', 'GoFans/2.1', 'GoFans/2.2']);
    for (const format of gofansXmlPlugin.formats) expect(format.schema?.text).toContain(`fixed="${format.version}"`);
    expect(gofansXmlPlugin.sharedSchemas).toEqual([STANDARD_SCHEMA]);
    expect(STANDARD_SCHEMA.name).toBe('Standard.xsd');
  });
});
