import { readFileSync } from 'node:fs';
import { FormatError } from '../../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { CheckersInterchange, replayInterchange } from '../../../src/formats/families/checkers/interchange.js';
import { pdnDraughtsPlugin } from '../../../src/formats/plugins/pdn-draughts/plugin.js';
import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { judgeMove } from '../../../src/rules/checkers/judge-move.js';
import type { Move } from '../../../src/rules/checkers/move.js';
import { BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, isKing } from '../../../src/rules/checkers/pieces.js';
import { CheckersPositionHasher, checkersPositionKeys } from '../../../src/rules/checkers/position-key.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { turnFast } from '../../support/positions/grids.js';

/*
 * Russian-draughts position keys on both PDN databases (USSR championship 1947, USSR championships
 * 1965-93), read by the archive's PDN plugin and replayed with the rules engine.
 */

const FILES = ['test/fixtures/realdata/checkers/russian/ussr1947.pdn', 'test/fixtures/realdata/checkers/russian/abatsiev.pdn'];
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

interface Game {
  readonly name: string;
  readonly start: Position;
  readonly moves: readonly Move[];
}

let games: Game[] = [];

beforeAll(async () => {
  for (const path of FILES) {
    const bytes = readFileSync(path);
    for (const [i, slice] of pdnDraughtsPlugin.split!({ bytes }, options).entries()) {
      try {
        const model = (await pdnDraughtsPlugin.toInterchange!({ bytes: bytes.subarray(slice.start, slice.end) }, options)) as CheckersInterchange;
        const replay = replayInterchange(model);
        games.push({ name: `${path.split('/').pop()} #${i + 1}`, start: replay.start, moves: replay.main.map((m) => m.move) });
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
      }
    }
  }
});

/** A position as text, exactly: the 64 cells and the side to move. */
const text = (position: Position): string => `${Array.from(position.cells).join(',')}|${position.toMove}`;

/** Every position of a game's main line (ply 0 to the last) with the hasher's keys beside it. */
function replay(game: Game, visit: (ply: number, position: Position, hasher: CheckersPositionHasher) => void): void {
  let position = game.start;
  const hasher = CheckersPositionHasher.of(position);
  visit(0, position, hasher);
  game.moves.forEach((move, i) => {
    position = applyMove(position, move);
    hasher.play(move);
    visit(i + 1, position, hasher);
  });
}

describe('draughts position keys on the PDN games', () => {
  it('reads the games of both databases', () => {
    expect(games.length).toBeGreaterThanOrEqual(200);
    expect(games.some((g) => g.moves.some((m) => m.promotes))).toBe(true);
  });

  it('gives the same key incrementally as from scratch at every ply, the hasher holding the engine\'s board', () => {
    const wrong: string[] = [];
    let plies = 0;
    for (const game of games) {
      replay(game, (ply, position, hasher) => {
        plies++;
        const expected = checkersPositionKeys(position);
        const got = hasher.positionKeys();
        if (!hasher.cells.every((c, i) => c === position.cells[i]) || hasher.toMove !== position.toMove) wrong.push(`${game.name} ply ${ply}: board`);
        if (got.exact !== expected.exact || got.canonical.key !== expected.exact || got.canonical.transform !== 0) wrong.push(`${game.name} ply ${ply}: key`);
      });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(plies).toBeGreaterThan(10_000);
  });

  it('gives different positions different keys and the same position one key (no collision over the databases)', () => {
    const positionOfKey = new Map<bigint, string>();
    const keyOfPosition = new Map<string, bigint>();
    const faults: string[] = [];
    for (const game of games) {
      replay(game, (ply, position, hasher) => {
        const key = hasher.key();
        const exact = text(position);
        if ((positionOfKey.get(key) ?? exact) !== exact) faults.push(`${game.name} ply ${ply}: collision`);
        if ((keyOfPosition.get(exact) ?? key) !== key) faults.push(`${game.name} ply ${ply}: a known position with another key`);
        positionOfKey.set(key, exact);
        keyOfPosition.set(exact, key);
      });
    }
    expect(faults).toEqual([]);
    expect(positionOfKey.size).toBe(keyOfPosition.size);
    expect(positionOfKey.size).toBeGreaterThan(8_000);
    // Every game starts from the standard position here: one key for all of them.
    expect(new Set(games.map((g) => checkersPositionKeys(g.start).exact)).size).toBe(1);
  });

  it('gives a transposition (the same pieces by another move order) the same key', () => {
    let checked = 0;
    for (const game of games) {
      const [m1, m2, m3] = game.moves;
      if (!m1 || !m2 || !m3) continue;
      // White's first and second moves exchanged, black's reply kept, when all three stay legal.
      let position = game.start;
      const played: Move[] = [];
      for (const move of [m3, m2, m1]) {
        const judgement = judgeMove(position, move);
        if (!judgement.legal) break;
        played.push(judgement.move);
        position = applyMove(position, judgement.move);
      }
      if (played.length < 3) continue;
      const hasher = CheckersPositionHasher.of(game.start);
      for (const move of [m1, m2, m3]) hasher.play(move);
      const other = CheckersPositionHasher.of(game.start);
      for (const move of played) other.play(move);
      expect(other.key()).toBe(hasher.key());
      expect(checkersPositionKeys(position).exact).toBe(hasher.key());
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('tells apart a man from a king, and the same pieces with the other side to move', () => {
    let kinged = 0;
    for (const game of games.slice(0, 40)) {
      replay(game, (_, position) => {
        const key = checkersPositionKeys(position).exact;
        expect(checkersPositionKeys(position.withToMove(position.toMove === 'white' ? 'black' : 'white')).exact).not.toBe(key);
        const square = position.cells.findIndex((c) => c !== EMPTY && !isKing(c as 1 | 2));
        if (square < 0) return;
        const cells = position.cells.slice();
        cells[square] = cells[square] === WHITE_MAN ? WHITE_KING : BLACK_KING;
        expect(checkersPositionKeys(new Position(cells, position.toMove)).exact).not.toBe(key);
        kinged++;
      });
    }
    expect(kinged).toBeGreaterThan(1_000);
  });

  it('has no symmetry: one key per position, and a mirrored or turned board is another position', () => {
    const keys = checkersPositionKeys(Position.initial());
    expect(keys.byTransform).toEqual([keys.exact, null, null, null, null, null, null, null]);
    expect(keys.canonical).toEqual({ key: keys.exact, transform: 0 });
    const game = games[0];
    let position = game.start;
    for (const move of game.moves.slice(0, 6)) position = applyMove(position, move);
    for (const name of ['mirrorX', 'rotate180'] as const) {
      const turned = new Position(turnFast(position.cells, 8, 8, name), position.toMove);
      expect(checkersPositionKeys(turned).exact).not.toBe(checkersPositionKeys(position).exact);
    }
  });

  it('follows a capture with promotion and refuses what is no piece', () => {
    // A white man on b6 takes the black man on c7 and lands crowned on d8.
    const b6 = 2 * 8 + 1;
    const c7 = 1 * 8 + 2;
    const d8 = 0 * 8 + 3;
    const start = Position.of([
      [b6, WHITE_MAN],
      [c7, BLACK_MAN],
      [5 * 8 + 6, BLACK_MAN],
    ], 'white');
    const judgement = judgeMove(start, { from: b6, landings: [d8], captured: [c7] });
    if (!judgement.legal) throw new Error(judgement.reason);
    expect(judgement.move.promotes).toBe(true);
    const hasher = CheckersPositionHasher.of(start);
    hasher.play(judgement.move);
    const after = applyMove(start, judgement.move);
    expect(after.at(d8)).toBe(WHITE_KING);
    expect(hasher.positionKeys()).toEqual(checkersPositionKeys(after));
    expect(() => hasher.set(0, 5 as never)).toThrow(RangeError);
    expect(hasher.positionKeys()).toEqual(checkersPositionKeys(after));
    expect(() => new CheckersPositionHasher().play(judgement.move)).toThrow(RangeError);
  });
});
