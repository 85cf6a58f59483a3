import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/*
 * Search by position on both real PDN databases (USSR 1947 and the championships of 1965–93), checked
 * against a brute-force search written here over the boards the archive's replay shows after each
 * ply (GET /games/{id}/replay: the rules engine's boards, not the position index's keys): a draughts
 * position is the pieces on their squares and the side to move, compared as they stand (the board
 * has a side for each colour: no symmetry). Positions written out as FEN, by square names and by
 * numbers 1–32, must find the same games.
 */
const FILES = ['ussr1947.pdn', 'abatsiev.pdn'].map((name) => new URL(`../fixtures/realdata/checkers/russian/${name}`, import.meta.url));
const FILES_LETTERS = 'abcdefgh';

type Rows = number[][];
interface Game {
  /** The ratings the test wrote into the game's tags, null where it wrote none. */
  readonly ratings: { white: number; black: number } | null;
  readonly boards: string[];
  readonly rows: Rows[];
  /** The move from each position as `from` and `to` square names; absent after the last. */
  readonly moves: { from: string; to: string }[];
}

/** The standard start: black men on the dark squares of rows 0–2 (rank 8 at the top), white men on rows 5–7. */
function startRows(): Rows {
  return Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c) => ((r + c) % 2 === 0 ? 9 : r < 3 ? 2 : r > 4 ? 1 : 0)));
}

/**
 * The file with ratings written into it by the test: `WhiteRating` and `BlackRating` tags after each
 * game's Event tag (every fifth game none), drawn by a seeded generator. Read as Latin-1 so that every
 * other byte stays as it is.
 */
function withRatings(bytes: Buffer): Buffer {
  let game = 0;
  let state = 47;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % 900;
  const text = bytes.toString('latin1').replace(/^\[Event [^\n]*\n/gm, (line) => {
    if (++game % 5 === 0) return line;
    const end = line.endsWith('\r\n') ? '\r\n' : '\n';
    return `${line}[WhiteRating "${1500 + next()}"]${end}[BlackRating "${1500 + next()}"]${end}`;
  });
  return Buffer.from(text, 'latin1');
}

const text = (rows: Rows, whiteToMove: boolean) => `${whiteToMove ? 'W' : 'B'}|${rows.map((row) => row.join(',')).join('/')}`;
const square = (x: number, y: number) => `${FILES_LETTERS[x]}${8 - y}`;
/** PDN's number of a dark square (1 = b8 … 32 = g1). */
const numberOf = (x: number, y: number) => y * 4 + Math.floor(x / 2) + 1;

function fen(rows: Rows, whiteToMove: boolean, numbered: boolean): string {
  const sides: Record<'W' | 'B', string[]> = { W: [], B: [] };
  rows.forEach((row, y) =>
    row.forEach((cell, x) => {
      if (cell === 0 || cell === 9) return;
      const name = numbered ? String(numberOf(x, y)) : square(x, y);
      (cell % 10 === 1 ? sides.W : sides.B).push(cell > 10 ? `K${name}` : name);
    }),
  );
  return `${whiteToMove ? 'W' : 'B'}:W${sides.W.join(',')}:B${sides.B.join(',')}`;
}

describe('positions: the Russian draughts databases against a brute-force search', () => {
  let archive: TestArchive;
  const games = new Map<number, Game>();

  beforeAll(async () => {
    archive = await startArchive();
    for (const file of FILES) {
      const bytes = withRatings(readFileSync(file));
      const answer = await post(archive, `/uploads?filename=${file.pathname.split('/').pop()}`, bytes);
      expect(answer.status).toBe(201);
      const upload = (await answer.json()) as { games: { gameId: number | null; outcome: string; start: number; end: number }[] };
      for (const { gameId, outcome, start, end } of upload.games) {
        if (outcome !== 'indexed' || gameId === null) continue;
        const tags = bytes.subarray(start, end).toString('latin1');
        const rating = (side: string) => {
          const written = new RegExp(`\\[${side}Rating "(\\d+)"\\]`).exec(tags);
          return written ? Number(written[1]) : null;
        };
        const white = rating('White');
        const black = rating('Black');
        const replay = (await (await fetch(`${archive.baseUrl}/games/${gameId}/replay`)).json()) as {
          plies: { details?: { position: Rows; from: { x: number; y: number }; to: { x: number; y: number } } }[];
        };
        const rows: Rows[] = [startRows()];
        const moves: { from: string; to: string }[] = [];
        for (const ply of replay.plies) {
          if (!ply.details?.position) break;
          moves.push({ from: square(ply.details.from.x, ply.details.from.y), to: square(ply.details.to.x, ply.details.to.y) });
          rows.push(ply.details.position);
        }
        const ratings = white !== null && black !== null ? { white, black } : null;
        games.set(gameId, { ratings, rows, moves, boards: rows.map((r, ply) => text(r, ply % 2 === 0)) });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await archive?.close();
  });

  const expected = (board: string) => {
    const found = new Map<number, number>();
    for (const [id, game] of games) {
      const ply = game.boards.indexOf(board);
      if (ply >= 0) found.set(id, ply);
    }
    return found;
  };

  const allPages = async (first: string, body?: object) => {
    const found = new Map<number, number>();
    let total = -1;
    let cursor: string | null = null;
    do {
      const response: Response =
        body === undefined
          ? await fetch(`${archive.baseUrl}${cursor === null ? first : `/positions/games?cursor=${cursor}&limit=50`}`)
          : await fetch(`${archive.baseUrl}/positions/games`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(cursor === null ? { ...body, limit: 50 } : { family: 'checkers', fen: 'W:W:B', cursor, limit: 50 }),
            });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { items: { id: number; ply: number; transform: string }[]; next: string | null; total: number };
      for (const item of page.items) {
        expect(item.transform).toBe('identity');
        found.set(item.id, item.ply);
      }
      total = page.total;
      cursor = page.next;
    } while (cursor !== null);
    return { found, total };
  };

  const samples = (): [number, number][] => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const picks: [number, number][] = [[ids[0], 0]];
    for (let i = 0; i < ids.length; i += 11) {
      const game = games.get(ids[i])!;
      picks.push([ids[i], Math.min(game.rows.length - 1, 1 + (i % 9))], [ids[i], Math.min(game.rows.length - 1, 12 + (i % 15))], [ids[i], game.rows.length - 1]);
    }
    return picks;
  };

  it('indexes every game of both databases that the rules replay', () => {
    expect(games.size).toBeGreaterThan(200);
  });

  it('finds the games the brute force finds, by game and ply and by FEN (names and numbers), each at its first ply', async () => {
    let compared = 0;
    for (const [id, ply] of samples()) {
      const game = games.get(id)!;
      const want = expected(game.boards[ply]);
      const byGame = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=50`);
      expect(byGame.total).toBe(want.size);
      expect(byGame.found).toEqual(want);
      for (const numbered of [false, true]) {
        const byFen = await allPages('', { family: 'checkers', fen: fen(game.rows[ply], ply % 2 === 0, numbered), limit: 50 });
        expect(byFen.found).toEqual(want);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('the explorer gives each game\'s move after its first arrival, from and to, with the most played first', async () => {
    for (const [id, ply] of samples().slice(0, 25)) {
      const want = new Map<string, number>();
      for (const [game, at] of expected(games.get(id)!.boards[ply])) {
        const move = games.get(game)!.moves[at];
        if (!move) continue;
        const key = `${move.from}>${move.to}`;
        want.set(key, (want.get(key) ?? 0) + 1);
      }
      const answer = (await (await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}`)).json()) as { games: number; moves: { move: string; games: number }[] };
      expect(answer.games).toBe(expected(games.get(id)!.boards[ply]).size);
      const got = new Map<string, number>();
      for (const move of answer.moves) {
        const squares = move.move.split(/[-:]/);
        const key = `${squares[0]}>${squares[squares.length - 1]}`;
        got.set(key, (got.get(key) ?? 0) + move.games);
      }
      expect(got).toEqual(want);
      expect(answer.moves.map((m) => m.games)).toEqual([...answer.moves.map((m) => m.games)].sort((a, b) => b - a));
    }
  });

  it('the explorer by year averages the ratings of the side that played each move (white on even plies from the start)', async () => {
    let averaged = 0;
    for (const [id, ply] of samples().slice(0, 25)) {
      const want = new Map<string, { sum: number; rated: number }>();
      for (const [game, at] of expected(games.get(id)!.boards[ply])) {
        const { moves, ratings } = games.get(game)!;
        const move = moves[at];
        if (!move) continue;
        const key = `${move.from}>${move.to}`;
        const sums = want.get(key) ?? { sum: 0, rated: 0 };
        if (ratings !== null) {
          sums.sum += at % 2 === 0 ? ratings.white : ratings.black;
          sums.rated++;
        }
        want.set(key, sums);
      }
      const answer = (await (await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}&by=year`)).json()) as {
        moves: { move: string; averageRating?: number | null; averageRank?: number | null }[];
      };
      const keyOf = (move: string) => {
        const squares = move.split(/[-:]/);
        return `${squares[0]}>${squares[squares.length - 1]}`;
      };
      for (const move of answer.moves) {
        expect(move.averageRank).toBeUndefined();
        // Two capture routes between the same squares are two moves of the answer: compare only unambiguous ones.
        if (answer.moves.filter((other) => keyOf(other.move) === keyOf(move.move)).length > 1) continue;
        const sums = want.get(keyOf(move.move))!;
        expect(move.averageRating).toBe(sums.rated === 0 ? null : Math.round(sums.sum / sums.rated));
        if (sums.rated > 0) averaged++;
      }
    }
    expect(averaged).toBeGreaterThan(20);
  });

  it('the start: every game, and the explorer counts their first moves', async () => {
    const start = text(startRows(), true);
    const want = expected(start);
    expect(want.size).toBe(games.size);
    const answer = (await (
      await fetch(`${archive.baseUrl}/positions/explorer`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ family: 'checkers', fen: 'W:W21-32:B1-12' }) })
    ).json()) as { games: number; moves: { move: string; notation: string; games: number }[] };
    expect(answer.games).toBe(games.size);
    const firsts = new Map<string, number>();
    for (const game of games.values()) if (game.moves[0]) firsts.set(`${game.moves[0].from}-${game.moves[0].to}`, (firsts.get(`${game.moves[0].from}-${game.moves[0].to}`) ?? 0) + 1);
    expect(new Map(answer.moves.map((m) => [m.move, m.games]))).toEqual(firsts);
  });

  it('refuses what is no draughts position, with a stable code', async () => {
    const ask = (body: object) => fetch(`${archive.baseUrl}/positions/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const [body, code] of [
      [{ family: 'checkers', fen: 'X:W21:B1' }, 'position.invalid'],
      [{ family: 'checkers', fen: 'W:Wa2:B1' }, 'position.invalid'],
      [{ family: 'checkers', fen: 'W:W21,21:B1' }, 'position.invalid'],
      [{ family: 'checkers' }, 'position.invalid'],
      [{ family: 'peg-solitaire', fen: 'W:W21:B1' }, 'request.invalid'],
    ] as const) {
      const answer = await ask(body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe(code);
    }
  });
});
