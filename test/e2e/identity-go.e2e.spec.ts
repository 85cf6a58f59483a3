import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import type { SabakiNode } from '../support/go/sabaki-sgf.js';
import { letters, replay } from '../support/positions/go-replay.js';
import { turnedPoint } from '../support/positions/grids.js';
import { turnedGoSgf } from '../support/positions/turned-sgf.js';
import type { TransformName } from '../../src/rules/symmetry.js';

/*
 * One game, many files, on the GNU Go games: each file's main line is read by @sabaki/sgf and
 * replayed by @sabaki/go-board (not the archive's code), and a brute force written here compares
 * every pair of files under the eight symmetries of the board, with the colours as they are and
 * swapped: same game, a broken-off copy (30 plies at least), or neither. The archive's relatives,
 * its `unique` search, its upload answers, its signatures and its player statistics must agree.
 */
const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];
const ORIGINALS = 60;

/** A game as the brute force sees it: the setup and the plies, colours counted from the first mover (0) . */
interface Line {
  readonly size: number;
  /** Setup stones as `x,y,colour`, colour 0 the first mover's. */
  readonly setup: readonly [number, number, number][];
  /** Each ply: [x, y] or null for a pass, and its colour counted from the first mover. */
  readonly plies: readonly { readonly point: readonly [number, number] | null; readonly colour: number }[];
  /** 1 black, -1 white: the first mover. */
  readonly first: number;
}

const colourOf = (node: SabakiNode | undefined) => (node?.data.B !== undefined ? 1 : node?.data.W !== undefined ? -1 : 0);

/** The main line of an SGF as the brute force compares it, up to the first move the rules refuse; null with setup inside the line. */
function lineOf(bytes: Buffer | string): Line | null {
  const root = sabakiRoot(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1'));
  const nodes: SabakiNode[] = [];
  for (let node = root.children[0]; node; node = node.children[0]) nodes.push(node);
  if (nodes.some((node) => node.data.AB || node.data.AW || node.data.AE)) return null;
  const replayed = replay(root);
  if (!replayed) return null;
  const moving = nodes.filter((node) => colourOf(node) !== 0);
  const first = colourOf(moving[0]) || 1;
  const setup: [number, number, number][] = [];
  for (const [id, sign] of [['AB', 1], ['AW', -1]] as const) {
    for (const value of root.data[id] ?? []) {
      const [x, y] = letters(value);
      setup.push([x, y, sign === first ? 0 : 1]);
    }
  }
  return {
    size: replayed.size,
    setup,
    plies: replayed.moves.map((point, i) => ({ point, colour: colourOf(moving[i]) === first ? 0 : 1 })),
    first,
  };
}

/** The line turned by a symmetry, as text: setup sorted, then each ply. */
function written(line: Line, name: TransformName, plies = line.plies.length): string[] {
  const turn = (x: number, y: number) => turnedPoint(x, y, line.size, line.size, name).join(',');
  const setup = line.setup.map(([x, y, c]) => `${turn(x, y)}:${c}`).sort().join(' ');
  return [`${line.size}|${setup}`, ...line.plies.slice(0, plies).map((ply) => `${ply.point ? turn(ply.point[0], ply.point[1]) : 'pass'}:${ply.colour}`)];
}

type Relation = 'same' | 'prefix' | 'extension';

/** How `other` relates to `game` by brute force, with every symmetry that maps `game`'s board onto `other`'s. */
function relationBetween(game: Line, other: Line): { relation: Relation; symmetries: TransformName[] } | null {
  const shorter = Math.min(game.plies.length, other.plies.length);
  const relation: Relation = other.plies.length === game.plies.length ? 'same' : other.plies.length < game.plies.length ? 'prefix' : 'extension';
  // A shorter file counts from 30 plies, or whole when it ended as the rules end a game that may go on (two passes).
  const short = other.plies.length < game.plies.length ? other : game;
  const ended = short.plies.length >= 2 && short.plies.slice(-2).every((ply) => ply.point === null);
  if (relation !== 'same' && shorter < 30 && !ended) return null;
  const start = written(other, 'identity', Math.min(shorter, 2)).join(';');
  const target = written(other, 'identity', shorter).join(';');
  // The first plies first: most pairs differ there, and the whole lines need not be written.
  const symmetries = NAMES.filter((name) => written(game, name, Math.min(shorter, 2)).join(';') === start && written(game, name, shorter).join(';') === target);
  return symmetries.length > 0 ? { relation, symmetries } : null;
}

/** The Dyer signature by hand: moves 20, 31, 40, 51, 60 and 71 in SGF letters, the least text over the symmetries. */
function dyer(line: Line): string | null {
  if (line.plies.length < 20) return null;
  const texts = NAMES.map((name) =>
    [20, 31, 40, 51, 60, 71]
      .map((n) => {
        const point = line.plies[n - 1]?.point;
        if (!point) return '__';
        const [x, y] = turnedPoint(point[0], point[1], line.size, line.size, name);
        return String.fromCharCode(97 + x) + String.fromCharCode(97 + y);
      })
      .join(''),
  );
  return texts.sort()[0];
}


/** The same SGF with the colours swapped: black's moves, stones and name become white's. */
function swappedSgf(sgf: string): string {
  const swap: Record<string, string> = { B: 'W', W: 'B', AB: 'AW', AW: 'AB', PB: 'PW', PW: 'PB', BR: 'WR', WR: 'BR' };
  return sgf.replace(/([;\s\]])(B|W|AB|AW|PB|PW|BR|WR)\[/g, (_m, before: string, id: string) => `${before}${swap[id]}[`).replace(/RE\[[^\]]*\]/, '');
}

/** The SGF cut after its `keep`-th move node. */
function cutSgf(sgf: string, keep: number): string {
  let seen = 0;
  const at = sgf.replace(/;\s*(B|W)\[/g, (match) => (++seen === keep + 1 ? '\u0000' : match)).indexOf('\u0000');
  return at < 0 ? sgf : `${sgf.slice(0, at)})`;
}

/** The game written by hand as GoFans 1.1 (0-based x, y; a pass is a move without them). */
function gofansByHand(line: Line, black: string, white: string): string {
  const colours = line.first === 1 ? ['black', 'white'] : ['white', 'black'];
  const moves = line.plies
    .map((ply) => {
      const seat = line.first === 1 ? ply.colour : 1 - ply.colour;
      const colour = colours[ply.colour];
      return ply.point ? `<move playerId="${seat}" color="${colour}" x="${ply.point[0]}" y="${ply.point[1]}"/>` : `<move playerId="${seat}"/>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Game><Publisher>GoFans</Publisher><Version>1.1</Version><Header><boardSize>${line.size}</boardSize><players><player id="0" name="${black}" points="0"/><player id="1" name="${white}" points="0"/></players></Header>\n<Body>${moves}</Body></Game>\n`;
}

interface Listed {
  readonly id: number;
  readonly copyOf: number | null;
  readonly copies: number;
  readonly facts: { readonly signature: string | null } | null;
}

describe('identity: the GNU Go games as SGF, GoFans, turned, with colours swapped and cut short, against a brute force', () => {
  let archive: TestArchive;
  /** Each stored file's line, by game id, in upload order. */
  const lines = new Map<number, Line>();
  const sameAsAnswers = new Map<number, number[]>();
  let original = 0;
  let originalSgf = '';

  const upload = async (bytes: Buffer | string, filename: string, line: Line | null): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect(response.status).toBe(201);
    const game = (await response.json()) as { id: number; sameAs: number[] };
    if (line) lines.set(game.id, line);
    sameAsAnswers.set(game.id, game.sameAs);
    return game.id;
  };

  /** What the brute force expects as `id`'s relatives: every other file with its relation (worked out once). */
  const relatives = new Map<number, { id: number; relation: Relation; symmetries: TransformName[] }[]>();
  const expectedRelatives = (id: number) => {
    let found = relatives.get(id);
    if (!found) {
      found = [...lines]
        .filter(([other]) => other !== id)
        .flatMap(([other, line]) => {
          const relation = relationBetween(lines.get(id)!, line);
          return relation ? [{ id: other, ...relation }] : [];
        });
      relatives.set(id, found);
    }
    return found;
  };

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    let uploaded = 0;
    for (const name of files) {
      if (uploaded >= ORIGINALS) break;
      const bytes = readFileSync(new URL(name, FOLDER));
      const line = lineOf(bytes);
      if (!line || line.size !== 19) continue;
      const id = await upload(bytes, name, line);
      uploaded++;
      if (original === 0 && line.setup.length === 0 && line.plies.length >= 120 && line.plies.every((ply) => ply.point !== null)) {
        original = id;
        originalSgf = bytes.toString('latin1');
      }
    }
    expect(original).toBeGreaterThan(0);
    const line = lines.get(original)!;
    // Copies made here by hand.
    const turned = turnedGoSgf(originalSgf, 19, 'rotate90');
    await upload(turned, 'turned.sgf', lineOf(turned));
    const swapped = turnedGoSgf(swappedSgf(originalSgf), 19, 'mirrorX');
    await upload(swapped, 'swapped.sgf', lineOf(swapped));
    const cut = cutSgf(turnedGoSgf(originalSgf, 19, 'transpose'), Math.floor(line.plies.length * 0.6));
    await upload(cut, 'cut.sgf', lineOf(cut));
    await upload(gofansByHand(line, 'Black by hand', 'White by hand'), 'by-hand.xml', line);
    // The archive's own conversion to GoFans 2.1.
    const converted = await fetch(`${archive.baseUrl}/games/${original}/export?format=${encodeURIComponent('GoFans/2.1')}`);
    expect(converted.status).toBe(200);
    await upload(Buffer.from(await converted.arrayBuffer()), 'converted.xml', line);
    // 50 plies in common, then two passes and the rest: neither the same game nor a copy of it.
    const fifty = cutSgf(originalSgf, 50);
    const diverged = `${fifty.slice(0, -1)};${line.first === 1 ? 'B' : 'W'}[];${line.first === 1 ? 'W' : 'B'}[]${originalSgf.slice(cutSgf(originalSgf, 50).length - 1)}`;
    const divergedLine = lineOf(diverged)!;
    expect(divergedLine.plies.length).toBe(line.plies.length + 2);
    await upload(diverged, 'diverged.sgf', divergedLine);
    // A short game both players passed out of, the same game resumed after the passes, and that turned;
    // and its first six moves alone, which end by no rule: too short to be anyone's copy.
    const ended = '(;GM[1]FF[4]SZ[19];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[];W[])';
    const resumed = `${ended.slice(0, -1)};B[jj];W[jd];B[jp])`;
    for (const [name, sgf] of [['ended.sgf', ended], ['resumed.sgf', resumed], ['resumed-turned.sgf', turnedGoSgf(resumed, 19, 'mirrorY')], ['six.sgf', '(;GM[1]FF[4]SZ[19];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn])']]) {
      await upload(sgf, name, lineOf(sgf));
    }
  }, 300_000);

  afterAll(async () => {
    await archive?.close();
  });

  it('finds every relative the brute force finds, with its relation, a symmetry that maps the boards and whether the colours are swapped', async () => {
    let checked = 0;
    for (const [id, line] of lines) {
      const response = await fetch(`${archive.baseUrl}/games/${id}/relatives?limit=500`);
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: { id: number; relation: Relation; transform: TransformName | null; coloursSwapped: boolean }[] };
      const expected = expectedRelatives(id);
      expect(items.map((item) => [item.id, item.relation])).toEqual(expected.map((item) => [item.id, item.relation]));
      for (const item of items) {
        const found = expected.find((candidate) => candidate.id === item.id)!;
        expect(found.symmetries).toContain(item.transform ?? 'identity');
        if (found.symmetries.includes('identity')) expect(item.transform).toBeNull();
        expect(item.coloursSwapped).toBe(line.first !== lines.get(item.id)!.first);
      }
      checked += items.length;
    }
    // The copies made here are found: the original has 5 other files of its game or part of it.
    const ofOriginal = expectedRelatives(original);
    expect(ofOriginal.filter((item) => item.relation === 'same')).toHaveLength(4);
    expect(ofOriginal.filter((item) => item.relation === 'prefix')).toHaveLength(1);
    expect(checked).toBeGreaterThanOrEqual(12);
    // The game both players passed out of is the beginning of its resumed files, turned or not; its first six moves are nobody's copy.
    const [ended, resumed, resumedTurned, six] = [...lines.keys()].slice(-4);
    expect(expectedRelatives(ended).map((item) => [item.id, item.relation])).toEqual([[resumed, 'extension'], [resumedTurned, 'extension']]);
    expect(expectedRelatives(six)).toEqual([]);
  });

  it('names, in each upload answer, the games stored before it that hold the same game', () => {
    const ids = [...lines.keys()];
    for (const [index, id] of ids.entries()) {
      const earlier = new Set(ids.slice(0, index));
      const expected = expectedRelatives(id).filter((item) => item.relation === 'same' && earlier.has(item.id)).map((item) => item.id);
      expect(sameAsAnswers.get(id)).toEqual(expected);
    }
    expect(sameAsAnswers.get([...lines.keys()].at(-6)!)).toContain(original);
  });

  it('lists each game once with unique=true: the first file of a game, or the longer file a broken-off copy begins', async () => {
    const all: Listed[] = [];
    const unique: Listed[] = [];
    for (const [query, into] of [['', all], ['unique=true&', unique]] as const) {
      let cursor: string | null = null;
      do {
        const page: Response = await fetch(`${archive.baseUrl}/games?${query}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        const body = (await page.json()) as { items: Listed[]; next: string | null };
        into.push(...body.items);
        cursor = body.next;
      } while (cursor);
    }
    // A search of each game once folds copies of 30 plies or more; a shorter game that ended by rule stays listed.
    const standsFor = (id: number) =>
      expectedRelatives(id).filter((other) => (other.relation === 'extension' && lines.get(id)!.plies.length >= 30) || (other.relation === 'same' && other.id < id));
    const expectedUnique = [...lines.keys()].filter((id) => standsFor(id).length === 0).sort((a, b) => b - a);
    expect(unique.map((game) => game.id)).toEqual(expectedUnique);
    expect(unique.length).toBeLessThan(all.length);
    for (const game of all) {
      const standing = standsFor(game.id);
      if (standing.length === 0) {
        expect(game.copyOf).toBeNull();
        const copies = expectedRelatives(game.id).filter((other) => (other.relation === 'prefix' && lines.get(other.id)!.plies.length >= 30) || (other.relation === 'same' && other.id > game.id));
        expect(game.copies).toBe(copies.length);
      } else {
        expect(standing.map((other) => other.id)).toContain(game.copyOf);
      }
    }
    expect(all.find((game) => game.id === original)!.copies).toBe(5);
  });

  it('gives each game its Dyer signature and finds a game by it whichever way its file is turned', async () => {
    const signature = dyer(lines.get(original)!)!;
    expect(signature).toMatch(/^([a-s]{2}|__){6}$/);
    const response = await fetch(`${archive.baseUrl}/games?signature=${signature}&limit=100`);
    expect(response.status).toBe(200);
    const found = ((await response.json()) as { items: Listed[] }).items;
    const expected = [...lines].filter(([, line]) => dyer(line) === signature).map(([id]) => id).sort((a, b) => b - a);
    expect(found.map((game) => game.id)).toEqual(expected);
    // The original, turned, swapped (colours do not enter the signature), by hand, converted, diverged at 50 (the same first 50 moves).
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const game of found) expect(game.facts?.signature).toBe(signature);
    const bad = await fetch(`${archive.baseUrl}/games?signature=Q16`);
    expect(bad.status).toBe(400);
  });

  it("counts each game once in a player's statistics", async () => {
    const standsAlone = (id: number) =>
      !expectedRelatives(id).some((other) => (other.relation === 'extension' && lines.get(id)!.plies.length >= 30) || (other.relation === 'same' && other.id < id));
    const original_ = (await (await fetch(`${archive.baseUrl}/games/${original}`)).json()) as { players: { name: string | null }[] };
    const name = original_.players.find((player) => player.name)?.name;
    expect(name).toBeTruthy();
    const key = name!.normalize('NFKC').toLowerCase();
    // The games of the files stored here with that player, each read back whole.
    const withPlayer: number[] = [];
    for (const id of lines.keys()) {
      const game = (await (await fetch(`${archive.baseUrl}/games/${id}`)).json()) as { players: { name: string | null }[] };
      if (game.players.some((player) => player.name?.normalize('NFKC').toLowerCase() === key)) withPlayer.push(id);
    }
    const statistics = (await (await fetch(`${archive.baseUrl}/players/${encodeURIComponent(key)}`)).json()) as { overall: { played: number } };
    expect(statistics.overall.played).toBe(withPlayer.filter(standsAlone).length);
    expect(statistics.overall.played).toBeLessThan(withPlayer.length);
  });

  it('exports each game once with unique=true, as the search lists them', async () => {
    const unique = (await (await fetch(`${archive.baseUrl}/games?unique=true&limit=100`)).json()) as { items: Listed[] };
    const exported = await fetch(`${archive.baseUrl}/games/export?unique=true`, { headers: { Accept: 'application/x-ndjson' } });
    expect(exported.status).toBe(200);
    const lines = (await exported.text()).split('\n').filter((line) => line.startsWith('{"id"'));
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(unique.items.map((game) => game.id));
  });

  it('answers 404 for no game and 409 for games without an identity, which POST /reindex gives them', async () => {
    expect((await fetch(`${archive.baseUrl}/games/999999/relatives`)).status).toBe(404);
    const dataSource = archive.app.get<DataSource>(getDataSourceToken());
    // As if stored before identities were kept: the table emptied, the games and their bytes as they are.
    await dataSource.query(`DELETE FROM game_identities`);
    const missing = await fetch(`${archive.baseUrl}/games/${original}/relatives`);
    expect(missing.status).toBe(409);
    expect(((await missing.json()) as { code: string }).code).toBe('identity.not_indexed');
    const reindexed = await post(archive, `/reindex?limit=1000`, '');
    expect(reindexed.status).toBe(200);
    for (const id of [original, ...[...lines.keys()].slice(-7)]) {
      const again = (await (await fetch(`${archive.baseUrl}/games/${id}/relatives?limit=500`)).json()) as { items: { id: number; relation: Relation }[] };
      expect(again.items.map((item) => [item.id, item.relation])).toEqual(expectedRelatives(id).map((item) => [item.id, item.relation]));
    }
  });
});
