import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormatReader } from '../../src/formats/format-reader.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import type { Family, GameAnalysis } from '../../src/formats/plugin.js';
import { FORMAT_PLUGINS } from '../../src/formats/registry.js';
import { renderBoard } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/index.js';
import { goColumnName, starPoints } from '../../src/render/go.js';

const reader = new FormatReader(FORMAT_PLUGINS);
const OPTIONS: RenderOptions = { size: 480, coordinates: true, orientation: null };

async function analysed(path: string): Promise<{ family: Family; analysis: GameAnalysis }> {
  const record = await reader.read({ bytes: readFileSync(path), filename: path }, { timeBudgetMs: 5000, limits: DEFAULT_LIMITS });
  return { family: record.family!, analysis: record.analysis! };
}

type Node = Record<string, unknown>;

/** The SVG parsed, with every element that has a class, as [class, attributes] pairs. */
function parse(svg: string): { root: Node; classed: { cls: string[]; attrs: Record<string, string> }[]; texts: string[] } {
  expect(XMLValidator.validate(svg)).toBe(true);
  const root = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', textNodeName: '#text', parseAttributeValue: false, isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute }).parse(svg) as Node;
  const classed: { cls: string[]; attrs: Record<string, string> }[] = [];
  const texts: string[] = [];
  const walk = (node: unknown, name: string) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, name));
    if (node === null || typeof node !== 'object') {
      if (name === '#text') texts.push(String(node));
      return;
    }
    const n = node as Node;
    if (typeof n.class === 'string') classed.push({ cls: n.class.split(' '), attrs: n as Record<string, string> });
    for (const [k, v] of Object.entries(n)) if (typeof v === 'object' || k === '#text') walk(v, k);
  };
  walk(root, '');
  return { root, classed, texts };
}

/** `x,y` of every element whose classes include all of `classes`. */
function places(svg: string, ...classes: string[]): string[] {
  return parse(svg)
    .classed.filter((e) => classes.every((c) => e.cls.includes(c)))
    .map((e) => `${e.attrs['data-x']},${e.attrs['data-y']}`)
    .sort();
}

function titleOf(svg: string): string {
  const svgNode = (parse(svg).root.svg as Node[])[0];
  return String(((svgNode.title as Node[])[0] as Node)['#text'] ?? (svgNode.title as unknown[])[0]);
}

describe('board pictures: Go', () => {
  it('GoFans example 2.2: black takes the white corner stone at 0,0 on ply 3', async () => {
    // <move color="black" x="0" y="1"><move color="white" x="0" y="0"><move color="black" x="1" y="0"><removes><remove x="0" y="0"/>
    const { family, analysis } = await analysed('test/fixtures/gofans-examples/ex_2.2.xml');
    const two = renderBoard(family, analysis, 2, OPTIONS, 'ex 2.2 ply 2')!;
    expect(places(two, 'stone', 'black')).toEqual(['0,1']);
    expect(places(two, 'stone', 'white')).toEqual(['0,0']);
    const three = renderBoard(family, analysis, 3, OPTIONS, 'ex 2.2 ply 3')!;
    expect(places(three, 'stone', 'black')).toEqual(['0,1', '1,0']);
    expect(places(three, 'stone', 'white')).toEqual([]);
    expect(places(three, 'last-move')).toEqual(['1,0']);
    expect(parse(three).texts).toContain('captures: black 1, white 0');
    expect(titleOf(three)).toBe('ex 2.2 ply 3');
    const start = renderBoard(family, analysis, 0, OPTIONS, 'start')!;
    expect(places(start, 'stone')).toEqual([]);
    expect(places(start, 'last-move')).toEqual([]);
  });

  it('niki.sgf (KGS): the captions give each side the stones it took, as the final board shows them', async () => {
    // No set-up stones and no variations: the stones a side took are the other side's stones played
    // (counted in the file's text; passes are B[] or B[tt]) less those of them left on the board.
    const path = 'test/fixtures/realdata/go/gnugo_regression_games/niki.sgf';
    const text = readFileSync(path, 'latin1');
    const played = (color: 'B' | 'W') => text.match(new RegExp(`;${color}\\[[a-s]{2}\\]`, 'g'))?.length ?? 0;
    const { family, analysis } = await analysed(path);
    const end = renderBoard(family, analysis, analysis.replay.length, OPTIONS, 'end')!;
    const blackTook = played('W') - places(end, 'stone', 'white').length;
    const whiteTook = played('B') - places(end, 'stone', 'black').length;
    expect(blackTook).toBeGreaterThan(0);
    expect(whiteTook).toBeGreaterThan(0);
    expect(parse(end).texts).toContain(`captures: black ${blackTook}, white ${whiteTook}`);
  });

  it('GNU Go 9x9-1.sgf: the first three moves, and 50 stones at the end (53 plies, three of them passes, no capture)', async () => {
    // ;B[ee];W[df];B[ef] … ;B[];W[];B[] — ee is x 4, y 4 (E5), df x 3 y 5, ef x 4 y 5.
    const { family, analysis } = await analysed('test/fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf');
    const three = renderBoard(family, analysis, 3, OPTIONS, 't')!;
    expect(places(three, 'stone', 'black')).toEqual(['4,4', '4,5']);
    expect(places(three, 'stone', 'white')).toEqual(['3,5']);
    expect(places(three, 'last-move')).toEqual(['4,5']);
    const end = renderBoard(family, analysis, 53, OPTIONS, 't')!;
    expect(places(end, 'stone', 'black')).toHaveLength(25);
    expect(places(end, 'stone', 'white')).toHaveLength(25);
    // The last stones played: W[fd] (5,3), B[ca] (2,0), W[ea] (4,0); the game ends on a pass: no last-move mark.
    expect(places(end, 'stone', 'white')).toEqual(expect.arrayContaining(['5,3', '4,0']));
    expect(places(end, 'stone', 'black')).toContain('2,0');
    expect(places(end, 'last-move')).toEqual([]);
    const texts = parse(end).texts;
    for (const label of ['A', 'H', 'J', '1', '9']) expect(texts).toContain(label);
    expect(texts).not.toContain('I');
  });

  it('letters skip I; star points of 9, 13 and 19 boards', () => {
    expect(Array.from({ length: 19 }, (_, x) => goColumnName(x)).join('')).toBe('ABCDEFGHJKLMNOPQRST');
    expect(starPoints(9, 9).map((p) => `${p.x},${p.y}`).sort()).toEqual(['2,2', '2,6', '4,4', '6,2', '6,6']);
    expect(starPoints(13, 13)).toHaveLength(5);
    expect(starPoints(19, 19).map((p) => `${p.x},${p.y}`).sort()).toEqual(['15,15', '15,3', '15,9', '3,15', '3,3', '3,9', '9,15', '9,3', '9,9']);
  });

  it('orientation=white turns the board: A1 is drawn at the top right', async () => {
    const { family, analysis } = await analysed('test/fixtures/gofans-examples/ex_2.2.xml');
    const stoneAt = (svg: string) => parse(svg).classed.find((e) => e.cls.includes('stone') && e.attrs['data-x'] === '0' && e.attrs['data-y'] === '1')!.attrs;
    const usual = stoneAt(renderBoard(family, analysis, 1, OPTIONS, 't')!);
    const turned = stoneAt(renderBoard(family, analysis, 1, { ...OPTIONS, orientation: 'white' }, 't')!);
    expect(Number(usual.cx)).toBeLessThan(Number(turned.cx));
    expect(Number(usual.cy)).toBeLessThan(Number(turned.cy));
  });
});

describe('board pictures: Russian draughts (the BARS demonstration game)', () => {
  // Standard start; 1. g3-f4 d6-e5 2. f4:d6 (takes e5). Model squares: x = file (a = 0), y = 8 - rank.
  const sq = (name: string) => `${name.charCodeAt(0) - 97},${8 - Number(name[1])}`;
  const squares = (...names: string[]) => names.map(sq).sort();

  it('the start and the position after 2. f4:d6 with its from/to and the man it took', async () => {
    const { family, analysis } = await analysed('test/e2e/fixtures/demonstration.bars');
    const start = renderBoard(family, analysis, 0, OPTIONS, 't')!;
    expect(places(start, 'piece', 'white', 'man')).toEqual(squares('a1', 'c1', 'e1', 'g1', 'b2', 'd2', 'f2', 'h2', 'a3', 'c3', 'e3', 'g3'));
    expect(places(start, 'piece', 'black', 'man')).toEqual(squares('b6', 'd6', 'f6', 'h6', 'a7', 'c7', 'e7', 'g7', 'b8', 'd8', 'f8', 'h8'));
    const three = renderBoard(family, analysis, 3, OPTIONS, 't')!;
    const onBoard = (svg: string, colour: string) => places(svg, 'piece', colour);
    expect(parse(three).classed.filter((e) => e.cls.includes('piece') && e.cls.includes('white') && !e.cls.includes('captured'))).toHaveLength(12);
    expect(onBoard(three, 'white')).toContain(sq('d6'));
    expect(onBoard(three, 'white')).not.toContain(sq('g3'));
    expect(places(three, 'last-from')).toEqual([sq('f4')]);
    expect(places(three, 'last-to')).toEqual([sq('d6')]);
    expect(places(three, 'piece', 'captured')).toEqual([sq('e5')]);
    expect(parse(three).classed.filter((e) => e.cls.includes('piece') && e.cls.includes('black') && !e.cls.includes('captured'))).toHaveLength(11);
  });

  it('a king whose capture goes round to the square it started from: that square is both ends of the move', async () => {
    // White king c1 takes d2, d4, b4 and b2 (c1:e3:c5:a3:c1, each landing the only one from which the
    // capture goes on) and stops where it started; black's man h8 stays. Worked out by hand.
    const pdn = '[Event "round trip"]\n[GameType "25"]\n[SetUp "1"]\n[FEN "W:WKc1:Bd2,d4,b4,b2,h8"]\n\n1. c1:e3:c5:a3:c1 *\n';
    const record = await reader.read({ bytes: Buffer.from(pdn), filename: 'round-trip.pdn' }, { timeBudgetMs: 5000, limits: DEFAULT_LIMITS });
    const one = renderBoard(record.family!, record.analysis!, 1, OPTIONS, 't')!;
    expect(places(one, 'last-from')).toEqual([sq('c1')]);
    expect(places(one, 'last-to')).toEqual([sq('c1')]);
    expect(places(one, 'piece', 'captured')).toEqual(squares('d2', 'd4', 'b4', 'b2'));
    expect(places(one, 'piece', 'white', 'king')).toEqual([sq('c1')]);
  });

  it('orientation=black puts a1 at the top right', async () => {
    const { family, analysis } = await analysed('test/e2e/fixtures/demonstration.bars');
    // The man on a1 (x 0, y 7): its circle's centre, low on the picture from white's side, high from black's.
    const a1 = (svg: string) => parse(svg).classed.find((e) => e.cls.includes('piece') && e.attrs['data-x'] === '0' && e.attrs['data-y'] === '7')!;
    const cy = (svg: string) => Number((a1(svg).attrs.circle as unknown as Node[])[0].cy);
    const white = renderBoard(family, analysis, 0, OPTIONS, 't')!;
    const black = renderBoard(family, analysis, 0, { ...OPTIONS, orientation: 'black' }, 't')!;
    expect(cy(white)).toBeGreaterThan(cy(black));
  });
});

describe('board pictures: Dots (VK fixture full-game.txt)', () => {
  // b7a6a8a795b8a5b6c6c7#c7b8a7b6#b7##0@1#: red (seat 0) b7 a8 95 a5 c6, blue a6 a7 b8 b6 c7; blue's c7 closes
  // c7-b8-a7-b6 round red's b7. VK codes count from 1: code `b7` is row 10, column 6, i.e. x 6, y 10.
  const cell = (code: string) => `${parseInt(code[1], 36) - 1},${parseInt(code[0], 36) - 1}`;
  it('after ply 10 the red dot b7 is captured inside a blue surround', async () => {
    const { family, analysis } = await analysed('test/formats/plugins/vk-dots/fixtures/full-game.txt');
    const nine = renderBoard(family, analysis, 9, OPTIONS, 't')!;
    expect(places(nine, 'dot', 'seat-0')).toEqual(['b7', 'a8', '95', 'a5', 'c6'].map(cell).sort());
    expect(places(nine, 'dot', 'seat-1')).toEqual(['a6', 'a7', 'b8', 'b6'].map(cell).sort());
    expect(places(nine, 'captured')).toEqual([]);
    expect(parse(nine).classed.filter((e) => e.cls.includes('surround'))).toHaveLength(0);
    const ten = renderBoard(family, analysis, 10, OPTIONS, 't')!;
    expect(places(ten, 'dot', 'captured')).toEqual([cell('b7')]);
    expect(places(ten, 'dot', 'captured', 'seat-0')).toEqual([cell('b7')]);
    expect(places(ten, 'last-move')).toEqual([cell('c7')]);
    const surrounds = parse(ten).classed.filter((e) => e.cls.includes('surround'));
    expect(surrounds).toHaveLength(1);
    expect(surrounds[0].cls).toContain('seat-1');
    expect(surrounds[0].attrs.points.split(' ')).toHaveLength(4);
    expect(parse(ten).texts).toContain('score: red 0, blue 1');
  });
});

describe('board pictures: peg solitaire (English Standard Board.brd)', () => {
  // 33 slots in a cross, all yellow but the centre d4 (x 3, y 3), an empty target.
  it('the start, the first jump d2-d4 over d3, and the last stone on the centre', async () => {
    const { family, analysis } = await analysed('test/fixtures/realdata/peg/v1_e522458/English Standard Board.brd');
    const start = renderBoard(family, analysis, 0, OPTIONS, 't')!;
    expect(parse(start).classed.filter((e) => e.cls.includes('slot'))).toHaveLength(33);
    expect(places(start, 'slot', 'yellow')).toHaveLength(32);
    expect(places(start, 'slot', 'empty')).toEqual(['3,3']);
    expect(places(start, 'slot', 'target')).toEqual(['3,3']);
    const one = renderBoard(family, analysis, 1, OPTIONS, 't')!;
    expect(places(one, 'slot', 'empty')).toEqual(['3,1', '3,2']);
    const jump = parse(one).classed.find((e) => e.cls.includes('last-jump'))!.attrs;
    expect([jump['data-from'], jump['data-over'], jump['data-to']]).toEqual(['3,1', '3,2', '3,3']);
    const end = renderBoard(family, analysis, analysis.replay.length, OPTIONS, 't')!;
    expect(places(end, 'slot', 'stone')).toEqual(['3,3']);
  });
});
