import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { turnedDotsSgf } from '../support/positions/turned-sgf.js';
import type { TransformName } from '../../src/rules/symmetry.js';

/*
 * One game, many files, in Dots and Russian draughts: a real zagram SGF, the archive's VK code of it,
 * the SGF turned by hand and cut short by hand; a VK code starting from a cross and an SGF writing the
 * cross as setup; a game of the USSR 1947 PDN database, the archive's BARS file of it and the PDN cut
 * after 30 plies by hand. Each copy is made here, so its relation to the game is known beforehand.
 */
const DOTS = new URL('../fixtures/realdata/dots/', import.meta.url);
const USSR_1947 = new URL('../fixtures/realdata/checkers/russian/ussr1947.pdn', import.meta.url);

interface Relative {
  readonly id: number;
  readonly relation: 'same' | 'prefix' | 'extension';
  readonly transform: TransformName | null;
  readonly coloursSwapped: boolean;
}


/** The SGF cut after its `keep`-th move node. */
function cutSgf(sgf: string, keep: number): string {
  let seen = 0;
  const at = sgf.replace(/;\s*(B|W)\[/g, (match) => (++seen === keep + 1 ? '\u0000' : match)).indexOf('\u0000');
  return at < 0 ? sgf : `${sgf.slice(0, at)})`;
}

/** A PDN game's text cut after its `keep`-th move (`c3-d4`, `c3:e5:g3`), its result made open. */
function cutPdn(pdn: string, keep: number): string {
  const moves = [...pdn.matchAll(/\b[a-h][1-8](?:[-:x][a-h][1-8])+/g)];
  expect(moves.length).toBeGreaterThan(keep);
  return `${pdn.slice(0, moves[keep].index).replace(/\s*\d+\.\s*$/, '').replace(/\[Result "[^"]*"\]/, '[Result "*"]')} *\n`;
}

describe('identity: a Dots game as zagram SGF, VK code, turned and cut; a draughts game as PDN, BARS and cut', () => {
  let archive: TestArchive;

  const upload = async (bytes: Buffer | string, filename: string): Promise<{ id: number; sameAs: number[] }> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; sameAs: number[] };
  };
  const relativesOf = async (id: number): Promise<Relative[]> => {
    const response = await fetch(`${archive.baseUrl}/games/${id}/relatives`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: Relative[] }).items.map(({ id: other, relation, transform, coloursSwapped }) => ({ id: other, relation, transform, coloursSwapped }));
  };
  const exported = async (id: number, format: string): Promise<Buffer> => {
    const response = await fetch(`${archive.baseUrl}/games/${id}/export?format=${encodeURIComponent(format)}`);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('finds a zagram game as the VK code of it, turned by hand and cut by hand, and no other zagram game', async () => {
    const files = (readdirSync(DOTS, { recursive: true }) as string[]).filter((name) => /(^|\/)zagram\d+\.sgf$/.test(name)).sort();
    let original: { id: number; sgf: string; width: number; height: number; moves: number; vk: Buffer } | null = null;
    const others: number[] = [];
    for (const name of files) {
      const bytes = readFileSync(new URL(name, DOTS));
      const response = await post(archive, `/games?filename=${encodeURIComponent(name)}`, bytes);
      if (response.status !== 201) continue;
      const game = (await response.json()) as { id: number; status: string; moveCount: number | null; facts: { boardWidth: number; boardHeight: number } | null };
      if (game.status !== 'indexed' || !game.facts) continue;
      // The first long game a VK code can hold (its field and rules).
      const vkCode: Response | null = original || (game.moveCount ?? 0) < 60 ? null : await fetch(`${archive.baseUrl}/games/${game.id}/export?format=${encodeURIComponent('VK Dots/code')}`);
      if (vkCode?.status === 200) {
        original = { id: game.id, sgf: bytes.toString('utf8'), width: game.facts.boardWidth, height: game.facts.boardHeight, moves: game.moveCount!, vk: Buffer.from(await vkCode.arrayBuffer()) };
      } else others.push(game.id);
    }
    expect(original).not.toBeNull();
    const { id, sgf, width, height, moves } = original!;
    const vk = await upload(original!.vk, 'converted.txt');
    expect(vk.sameAs).toEqual([id]);
    const turned = await upload(turnedDotsSgf(sgf, width, height, 'rotate180'), 'turned.sgf');
    expect(turned.sameAs).toEqual([id, vk.id]);
    const cut = await upload(cutSgf(sgf, 40), 'cut.sgf');
    expect(cut.sameAs).toEqual([]);
    expect(moves).toBeGreaterThan(40);

    expect(await relativesOf(id)).toEqual([
      { id: vk.id, relation: 'same', transform: null, coloursSwapped: false },
      { id: turned.id, relation: 'same', transform: 'rotate180', coloursSwapped: false },
      { id: cut.id, relation: 'prefix', transform: null, coloursSwapped: false },
    ]);
    expect(await relativesOf(cut.id)).toEqual([
      { id, relation: 'extension', transform: null, coloursSwapped: false },
      { id: vk.id, relation: 'extension', transform: null, coloursSwapped: false },
      { id: turned.id, relation: 'extension', transform: 'rotate180', coloursSwapped: false },
    ]);
    // The other zagram games are other games.
    for (const other of others) expect((await relativesOf(other)).filter((relative) => [id, vk.id, turned.id, cut.id].includes(relative.id))).toEqual([]);
  });

  it('finds a VK code starting from a cross as the SGF writing the cross as setup', async () => {
    const vk = await upload(['1.0', '101 Anna', '202 Boris', '-b+', 'hhhiiiihggjjgjjg', ''].join('\n'), 'cross.txt');
    const sgf = await upload('(;GM[40]FF[4]SZ[35]AB[qq][rr]AW[rq][qr];B[pp];W[ss];B[sp];W[ps])', 'cross.sgf');
    expect(sgf.sameAs).toEqual([vk.id]);
    expect(await relativesOf(vk.id)).toEqual([{ id: sgf.id, relation: 'same', transform: null, coloursSwapped: false }]);
  });

  it('finds a USSR 1947 game as its BARS file and as its first 30 plies', async () => {
    const answer = await post(archive, '/uploads?filename=ussr1947.pdn', readFileSync(USSR_1947));
    expect(answer.status).toBe(201);
    const games = ((await answer.json()) as { games: { gameId: number | null; outcome: string; sameAs: number[] }[] }).games;
    let source: { id: number; pdn: string } | null = null;
    for (const game of games) {
      if (game.outcome !== 'indexed' || game.gameId === null) continue;
      const view = (await (await fetch(`${archive.baseUrl}/games/${game.gameId}`)).json()) as { moveCount: number };
      if (view.moveCount >= 50) {
        source = { id: game.gameId, pdn: (await (await fetch(`${archive.baseUrl}/games/${game.gameId}/raw`)).text()) };
        break;
      }
    }
    expect(source).not.toBeNull();
    const bars = await upload(await exported(source!.id, 'BARS/1'), 'converted.bars');
    expect(bars.sameAs).toContain(source!.id);
    const cut = await upload(cutPdn(source!.pdn, 30), 'cut.pdn');
    const relatives = await relativesOf(source!.id);
    expect(relatives).toContainEqual({ id: bars.id, relation: 'same', transform: null, coloursSwapped: false });
    expect(relatives).toContainEqual({ id: cut.id, relation: 'prefix', transform: null, coloursSwapped: false });
    const ofCut = await relativesOf(cut.id);
    expect(ofCut.filter((relative) => relative.relation !== 'extension')).toEqual([]);
    expect(ofCut.map((relative) => relative.id)).toEqual(expect.arrayContaining([source!.id, bars.id]));
  });
});
