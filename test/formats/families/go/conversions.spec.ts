import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { writeGoFans11 } from '../../../../src/formats/plugins/gofans-xml/write.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, InterchangeGame } from '../../../../src/formats/plugin.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';

/*
 * Conversions between the Go formats (GoFans 1.1, 1.2, 2.1, 2.2 and SGF) through the family's
 * interchange model: every pair both ways on the format's examples and small hand-made games whose
 * moves, captures and Points are worked out by hand below; what a format cannot hold is a 422
 * `export.does_not_fit` naming it.
 */
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const SGF = 'FF4-Go';
const TARGETS = ['1.1', '1.2', '2.1', '2.2', SGF] as const;
type Target = (typeof TARGETS)[number];
const example = (version: string) => readFileSync(`test/fixtures/gofans-examples/ex_${version}.xml`);
const pluginOf = (target: string): FormatPlugin => (target === SGF ? sgfGoPlugin : gofansXmlPlugin);
const format = (target: string): FormatDescriptor => pluginOf(target).formats.find((f) => f.version === target)!;

async function toInterchange(source: { bytes: Buffer; plugin: FormatPlugin }): Promise<InterchangeGame> {
  return source.plugin.toInterchange!({ bytes: source.bytes }, options);
}

async function convert(source: { bytes: Buffer; plugin: FormatPlugin }, target: string): Promise<Buffer> {
  const written = await pluginOf(target).fromInterchange!(await toInterchange(source), { ...options, format: format(target) });
  return Buffer.from(written.content);
}

async function refusal(source: { bytes: Buffer; plugin: FormatPlugin }, target: string): Promise<FormatError> {
  const error = await convert(source, target).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

const gofans = (bytes: Buffer | string) => ({ bytes: Buffer.from(bytes), plugin: gofansXmlPlugin });
const sgf = (text: string) => ({ bytes: Buffer.from(text), plugin: sgfGoPlugin });

/** The main line as `colour x,y` (a stone) / `pass (seat n)`, with what each move captured, from the replay rows. */
function mainLine(record: GameRecord): string[] {
  return record.analysis!.replay.map((p) => {
    const d = p.details as { color: string; x: number | null; y: number | null; removes: { x: number; y: number }[] };
    const move = d.x === null ? `pass (seat ${p.player})` : `${d.color} ${d.x},${d.y}`;
    return d.removes.length === 0 ? move : `${move} x${d.removes.map((r) => `${r.x},${r.y}`).join(' ')}`;
  });
}

/*
 * The sources, and their main lines worked out by hand (x = column, y = row, from the top left;
 * SGF letters: a = 0). The examples: 1.1/1.2 play c3-ish points without a capture, 2.1/2.2 have black
 * x=1 y=0 capture the white stone at 0,0. The SGF game: on 5x5, black b1 (1,0) and a2 (0,1) surround
 * white a1 (0,0): B[ba] W[aa] B[ab] captures it; a variation at ply 3 (W[cc]).
 */
const SGF_TREE = '(;GM[1]FF[4]SZ[5]KM[0.5]PB[Ann]PW[Ben]RE[B+R];B[ba];W[aa](;B[ab];W[];B[])(;B[cc]))';
const SOURCES: { name: string; source: () => { bytes: Buffer; plugin: FormatPlugin }; variations: number; line: string[]; names: string[] }[] = [
  { name: 'GoFans 1.1 example', source: () => gofans(example('1.1')), variations: 0, line: ['black 2,2', 'white 6,6', 'pass (seat 0)'], names: ['Anna', 'Bernd'] },
  { name: 'GoFans 1.2 example', source: () => gofans(example('1.2')), variations: 1, line: ['black 2,2', 'white 6,6', 'pass (seat 0)'], names: ['Anna', 'Bernd'] },
  {
    name: 'GoFans 2.1 example',
    source: () => gofans(example('2.1')),
    variations: 0,
    line: ['black 0,1', 'white 0,0', 'black 1,0 x0,0', 'pass (seat 1)'],
    names: ['Anna', 'Bernd'],
  },
  { name: 'GoFans 2.2 example', source: () => gofans(example('2.2')), variations: 0, line: ['black 0,1', 'white 0,0', 'black 1,0 x0,0'], names: ['Anna', 'Bernd'] },
  { name: 'SGF game tree', source: () => sgf(SGF_TREE), variations: 1, line: ['black 1,0', 'white 0,0', 'black 0,1 x0,0', 'pass (seat 1)', 'pass (seat 0)'], names: ['Ann', 'Ben'] },
];

describe('Go conversions: every pair of formats, both ways', () => {
  for (const { name, source, variations, line, names } of SOURCES) {
    for (const target of TARGETS) {
      const flat = target === '1.1' || target === '2.1';
      if (flat && variations > 0) {
        it(`${name} → ${target}: 422 export.does_not_fit, the variations named`, async () => {
          const error = await refusal(source(), target);
          expect(error).toMatchObject({ status: 422, code: 'export.does_not_fit' });
          expect(error.message).toMatch(new RegExp(`${variations} variation\\(s\\) besides the main line: GoFans ${target} is a flat move list`));
        });
        continue;
      }
      it(`${name} → ${target}: the same moves, captures and players, caches regenerated`, async () => {
        const bytes = await convert(source(), target);
        const record = await pluginOf(target).read({ bytes }, options);
        expect(record.version).toBe(target);
        expect(mainLine(record)).toEqual(line);
        expect(record.analysis!.players.map((p) => p.name)).toEqual(names);
        expect(record.analysis!.details.variations).toBe(variations);
        expect(record.analysis!.verdict).toMatchObject({ legal: true, consistent: true });
        // Back to where it came from: the same main line again.
        const back = await pluginOf(target).toInterchange!({ bytes }, options);
        const again = await source().plugin.fromInterchange!(back, { ...options, format: format(String((await source().plugin.read(source(), options)).version)) });
        expect(mainLine(await source().plugin.read({ bytes: Buffer.from(again.content) }, options))).toEqual(line);
      });
    }
  }
});

describe('GoFans examples: GoFans → SGF → GoFans gives what GoFans regenerate() gives', () => {
  for (const version of ['1.1', '1.2', '2.1', '2.2']) {
    it(`ex_${version}`, async () => {
      const regenerated = await gofansXmlPlugin.regenerate({ bytes: example(version) }, options);
      const viaSgf = await convert(sgf(String(await convert(gofans(example(version)), SGF))), regenerated.version);
      expect(String(viaSgf)).toBe(regenerated.content);
      // GoFans → GoFans in its own version is a copy with Points regenerated, which regenerates the same way.
      const copy = await convert(gofans(example(version)), version);
      expect((await gofansXmlPlugin.regenerate({ bytes: copy }, options)).content).toBe(regenerated.content);
    });
  }

  it('writes the SGF by hand: players by colour, Anna (black, Points -1) resigned, the pass as B[]', async () => {
    expect(String(await convert(gofans(example('1.1')), SGF))).toBe(
      '(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[Anna]PW[Bernd]RE[W+R]EV[Vereinsabend]\n;B[cc];W[gg];B[])\n',
    );
    // 1.2's variation (white x=6 y=2 at ply 2) is an SGF variation.
    expect(String(await convert(gofans(example('1.2')), SGF))).toContain(';B[cc](;W[gg];B[])(;W[gc]))');
  });
});

describe('Go conversions: game information', () => {
  const INFO =
    '(;GM[1]FF[4]SZ[9]KM[6.50]HA[0]PB[Ann & Co]BR[3k]BT[Reds]PW[Ben <b>]WR[1d]EV[Club]DT[2024-05-01]PC[Berlin]RU[Japanese]GN[G1]GC[two\nlines]RE[B+3.5]AP[Tool:1]C[a comment];B[ee];W[];B[])';

  it('SGF → GoFans: komi, handicap, result, ratings, teams and game information as Header elements', async () => {
    const xml = String(await convert(sgf(INFO), '2.2'));
    expect(xml).toContain('<boardSize>9</boardSize><komi>6.5</komi><players><player id="0" name="Ann &amp; Co" points="');
    expect(xml).toContain('<player id="1" name="Ben &lt;b&gt;" points="');
    expect(xml).toContain(
      '<event>Club</event><date>2024-05-01</date><place>Berlin</place><rules>Japanese</rules><gameName>G1</gameName><gameComment>two\nlines</gameComment>' +
        '<handicap>0</handicap><result>B+3.5</result><rating playerId="0">3k</rating><team playerId="0">Reds</team><rating playerId="1">1d</rating></Header>',
    );
    // Points are regenerated: black's one stone on e5 owns the whole 9x9 board (81); white has komi only.
    expect(xml).toMatch(/name="Ann &amp; Co" points="81"\/><player id="1" name="Ben &lt;b&gt;" points="6.5"/);
    // Comments and application are not carried.
    expect(xml).not.toMatch(/comment<|Tool/);
  });

  it('GoFans → SGF: the same properties back (komi as a number, Text kept with its line break)', async () => {
    const back = String(await convert(gofans(await convert(sgf(INFO), '1.1')), SGF));
    expect(back).toBe(
      '(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[6.5]HA[0]PB[Ann & Co]BR[3k]BT[Reds]PW[Ben <b>]WR[1d]RE[B+3.5]EV[Club]DT[2024-05-01]PC[Berlin]RU[Japanese]GN[G1]GC[two\nlines]\n;B[ee];W[];B[])\n',
    );
  });

  it('a resignation is the loser\'s Points -1 in GoFans, not a <result>; other results are a <result>', async () => {
    const resigned = String(await convert(sgf('(;SZ[9]PB[A]PW[B]RE[W+Resign];B[ee])'), '1.1'));
    expect(resigned).toContain('<player id="0" name="A" points="-1"/><player id="1" name="B" points="0"/>');
    expect(resigned).not.toContain('<result>');
    expect(String(await convert(gofans(resigned), SGF))).toContain('RE[W+R]');
    const onTime = String(await convert(sgf('(;SZ[9]PB[A]PW[B]RE[B+Time];B[ee])'), '1.1'));
    expect(onTime).toContain('<result>B+Time</result>');
    // GoFans Points are a cache (the area of the final position), not a recorded result: no RE from them.
    const counted = writeGoFans11({ boardSize: 5, players: [{ id: 3, name: 'A', points: '25' }, { id: 7, name: 'B', points: '0' }] }, [
      { playerId: 3, color: 'black', point: { x: 2, y: 2 } },
      { playerId: 7, point: null },
      { playerId: 3, point: null },
    ]);
    const sgfText = String(await convert(gofans(counted), SGF));
    expect(sgfText).not.toContain('RE[');
    // The player ids are GoFans' own: SGF has none, so they come back numbered by seat.
    expect(String(await convert(gofans(counted), '1.1'))).toContain('<player id="3" name="A" points="25"/><player id="7" name="B" points="0"/>');
    expect(String(await convert(sgf(sgfText), '1.1'))).toContain('<player id="0" name="A" points="25"/><player id="1" name="B" points="0"/>');
  });

  it('SGF → SGF is a normalised copy: setup in a node of its own, tt passes as [], a board of any shape', async () => {
    const text = '(;GM[1]FF[3]SZ[19:13]AB[aa][bb];W[tt];AW[cc]C[x];B[dd](;W[ee])(;W[ff]))';
    expect(String(await convert(sgf(text), SGF))).toBe('(;FF[4]CA[UTF-8]GM[1]SZ[19:13]AB[aa][bb]\n;W[];AW[cc];B[dd](;W[ee])(;W[ff]))\n');
  });
});

describe('Go conversions: what does not fit is a 422 export.does_not_fit naming it', () => {
  const gofansVersions = ['1.1', '1.2', '2.1', '2.2'];
  const expectRefusal = async (source: { bytes: Buffer; plugin: FormatPlugin }, targets: readonly string[], message: RegExp) => {
    for (const target of targets) {
      const error = await refusal(source, target);
      expect({ target, status: error.status, code: error.code }).toEqual({ target, status: 422, code: 'export.does_not_fit' });
      expect(error.message).toMatch(message);
    }
  };
  const players = [
    { id: 0, name: 'A', points: '0' },
    { id: 1, name: 'B', points: '0' },
  ];

  it('setup stones (handicap), in the root or before a move: GoFans has no place for them', async () => {
    await expectRefusal(sgf('(;SZ[19]HA[2]AB[dd][pp];W[qd])'), gofansVersions, /sets up 2 point\(s\) without a move .*GoFans has no place for setup stones/);
    await expectRefusal(sgf('(;SZ[19];AB[dd];W[qd])'), gofansVersions, /sets up 1 point\(s\)/);
  });

  it('a rectangular board, and a side GoFans cannot address', async () => {
    await expectRefusal(sgf('(;SZ[19:13];B[aa])'), gofansVersions, /the board is 19x13: GoFans boards are square/);
    await expectRefusal(sgf('(;SZ[26];B[aa])'), gofansVersions, /the board is 26x26: GoFans <boardSize> is 2 to 25/);
    await expectRefusal(sgf('(;SZ[19];B[zz])'), gofansVersions, /ply 1 is played at x=25 y=25: GoFans coordinates are 0 to 24/);
  });

  it('komi that is not a number', async () => {
    await expectRefusal(sgf('(;SZ[9]KM[six];B[aa])'), gofansVersions, /the komi "six" is not a number/);
    // SGF holds it as written.
    expect(String(await convert(sgf('(;SZ[9]KM[six];B[aa])'), SGF))).toContain('KM[six]');
  });

  it('GoFans → SGF: more than two players, two of one colour, a player of both colours, a point SGF writes as a pass', async () => {
    const three = writeGoFans11({ players: [...players, { id: 2, name: 'C', points: '0' }] }, [{ playerId: 0, color: 'black', point: { x: 1, y: 1 } }]);
    await expectRefusal(gofans(three), [SGF], /the game has 3 players: SGF names two/);
    const sameColour = writeGoFans11({ players }, [
      { playerId: 0, color: 'black', point: { x: 1, y: 1 } },
      { playerId: 1, color: 'black', point: { x: 2, y: 2 } },
    ]);
    await expectRefusal(gofans(sameColour), [SGF], /two players play black/);
    const bothColours = writeGoFans11({ players }, [
      { playerId: 0, color: 'black', point: { x: 1, y: 1 } },
      { playerId: 1, color: 'white', point: { x: 2, y: 2 } },
      { playerId: 0, color: 'white', point: { x: 3, y: 3 } },
    ]);
    await expectRefusal(gofans(bothColours), [SGF], /ply 3: a white stone played by the black player/);
    const corner = writeGoFans11({ boardSize: 19, players }, [{ playerId: 0, color: 'black', point: { x: 19, y: 19 } }]);
    await expectRefusal(gofans(corner), [SGF], /x=19 y=19, off the board: SGF would write it tt/);
  });

  it('another family or a format the plugin does not write: 422 export.unsupported', async () => {
    const game = await toInterchange(gofans(example('1.1')));
    await expect(sgfGoPlugin.fromInterchange!({ family: 'dots' }, { ...options, format: format(SGF) })).rejects.toMatchObject({ code: 'export.unsupported' });
    await expect(gofansXmlPlugin.fromInterchange!(game, { ...options, format: format(SGF) })).rejects.toMatchObject({ code: 'export.unsupported' });
    const other = '<?xml version="1.0"?><Game><Publisher>Other</Publisher><Version>1</Version><Header/><Body/></Game>';
    await expect(gofansXmlPlugin.toInterchange!({ bytes: Buffer.from(other) }, options)).rejects.toMatchObject({ code: 'export.unsupported' });
  });
});
