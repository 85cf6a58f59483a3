import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { pdnDraughtsPlugin } from '../../src/formats/plugins/pdn-draughts/plugin.js';
import type { CheckersInterchange } from '../../src/formats/families/checkers/interchange.js';
import { setupPosition } from '../../src/formats/families/checkers/interchange.js';
import { applyMove, judgeMove, Position } from '../../src/rules/checkers/index.js';

/*
 * Draughts search by squares and material on both real PDN databases (USSR 1947 and the
 * championships of 1965–93) and on a game written here, against a brute force written in this file:
 * each game is read by the PDN plugin into the family's model and replayed move by move with the
 * rules engine (up to its first move the rules refuse, as the archive does), and every board is
 * tested square by square against the pattern, piece by piece against the material bounds. The
 * archive must list exactly the games the brute force finds, each at the first ply it finds.
 */
const FILES = ['ussr1947.pdn', 'abatsiev.pdn'].map((name) => new URL(`../fixtures/realdata/checkers/russian/${name}`, import.meta.url));
const FILE_LETTERS = 'abcdefgh';
const options = { timeBudgetMs: 5000, limits: DEFAULT_LIMITS };

/** A board as 8 strings of 8 characters, rank 8 first: `w b W B` pieces, `.` an empty dark square, `-` a light one. */
type Board = string[];

function boardOf(position: Position): Board {
  const rows: Board = [];
  for (let row = 0; row < 8; row++) {
    let text = '';
    for (let column = 0; column < 8; column++) {
      const dark = (row + column) % 2 === 1;
      const cell = position.cells[row * 8 + column];
      text += !dark ? '-' : cell === 1 ? 'w' : cell === 11 ? 'W' : cell === 2 ? 'b' : cell === 12 ? 'B' : '.';
    }
    rows.push(text);
  }
  return rows;
}

/** The boards of a game's main line: the start, then after each move the rules accept. */
function replayBoards(model: CheckersInterchange): Board[] {
  let position = model.setup ? setupPosition(model.setup) : Position.initial();
  const boards = [boardOf(position)];
  for (const source of model.main.moves) {
    const judgement = judgeMove(position, source);
    if (!judgement.legal) break;
    position = applyMove(position, judgement.move);
    boards.push(boardOf(position));
  }
  return boards;
}

type Bounds = [number | null, number | null];
interface Material {
  white?: { men?: Bounds; kings?: Bounds };
  black?: { men?: Bounds; kings?: Bounds };
}
interface Query {
  pattern?: string[];
  material?: Material;
  plyFrom?: number;
  plyTo?: number;
}

const within = (count: number, bounds: Bounds | undefined) => !bounds || ((bounds[0] === null || count >= bounds[0]) && (bounds[1] === null || count <= bounds[1]));
const count = (board: Board, piece: string) => board.join('').split(piece).length - 1;

/** Whether a board is what the query asks, character by character and piece by piece. */
function holds(board: Board, query: Query): boolean {
  if (query.pattern) {
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const want = query.pattern[r][c];
        // A light square is always empty: "-" (or "." or "*") there asks nothing.
        if (want === '*' || (r + c) % 2 === 0) continue;
        if (board[r][c] !== want) return false;
      }
    }
  }
  const m = query.material;
  if (m) {
    if (!within(count(board, 'w'), m.white?.men) || !within(count(board, 'W'), m.white?.kings)) return false;
    if (!within(count(board, 'b'), m.black?.men) || !within(count(board, 'B'), m.black?.kings)) return false;
  }
  return true;
}

interface Item {
  readonly id: number;
  readonly ply: number;
  readonly where: { transform: string; left: number; top: number; width: number; height: number; colorsSwapped: boolean };
}
interface Page {
  readonly items: Item[];
  readonly next: string | null;
  readonly total: number;
}

describe('patterns: draughts by squares and material against a brute force', () => {
  let archive: TestArchive;
  const games = new Map<number, Board[]>();
  let written = 0;
  let refused = 0;

  /** The boards GET /games/{id}/replay shows: the start, then after each ply until the first without a board. */
  const replayedBoards = async (id: number): Promise<Board[]> => {
    const replay = (await (await fetch(`${archive.baseUrl}/games/${id}/replay`)).json()) as { plies: { details?: { position?: number[][] } }[] };
    const boards = [boardOf(Position.initial())];
    for (const ply of replay.plies) {
      const rows = ply.details?.position;
      if (!rows) break;
      boards.push(rows.map((row, r) => row.map((cell, c) => ((r + c) % 2 === 0 ? '-' : cell === 1 ? 'w' : cell === 11 ? 'W' : cell === 2 ? 'b' : cell === 12 ? 'B' : '.')).join('')));
    }
    return boards;
  };

  beforeAll(async () => {
    archive = await startArchive();
    for (const file of FILES) {
      const bytes = readFileSync(file);
      const answer = await post(archive, `/uploads?filename=${file.pathname.split('/').pop()}`, bytes);
      expect(answer.status).toBe(201);
      const upload = (await answer.json()) as { games: { gameId: number | null; outcome: string }[] };
      const slices = pdnDraughtsPlugin.split!({ bytes }, options);
      expect(slices.length).toBe(upload.games.length);
      for (const [i, { gameId, outcome }] of upload.games.entries()) {
        if (outcome !== 'indexed' || gameId === null) continue;
        let model: CheckersInterchange | null = null;
        try {
          model = (await pdnDraughtsPlugin.toInterchange!({ bytes: bytes.subarray(slices[i].start, slices[i].end) }, options)) as CheckersInterchange;
        } catch {
          // A game with a move the rules refuse converts to no model: its boards are the archive's replay up to that move.
          refused++;
        }
        const shown = await replayedBoards(gameId);
        if (model) {
          const boards = replayBoards(model);
          expect(boards).toEqual(shown);
          games.set(gameId, boards);
        } else {
          games.set(gameId, shown);
        }
      }
    }
    // A game written here, its boards worked out by hand below.
    const pdn = '[Event "hand"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 h8-g7 *\n';
    const answer = await post(archive, '/games?filename=hand.pdn', Buffer.from(pdn));
    expect(answer.status).toBe(201);
    written = ((await answer.json()) as { id: number }).id;
  }, 240_000);
  afterAll(async () => {
    await archive?.close();
  });

  const search = (body: object) => fetch(`${archive.baseUrl}/patterns/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  const allPages = async (query: Query): Promise<{ found: Map<number, number>; total: number }> => {
    const found = new Map<number, number>();
    const response = await search({ family: 'checkers', ...query, limit: 40 });
    expect(response.status).toBe(200);
    const first = (await response.json()) as Page;
    for (let page = first; ; ) {
      for (const item of page.items) {
        expect(found.has(item.id)).toBe(false);
        expect(item.where).toEqual({ transform: 'identity', left: 0, top: 0, width: 8, height: 8, colorsSwapped: false });
        found.set(item.id, item.ply);
      }
      if (page.next === null) break;
      const next = await search({ cursor: page.next, limit: 40 });
      expect(next.status).toBe(200);
      page = (await next.json()) as Page;
    }
    return { found, total: first.total };
  };

  /** The brute force: each real game (the hand-written one left out) at the first ply the query holds, within its plies. */
  const expected = (query: Query): Map<number, number> => {
    const found = new Map<number, number>();
    for (const [id, boards] of games) {
      const last = Math.min(boards.length - 1, query.plyTo ?? Infinity);
      for (let ply = query.plyFrom ?? 0; ply <= last; ply++) {
        if (holds(boards[ply], query)) {
          found.set(id, ply);
          break;
        }
      }
    }
    return found;
  };

  const check = async (query: Query) => {
    const want = expected(query);
    const { found, total } = await allPages(query);
    const hand = found.delete(written) ? 1 : 0;
    expect(found).toEqual(want);
    expect(total).toBe(want.size + hand);
    return want.size;
  };

  /** A pattern cut from a real board: `keep` of its dark squares as they stand (every `step`-th from `offset`), the rest `*`. */
  const cut = (board: Board, step: number, offset: number): string[] => {
    let k = 0;
    return board.map((row) => [...row].map((cell) => (cell === '-' ? '-' : k++ % step === offset ? cell : '*')).join(''));
  };

  it('indexes every game of both databases that the rules replay', () => {
    expect(games.size).toBeGreaterThan(200);
    // The one game with garbage tokens (see the real data's README) is the only one the engine replay above could not read.
    expect(refused).toBeLessThanOrEqual(1);
  });

  it('the start position: every real game at ply 0, and none at ply 1 or later', async () => {
    const start = ['-b-b-b-b', 'b-b-b-b-', '-b-b-b-b', '.-.-.-.-', '-.-.-.-.', 'w-w-w-w-', '-w-w-w-w', 'w-w-w-w-'];
    expect(await check({ pattern: start })).toBe(games.size);
    expect(await check({ pattern: start, plyFrom: 1 })).toBe(0);
  });

  it('patterns cut from real boards, with and without a ply range', async () => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    let matched = 0;
    for (let i = 0; i < ids.length; i += 23) {
      const boards = games.get(ids[i])!;
      for (const [ply, step, offset] of [
        [Math.min(boards.length - 1, 6 + (i % 7)), 3, i % 3],
        [Math.min(boards.length - 1, 20 + (i % 11)), 4, i % 4],
        [boards.length - 1, 5, i % 5],
      ]) {
        const pattern = cut(boards[ply], step, offset);
        matched += await check({ pattern });
        await check({ pattern, plyFrom: Math.max(0, ply - 4), plyTo: ply + 6 });
      }
    }
    expect(matched).toBeGreaterThan(20);
  });

  it('material alone, and material with a pattern at the same ply', async () => {
    const found = [
      await check({ material: { white: { kings: [1, null] } } }),
      await check({ material: { white: { men: [0, 3] }, black: { men: [0, 3] } } }),
      await check({ material: { black: { kings: [2, 2] }, white: { kings: [0, 0] } } }),
      await check({ material: { white: { men: [8, 8], kings: [0, 0] }, black: { men: [8, 8], kings: [0, 0] } }, plyFrom: 10, plyTo: 40 }),
      await check({ material: { white: { men: [null, 6] } }, pattern: ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', 'w-*-*-*-'] }),
      await check({ material: { black: { men: [5, 9] } }, pattern: ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-.-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-'] }),
    ];
    expect(found.filter((n) => n > 0).length).toBeGreaterThanOrEqual(5);
  });

  it('a king on a square, and empty squares', async () => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    let kings = 0;
    for (const id of ids) {
      const board = games.get(id)!.find((rows) => /[WB]/.test(rows.join('')));
      if (!board) continue;
      // Only the kings kept; and, apart, the first four empty squares of the board.
      const onlyKings = board.map((row) => row.replace(/[wb.]/g, '*'));
      let empties = 0;
      const someEmpty = board.map((row) => [...row].map((cell) => (cell === '.' && empties++ < 4 ? '.' : cell === '-' ? '-' : '*')).join(''));
      expect(await check({ pattern: onlyKings })).toBeGreaterThan(0);
      expect(await check({ pattern: someEmpty })).toBeGreaterThan(0);
      if (++kings >= 6) break;
    }
    expect(kings).toBe(6);
  });

  it('the game written here, at the plies worked out by hand', async () => {
    // 1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 h8-g7: after ply 4 black's man stands on e5, f6 and g7 are empty,
    // d4 (from which white captured) is empty, and each side has 11 men.
    const after4 = ['-*-*-*-*', '*-*-*-.-', '-*-*-.-*', '*-*-b-*-', '-*-.-*-*', '*-.-*-*-', '-*-*-*-*', '*-*-*-*-'];
    const one = async (query: Query) => {
      const { found } = await allPages(query);
      return found.get(written);
    };
    expect(await one({ pattern: after4 })).toBe(4);
    // A white man on c3 again (b2-c3, ply 5), b2 empty, and h8 empty (h8-g7): ply 6.
    expect(await one({ pattern: ['-*-*-*-.', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-w-*-*-', '-.-*-*-*', '*-*-*-*-'] })).toBe(6);
    // Black loses a man at ply 3 (d4:f6 takes e5), white at ply 4 (g7:e5 takes f6).
    expect(await one({ material: { black: { men: [11, 11] } } })).toBe(3);
    expect(await one({ material: { white: { men: [null, 11] } } })).toBe(4);
    expect(await one({ material: { white: { men: [11, 11] }, black: { men: [11, 11] } } })).toBe(4);
    expect(await one({ material: { black: { men: [null, 11] } }, plyFrom: 5 })).toBe(5);
    expect(await one({ material: { black: { men: [null, 11] } }, plyTo: 3 })).toBe(3);
    expect(await one({ material: { black: { men: [null, 11] } }, plyTo: 2 })).toBeUndefined();
    expect(await one({ material: { black: { kings: [1, null] } } })).toBeUndefined();
    // White men on c3 at the start (ply 0) and again from ply 5; none at plies 1–4.
    const c3 = ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-w-*-*-', '-*-*-*-*', '*-*-*-*-'];
    expect(await one({ pattern: c3 })).toBe(0);
    expect(await one({ pattern: c3, plyFrom: 1 })).toBe(5);
    expect(await one({ pattern: c3, plyFrom: 1, plyTo: 4 })).toBeUndefined();
  });

  it('follows the archive: a game written again is found as before, a game deleted is not', async () => {
    const pdn = '[Event "later"]\n[Result "*"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. g3-h4 *\n';
    const answer = await post(archive, '/games?filename=later.pdn', Buffer.from(pdn));
    expect(answer.status).toBe(201);
    const later = ((await answer.json()) as { id: number }).id;
    // White's man gone from g3 (g3-h4): ply 5 of this game only.
    const g3 = ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-w', '*-*-*-.-', '-*-*-*-*', '*-*-*-*-'];
    const found = async () => (await allPages({ pattern: g3 })).found;
    expect((await found()).get(later)).toBe(5);
    expect((await fetch(`${archive.baseUrl}/games/${later}/reindex`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await found()).get(later)).toBe(5);
    expect((await fetch(`${archive.baseUrl}/games/${later}`, { method: 'DELETE' })).status).toBe(204);
    const after = await allPages({ pattern: g3 });
    expect(after.found.has(later)).toBe(false);
    expect(after.total).toBe(after.found.size);
  });

  it('filters of GET /games narrow it', async () => {
    const pattern = ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', 'w-*-*-*-'];
    const all = await allPages({ pattern });
    const few = await allPages({ pattern, movesMax: 40 } as Query);
    expect(few.found.size).toBeGreaterThan(0);
    expect(few.found.size).toBeLessThan(all.found.size);
    for (const [id, ply] of few.found) {
      expect(all.found.get(id)).toBe(ply);
      const game = (await (await fetch(`${archive.baseUrl}/games/${id}`)).json()) as { moveCount: number | null };
      expect(game.moveCount).toBeLessThanOrEqual(40);
    }
  });

  it('refuses what is no draughts pattern or no bounds, with a stable code', async () => {
    const full = ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-'];
    for (const [body, code] of [
      [{ pattern: full.slice(0, 7) }, 'pattern.invalid'],
      [{ pattern: [...full, full[0]] }, 'pattern.invalid'],
      [{ pattern: [full[0] + '*', ...full.slice(1)] }, 'pattern.invalid'],
      [{ pattern: ['w*-*-*-*', ...full.slice(1)] }, 'pattern.invalid'],
      [{ pattern: ['-*-*-*-*', '*-*-*-*B', ...full.slice(2)] }, 'pattern.invalid'],
      [{ pattern: ['-x-*-*-*', ...full.slice(1)] }, 'pattern.invalid'],
      [{ material: { white: { men: [5, 3] } } }, 'pattern.invalid'],
      [{ material: { black: { kings: [2, 1] } }, pattern: full }, 'pattern.invalid'],
      [{ material: { white: { men: [0, 13] } } }, 'request.invalid'],
      [{ material: { white: { pawns: [0, 1] } } }, 'request.invalid'],
      [{ material: { white: { men: [1] } } }, 'request.invalid'],
      [{}, 'request.invalid'],
      [{ pattern: full, plyFrom: 5, plyTo: 2 }, 'request.invalid'],
      [{ pattern: full, toMove: 'white' }, 'request.invalid'],
    ] as const) {
      const answer = await search({ family: 'checkers', ...body });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe(code);
    }
  });
});
