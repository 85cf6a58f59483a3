import { DotsGame } from '../../../src/rules/dots/index.js';
import { DotsKeyPosition, DotsPositionHasher, dotsGamePosition, dotsPositionKeys } from '../../../src/rules/dots/position-key.js';
import { TransformName, gridSymmetries, transformName } from '../../../src/rules/symmetry.js';
import { loadDotsSgfCorpus } from '../../support/dots/corpus.js';
import type { DotsSgfGame, SgfMove } from '../../support/dots/dots-sgf.js';
import { namesFor, seeded, turnCells, turnFast, turnedPoint } from '../../support/positions/grids.js';

/*
 * Dots position keys against a brute force written here: fields turned by hand (./grids.ts),
 * compared point by point, over every position of the Dots SGF games (zagram.org, szkrab, the Kropki
 * app, playdots.ru; the 39x32 oppai-rs game).
 */

const corpus = loadDotsSgfCorpus().filter(({ game }) => game.width > 0 && game.height > 0);

/** Whose turn it is after `ply` moves: the colour of the next move, or after the last, the other colour. */
function toMoveAfter(moves: readonly SgfMove[], ply: number): number {
  if (ply < moves.length) return moves[ply].colour;
  return moves.length === 0 ? 0 : 1 - moves[moves.length - 1].colour;
}

interface Seen {
  readonly ply: number;
  readonly game: DotsGame;
  readonly hasher: DotsPositionHasher;
  readonly toMove: number;
}

/** The game replayed with the engine (setup dots first, every dot for the colour the file gives it) and a hasher following it. */
function replay(sgf: DotsSgfGame, visit: (seen: Seen) => void): void {
  const game = new DotsGame({ width: sgf.width, height: sgf.height, players: 2, extraMove: false });
  const hasher = new DotsPositionHasher(sgf.width, sgf.height, 2);
  for (const dot of sgf.setup) hasher.followMove(game, dot.row, dot.col, game.place(dot.colour, dot.row, dot.col));
  hasher.setToMove(toMoveAfter(sgf.moves, 0));
  visit({ ply: 0, game, hasher, toMove: hasher.toMove });
  sgf.moves.forEach((move, i) => {
    hasher.followMove(game, move.row, move.col, game.place(move.colour, move.row, move.col));
    hasher.setToMove(toMoveAfter(sgf.moves, i + 1));
    visit({ ply: i + 1, game, hasher, toMove: hasher.toMove });
  });
}

/** The position of the engine's board with the side to move the test gives. */
const positionOf = (game: DotsGame, toMove: number): DotsKeyPosition => ({ ...dotsGamePosition(game), toMove });

/** Each point's state (owner · 5 + captor) as one character, then the size and the side to move. */
function fieldText(owner: ArrayLike<number>, captor: ArrayLike<number>, width: number, height: number, toMove: number): string {
  const codes = Array.from({ length: owner.length }, (_, i) => 65 + owner[i] * 5 + captor[i]);
  return `${String.fromCharCode(...codes)}|${width}x${height}|${toMove}`;
}

function turnedText(position: DotsKeyPosition, name: TransformName): string {
  const { width, height } = position;
  const owner = turnFast(position.owner, width, height, name);
  const captor = turnFast(position.captor, width, height, name);
  const [turnedWidth, turnedHeight] = width === height || !['rotate90', 'rotate270', 'transpose', 'antiTranspose'].includes(name) ? [width, height] : [height, width];
  return fieldText(owner, captor, turnedWidth, turnedHeight, position.toMove);
}

describe('Dots position keys on the real SGF games', () => {
  it('reads the games, square fields and the 39x32 one', () => {
    expect(corpus.length).toBe(66);
    expect(corpus.some(({ game }) => game.width === 39 && game.height === 32)).toBe(true);
    expect(corpus.some(({ game }) => game.setup.length > 0)).toBe(true);
  });

  it('gives the same keys incrementally as from scratch at every ply of every game, the hasher holding the engine\'s board', () => {
    let plies = 0;
    let capturedDots = 0;
    const wrong: string[] = [];
    for (const { name, game: sgf } of corpus) {
      replay(sgf, ({ ply, game, hasher, toMove }) => {
        plies++;
        const position = positionOf(game, toMove);
        const expected = dotsPositionKeys(position);
        const got = hasher.positionKeys();
        if (!hasher.owner.every((o, i) => o === position.owner[i]) || !hasher.captor.every((c, i) => c === position.captor[i])) wrong.push(`${name} ply ${ply}: board`);
        if (got.byTransform.join() !== expected.byTransform.join() || got.canonical.key !== expected.canonical.key || got.canonical.transform !== expected.canonical.transform) {
          wrong.push(`${name} ply ${ply}: keys`);
        }
        if (ply === sgf.moves.length) capturedDots += Array.from(position.owner).filter((o, i) => o !== 0 && position.captor[i] !== 0).length;
      });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(plies).toBeGreaterThan(10_000);
    expect(capturedDots).toBeGreaterThan(500); // the surrounds are there to be followed
  });

  it('keys positions exactly up to symmetry: equal canonical keys for fields that turn into each other, different for all others (no collision), the transform turning each onto the one field', () => {
    const fieldOfKey = new Map<bigint, string>();
    const keyOfClass = new Map<string, bigint>();
    const faults: string[] = [];
    for (const { name, game: sgf } of corpus) {
      const names = namesFor(sgf.width, sgf.height);
      replay(sgf, ({ ply, game, hasher, toMove }) => {
        const position = positionOf(game, toMove);
        const { key, transform } = hasher.canonical();
        const turned = turnedText(position, transformName(transform));
        const known = fieldOfKey.get(key);
        if (known === undefined) fieldOfKey.set(key, turned);
        else if (known !== turned) faults.push(`${name} ply ${ply}: key ${key} already names another field`);
        const least = names.map((n) => turnedText(position, n)).sort()[0];
        const classKey = keyOfClass.get(least);
        if (classKey === undefined) keyOfClass.set(least, key);
        else if (classKey !== key) faults.push(`${name} ply ${ply}: a turned copy of a known position has another key`);
      });
    }
    expect(faults.slice(0, 5)).toEqual([]);
    expect(fieldOfKey.size).toBe(keyOfClass.size);
    expect(fieldOfKey.size).toBeGreaterThan(9_000);
  });

  it('finds every game again turned through each symmetry of its field (8 square, 4 for 39x32), ply by ply, the engine capturing the same dots', () => {
    for (const { name, game: sgf } of corpus) {
      const original: { field: DotsKeyPosition; canonical: bigint; byTransform: (bigint | null)[] }[] = [];
      replay(sgf, ({ game, hasher, toMove }) => {
        const keys = hasher.positionKeys();
        original.push({ field: positionOf(game, toMove), canonical: keys.canonical.key, byTransform: [...keys.byTransform] });
      });
      const allowed = gridSymmetries(sgf.width, sgf.height);
      expect(allowed.map(transformName)).toEqual(namesFor(sgf.width, sgf.height));
      for (const t of allowed) {
        const turnName = transformName(t);
        const map = <D extends { row: number; col: number }>(dot: D): D => {
          const [col, row] = turnedPoint(dot.col, dot.row, sgf.width, sgf.height, turnName);
          return { ...dot, row, col };
        };
        const turned: DotsSgfGame = { ...sgf, setup: sgf.setup.map(map), moves: sgf.moves.map(map) };
        const wrong: number[] = [];
        replay(turned, ({ ply, game, hasher, toMove }) => {
          const before = original[ply];
          const field = positionOf(game, toMove);
          if (fieldText(field.owner, field.captor, sgf.width, sgf.height, toMove) !== turnedText(before.field, turnName)) wrong.push(ply);
          else if (hasher.canonical().key !== before.canonical || hasher.key() !== before.byTransform[t]) wrong.push(-ply);
        });
        expect({ name, turnName, wrong: wrong.slice(0, 3) }).toEqual({ name, turnName, wrong: [] });
      }
    }
  });

  it('gives a transposition (the same dots by another move order) the same key', () => {
    let checked = 0;
    for (const { game: sgf } of corpus) {
      const [m1, m2, m3] = sgf.moves;
      if (!m1 || !m2 || !m3 || m1.colour !== m3.colour) continue;
      const keysAfter3 = (moves: SgfMove[]) => {
        let keys = null as ReturnType<DotsPositionHasher['positionKeys']> | null;
        replay({ ...sgf, moves: [...moves, ...sgf.moves.slice(3)] }, ({ ply, hasher }) => {
          if (ply === 3) keys = hasher.positionKeys();
        });
        return keys!;
      };
      const a = keysAfter3([m1, m2, m3]);
      expect(keysAfter3([m3, m2, m1])).toEqual(a);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('tells apart positions that differ only by the side to move, by one captured dot, by who encloses an empty point', () => {
    const { game: sgf } = corpus.find(({ name }) => name.includes('zagram352562'))!;
    let last: DotsKeyPosition | null = null;
    replay(sgf, ({ game, toMove }) => {
      last = positionOf(game, toMove);
    });
    const end = last! as DotsKeyPosition;
    const keys = dotsPositionKeys(end);
    expect(dotsPositionKeys({ ...end, toMove: 1 - end.toMove }).canonical.key).not.toBe(keys.canonical.key);
    const captured = Array.from(end.owner).findIndex((o, i) => o !== 0 && end.captor[i] !== 0);
    const enclosed = Array.from(end.owner).findIndex((o, i) => o === 0 && end.captor[i] !== 0);
    expect(captured).toBeGreaterThanOrEqual(0);
    expect(enclosed).toBeGreaterThanOrEqual(0);
    // The captured dot set free (live again), then captured by its own seat instead.
    const freed = Uint8Array.from(end.captor);
    freed[captured] = 0;
    expect(dotsPositionKeys({ ...end, captor: freed }).canonical.key).not.toBe(keys.canonical.key);
    const ownCaptor = Uint8Array.from(end.captor);
    ownCaptor[captured] = end.owner[captured];
    expect(dotsPositionKeys({ ...end, captor: ownCaptor }).canonical.key).not.toBe(keys.canonical.key);
    // An empty point enclosed by the other player, then by nobody.
    const other = Uint8Array.from(end.captor);
    other[enclosed] = 3 - end.captor[enclosed];
    expect(dotsPositionKeys({ ...end, captor: other }).canonical.key).not.toBe(keys.canonical.key);
    other[enclosed] = 0;
    expect(dotsPositionKeys({ ...end, captor: other }).canonical.key).not.toBe(keys.canonical.key);
    // The same dots in a game of three players.
    expect(dotsPositionKeys({ ...end, players: 3 }).canonical.key).not.toBe(keys.canonical.key);
    // A rectangle has only four keys.
    expect(keys.byTransform.map((k) => k !== null)).toEqual([true, false, true, false, true, true, false, false]);
  });
});

describe('Dots position keys on fields built here', () => {
  it.each([
    [1, 1],
    [2, 3],
    [5, 5],
    [7, 4],
    [50, 50],
    [50, 1],
  ])('on random %ix%i fields of 2 to 4 players: the key under each symmetry is the key of the field turned by hand', (width, height) => {
    const random = seeded(width * 131 + height);
    for (let round = 0; round < 5; round++) {
      const players = 2 + (round % 3);
      const owner = Uint8Array.from({ length: width * height }, () => (random() < 0.5 ? Math.floor(random() * (players + 1)) : 0));
      const captor = Uint8Array.from({ length: width * height }, () => (random() < 0.3 ? Math.floor(random() * (players + 1)) : 0));
      const position: DotsKeyPosition = { width, height, players, owner, captor, toMove: Math.floor(random() * players) };
      const keys = dotsPositionKeys(position);
      for (const t of gridSymmetries(width, height)) {
        const name = transformName(t);
        const turned = { ...position, owner: turnCells(owner, width, height, name).cells, captor: turnCells(captor, width, height, name).cells };
        const turnedKeys = dotsPositionKeys(turned);
        expect(turnedKeys.exact).toBe(keys.byTransform[t]);
        expect(turnedKeys.canonical.key).toBe(keys.canonical.key);
        expect(turnedText(turned, transformName(turnedKeys.canonical.transform))).toBe(turnedText(position, transformName(keys.canonical.transform)));
      }
      const hasher = new DotsPositionHasher(width, height, players);
      hasher.load(position);
      expect(hasher.positionKeys()).toEqual(keys);
    }
  });

  it('follows a game played in turn, with the extra move after a surround, taking the side to move from the engine', () => {
    const game = new DotsGame({ width: 5, height: 5, players: 2, extraMove: true });
    const hasher = DotsPositionHasher.ofGame(game);
    const moves: [number, number][] = [
      [1, 2],
      [2, 2],
      [2, 1],
      [0, 0],
      [3, 2],
      [4, 4],
      [2, 3], // black closes the surround round (2,2) and moves again
      [0, 4],
    ];
    const seats: number[] = [];
    for (const [row, col] of moves) {
      const outcome = game.play(row, col);
      hasher.followMove(game, row, col, outcome);
      seats.push(hasher.toMove);
      expect(hasher.positionKeys()).toEqual(dotsPositionKeys(dotsGamePosition(game)));
    }
    expect(seats).toEqual([1, 0, 1, 0, 1, 0, 0, 1]);
    expect(game.scores).toEqual([1, 0]);
  });

  it('refuses fields and states the engine cannot have', () => {
    expect(() => new DotsPositionHasher(51, 3, 2)).toThrow(RangeError);
    expect(() => new DotsPositionHasher(3, 3, 5)).toThrow(RangeError);
    const position: DotsKeyPosition = { width: 2, height: 1, players: 2, owner: [3, 0], captor: [0, 0], toMove: 0 };
    expect(() => dotsPositionKeys(position)).toThrow(RangeError);
    expect(() => dotsPositionKeys({ ...position, owner: [1, 0], toMove: 2 })).toThrow(RangeError);
  });
});
