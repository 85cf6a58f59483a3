import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { buildGame, unreplayable } from '../../../src/formats/plugins/sgf-go/model.js';
import { parseSgf } from '../../../src/formats/syntaxes/sgf/index.js';
import { BLACK, Cell, EMPTY, GoPosition, Stone, WHITE, opponent } from '../../../src/rules/go/index.js';
import { GoPositionHasher, MAX_KEYED_SIZE, goPositionKeys } from '../../../src/rules/go/position-key.js';
import { TRANSFORMS, TransformName, compose, inverse, transformName } from '../../../src/rules/symmetry.js';
import { filesUnder } from '../../support/files.js';
import { namesFor, seeded, turnFast, turnedPoint } from '../../support/positions/grids.js';

/*
 * Go position keys against a brute force written here: boards turned by hand (./grids.ts), compared
 * as whole boards, over every position of the main line of every GNU Go regression game.
 */

const ROOT = 'test/fixtures/realdata/go/gnugo_regression_games';

interface Move {
  readonly stone: Stone;
  /** null: a pass. */
  readonly point: { readonly x: number; readonly y: number } | null;
  readonly setup: readonly { readonly x: number; readonly y: number; readonly cell: Cell }[];
}

interface Game {
  readonly name: string;
  readonly size: number;
  readonly initial: Uint8Array;
  readonly moves: readonly Move[];
}

/** The main lines of the GNU Go games, read by the archive's SGF reader (the SGF Go plugin's model). */
function loadGames(): Game[] {
  const games: Game[] = [];
  for (const path of filesUnder(ROOT, '.sgf')) {
    const collection = parseSgf(readFileSync(path), DEFAULT_LIMITS);
    const tree = collection.trees[0];
    if (unreplayable(tree) !== null) continue;
    const game = buildGame(collection, tree, DEFAULT_LIMITS);
    const moves: Move[] = [];
    for (let node = game.roots[0]; node !== undefined; node = node.children[0]) moves.push({ stone: node.stone, point: node.point, setup: node.setup ?? [] });
    const initial = game.initial ? Uint8Array.from(game.initial.cells) : new Uint8Array(game.width * game.width);
    games.push({ name: path.slice(ROOT.length + 1), size: game.width, initial, moves });
  }
  return games;
}

/** Whose turn it is after `ply` moves of a line: the colour of the next move, or after the last, the other colour. */
function toMoveAfter(moves: readonly Move[], ply: number): Stone {
  if (ply < moves.length) return moves[ply].stone;
  return moves.length === 0 ? BLACK : opponent(moves[moves.length - 1].stone);
}

/** One position of a replay: the board and the side to move, with what the hasher said of it. */
interface Seen {
  readonly ply: number;
  readonly cells: Uint8Array;
  readonly toMove: Stone;
  readonly hasher: GoPositionHasher;
}

/** Replays a main line with the rules engine and a hasher beside it; `visit` sees ply 0 to the last. */
function replay(game: Game, visit: (seen: Seen) => void): void {
  const position = new GoPosition(game.size);
  position.cells.set(game.initial);
  const hasher = new GoPositionHasher(game.size);
  hasher.load({ size: game.size, cells: game.initial }, toMoveAfter(game.moves, 0));
  visit({ ply: 0, cells: position.cells, toMove: hasher.toMove, hasher });
  game.moves.forEach((move, i) => {
    for (const p of move.setup) {
      position.setStone(p.x, p.y, p.cell);
      hasher.set(p.x, p.y, p.cell);
    }
    if (move.point === null) position.pass();
    else {
      const outcome = position.play(move.stone, move.point.x, move.point.y);
      if (outcome.legal) hasher.play(move.point.x, move.point.y, move.stone, outcome.captured);
    }
    hasher.setToMove(toMoveAfter(game.moves, i + 1));
    visit({ ply: i + 1, cells: position.cells, toMove: hasher.toMove, hasher });
  });
}

const turn = (cells: ArrayLike<number>, size: number, name: TransformName): Uint8Array => turnFast(cells, size, size, name);

/** A board as text, exactly: four points a character (base 3), then the size and the side to move. */
function boardText(cells: ArrayLike<number>, size: number, toMove: Stone): string {
  const codes: number[] = [];
  for (let i = 0; i < cells.length; i += 4) {
    let code = 0;
    for (let k = 3; k >= 0; k--) code = code * 3 + (i + k < cells.length ? cells[i + k] : 0);
    codes.push(code + 32);
  }
  return `${String.fromCharCode(...codes)}|${size}|${toMove}`;
}

const games = loadGames();

describe('Go position keys on the GNU Go games', () => {
  it('reads the games', () => {
    expect(games.length).toBeGreaterThan(600);
    expect(new Set(games.map((g) => g.size))).toEqual(new Set([9, 13, 19]));
    expect(games.some((g) => g.initial.some((c) => c !== EMPTY))).toBe(true); // handicap stones
  });

  it('gives the same keys incrementally as from scratch at every ply of every game, the hasher holding the engine\'s board', () => {
    let plies = 0;
    const wrong: string[] = [];
    for (const game of games) {
      replay(game, ({ ply, cells, toMove, hasher }) => {
        plies++;
        const expected = goPositionKeys({ size: game.size, cells }, toMove);
        const got = hasher.positionKeys();
        if (!hasher.cells.every((c, i) => c === cells[i])) wrong.push(`${game.name} ply ${ply}: board`);
        if (got.byTransform.join() !== expected.byTransform.join() || got.canonical.transform !== expected.canonical.transform || got.canonical.key !== expected.canonical.key) {
          wrong.push(`${game.name} ply ${ply}: keys`);
        }
      });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(plies).toBeGreaterThan(128_000);
  });

  it('keys positions exactly up to symmetry: equal canonical keys for boards that turn into each other, different for all others (no collision over the corpus), the transform turning each onto the one board', () => {
    const boardOfKey = new Map<bigint, string>();
    const keyOfClass = new Map<string, bigint>();
    const faults: string[] = [];
    let positions = 0;
    for (const game of games) {
      const names = namesFor(game.size, game.size);
      replay(game, ({ ply, cells, toMove, hasher }) => {
        positions++;
        const { key, transform } = hasher.canonical();
        // The board the returned transform makes: the same for every position that has this key.
        const turned = boardText(turn(cells, game.size, transformName(transform)), game.size, toMove);
        const known = boardOfKey.get(key);
        if (known === undefined) boardOfKey.set(key, turned);
        else if (known !== turned) faults.push(`${game.name} ply ${ply}: key ${key} already names another board`);
        // The brute force's own name for the class: the least text of the eight turned boards.
        const least = names.map((name) => boardText(turn(cells, game.size, name), game.size, toMove)).sort()[0];
        const classKey = keyOfClass.get(least);
        if (classKey === undefined) keyOfClass.set(least, key);
        else if (classKey !== key) faults.push(`${game.name} ply ${ply}: a turned copy of a known position has another key`);
      });
    }
    expect(faults.slice(0, 5)).toEqual([]);
    expect(positions).toBeGreaterThan(128_000);
    // As many keys as classes of positions up to symmetry: no two classes share a key.
    expect(boardOfKey.size).toBe(keyOfClass.size);
    expect(boardOfKey.size).toBeGreaterThan(100_000);
  });

  it('finds every game again turned through each symmetry, ply by ply, and the key under a transform is the key of the board turned by it', () => {
    const sample = games.filter((_, i) => i % 60 === 0);
    expect(new Set(sample.map((g) => g.size)).size).toBeGreaterThan(1);
    for (const game of sample) {
      const original: { canonical: bigint; byTransform: (bigint | null)[] }[] = [];
      replay(game, ({ hasher }) => {
        const keys = hasher.positionKeys();
        original.push({ canonical: keys.canonical.key, byTransform: [...keys.byTransform] });
      });
      for (const t of TRANSFORMS) {
        const name = transformName(t);
        const map = (x: number, y: number) => {
          const [tx, ty] = turnedPoint(x, y, game.size, game.size, name);
          return { x: tx, y: ty };
        };
        const turned: Game = {
          ...game,
          initial: turn(game.initial, game.size, name),
          moves: game.moves.map((m) => ({ stone: m.stone, point: m.point && map(m.point.x, m.point.y), setup: m.setup.map((p) => ({ ...map(p.x, p.y), cell: p.cell })) })),
        };
        const wrong: number[] = [];
        replay(turned, ({ ply, hasher }) => {
          if (hasher.canonical().key !== original[ply].canonical || hasher.key() !== original[ply].byTransform[t]) wrong.push(ply);
        });
        expect({ game: game.name, name, wrong }).toEqual({ game: game.name, name, wrong: [] });
      }
    }
  });

  it('gives a transposition (the same stones by another move order) the same key', () => {
    let checked = 0;
    for (const game of games) {
      const [m1, m2, m3] = game.moves;
      if (!m1 || !m2 || !m3 || !m1.point || !m3.point || m1.stone !== m3.stone || game.moves.slice(0, 3).some((m) => m.setup.length > 0)) continue;
      const after = (order: Move[]) => {
        let keys = null as ReturnType<GoPositionHasher['positionKeys']> | null;
        replay({ ...game, moves: [...order, ...game.moves.slice(3)] }, ({ ply, hasher }) => {
          if (ply === 3) keys = hasher.positionKeys();
        });
        return keys!;
      };
      const a = after([m1, m2, m3]);
      const b = after([m3, m2, m1]);
      expect(b.exact).toBe(a.exact);
      expect(b.canonical).toEqual(a.canonical);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('leaves captures and ko out: the same stones after a capture are the same position as without it', () => {
    // 3x3: black takes a white stone in the corner; the other line has white never play there.
    const withCapture = new GoPosition(3);
    const h1 = new GoPositionHasher(3);
    for (const [stone, x, y] of [
      [BLACK, 1, 0],
      [WHITE, 0, 0],
      [BLACK, 0, 1],
    ] as const) {
      const outcome = withCapture.play(stone, x, y);
      if (!outcome.legal) throw new Error(outcome.reason);
      h1.play(x, y, stone, outcome.captured);
    }
    expect(withCapture.prisoners[BLACK]).toBe(1);
    const h2 = new GoPositionHasher(3);
    h2.play(1, 0, BLACK, []);
    h2.setToMove(BLACK);
    h2.play(0, 1, BLACK, []);
    expect(h2.positionKeys()).toEqual(h1.positionKeys());
    expect(goPositionKeys(withCapture, WHITE)).toEqual(h1.positionKeys());
  });

  it('tells apart positions that differ only by the side to move, by one stone, or by the board size', () => {
    const game = games.find((g) => g.size === 19 && g.moves.length > 100)!;
    let differences = 0;
    replay(game, ({ cells }) => {
      const black = goPositionKeys({ size: 19, cells }, BLACK);
      const white = goPositionKeys({ size: 19, cells }, WHITE);
      expect(white.exact).not.toBe(black.exact);
      expect(white.canonical.key).not.toBe(black.canonical.key);
      differences++;
    });
    expect(differences).toBe(game.moves.length + 1);
    const one = new Uint8Array(81);
    one[40] = BLACK;
    const other = Uint8Array.from(one);
    other[40] = WHITE;
    expect(goPositionKeys({ size: 9, cells: other }, BLACK).canonical.key).not.toBe(goPositionKeys({ size: 9, cells: one }, BLACK).canonical.key);
    const corner9 = new Uint8Array(81);
    corner9[0] = BLACK;
    const corner19 = new Uint8Array(361);
    corner19[0] = BLACK;
    expect(goPositionKeys({ size: 19, cells: corner19 }, WHITE).exact).not.toBe(goPositionKeys({ size: 9, cells: corner9 }, WHITE).exact);
    expect(goPositionKeys({ size: 19, cells: new Uint8Array(361) }, BLACK).exact).not.toBe(goPositionKeys({ size: 9, cells: new Uint8Array(81) }, BLACK).exact);
  });
});

describe('Go position keys on boards of any size from 1 to 52', () => {
  it.each([1, 2, 3, 4, 7, 25, 26, 38, 51, 52])('on random boards of side %i: the key under each transform is the key of the board turned by hand, and all turned copies share the canonical key', (size) => {
    const random = seeded(size * 7919);
    for (let round = 0; round < 6; round++) {
      const density = round / 6;
      const cells = Uint8Array.from({ length: size * size }, () => (random() < density ? (random() < 0.5 ? BLACK : WHITE) : EMPTY));
      const toMove = random() < 0.5 ? BLACK : WHITE;
      const keys = goPositionKeys({ size, cells }, toMove);
      expect(keys.byTransform.every((k) => k !== null)).toBe(true);
      for (const t of TRANSFORMS) {
        const turned = turn(cells, size, transformName(t));
        const turnedKeys = goPositionKeys({ size, cells: turned }, toMove);
        expect(turnedKeys.exact).toBe(keys.byTransform[t]);
        expect(turnedKeys.canonical.key).toBe(keys.canonical.key);
        // The transform each gives turns it onto the same board.
        expect(turn(turned, size, transformName(turnedKeys.canonical.transform))).toEqual(turn(cells, size, transformName(keys.canonical.transform)));
        // So the transform to keep beside a match, from this board to the turned one, is compose(inverse(tB), tA).
        expect(turn(cells, size, transformName(compose(inverse(turnedKeys.canonical.transform), keys.canonical.transform)))).toEqual(turned);
      }
      // The hasher, told stone by stone in a shuffled order, agrees.
      const hasher = new GoPositionHasher(size);
      const order = Array.from({ length: size * size }, (_, i) => i).sort(() => random() - 0.5);
      for (const p of order) hasher.setPoint(p, cells[p] as Cell);
      hasher.setToMove(toMove);
      expect(hasher.positionKeys()).toEqual(keys);
      expect(GoPositionHasher.of({ size, cells }, toMove).positionKeys()).toEqual(keys);
    }
  });

  it('refuses sizes outside 1..52 and boards that are not what they say', () => {
    expect(MAX_KEYED_SIZE).toBe(52);
    expect(() => new GoPositionHasher(0)).toThrow(RangeError);
    expect(() => new GoPositionHasher(53)).toThrow(RangeError);
    expect(() => goPositionKeys({ size: 3, cells: new Uint8Array(8) }, BLACK)).toThrow(RangeError);
    expect(() => goPositionKeys({ size: 2, cells: [0, 3, 0, 0] }, BLACK)).toThrow(RangeError);
  });

  it('keeps the hasher\'s keys when a point is told what it already holds, and restores them when a stone goes', () => {
    const hasher = new GoPositionHasher(19);
    const empty = hasher.positionKeys();
    hasher.set(3, 3, BLACK);
    const one = hasher.positionKeys();
    hasher.set(3, 3, BLACK);
    expect(hasher.positionKeys()).toEqual(one);
    hasher.set(3, 3, WHITE);
    expect(hasher.positionKeys()).not.toEqual(one);
    hasher.set(3, 3, EMPTY);
    expect(hasher.positionKeys()).toEqual(empty);
    expect(hasher.at(3, 3)).toBe(EMPTY);
    // A stone on the centre of an empty board: all eight turned boards are the same board.
    hasher.set(9, 9, BLACK);
    expect(new Set(hasher.positionKeys().byTransform).size).toBe(1);
    expect(hasher.canonical().transform).toBe(0);
  });
});
