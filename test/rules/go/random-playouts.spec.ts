import { createRequire } from 'node:module';
import { BLACK, GoPosition, Stone, WHITE, opponent } from '../../../src/rules/go/index.js';

// An independent implementation to compare with (a dev dependency, tests only).
const require = createRequire(import.meta.url);
const SabakiBoard = require('@sabaki/go-board') as typeof import('@sabaki/go-board').default;
type Sabaki = InstanceType<typeof SabakiBoard>;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function capturedBetween(before: Sabaki, after: Sabaki, size: number): string[] {
  const out: string[] = [];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (before.get([x, y]) !== 0 && after.get([x, y]) === 0) out.push(`${x},${y}`);
  return out;
}

describe('random play against an independent board implementation', () => {
  it.each([2, 3, 5, 9, 13, 19, 25])('agrees on captures, suicide, ko and occupied points, board size %i', (size) => {
    const next = random(size * 7919);
    let compared = 0;
    let captures = 0;
    let suicides = 0;
    let kos = 0;
    const games = size <= 9 ? 40 : 12;
    for (let game = 0; game < games; game++) {
      const ours = new GoPosition(size);
      let theirs: Sabaki = SabakiBoard.fromDimensions(size);
      let stone: Stone = BLACK;
      let koCandidate: { x: number; y: number } | null = null;
      // Dense random play fills the board, so captures, suicides and kos all come up.
      for (let turn = 0; turn < size * size * 3; turn++) {
        // After a single-stone capture, often try to take back at once: that is where ko lives.
        const tryKo = koCandidate !== null && next() < 0.7;
        const x = tryKo ? koCandidate!.x : Math.floor(next() * size);
        const y = tryKo ? koCandidate!.y : Math.floor(next() * size);
        const sign = stone === BLACK ? 1 : -1;
        const analysis = theirs.analyzeMove(sign, [x, y]);
        const outcome = ours.play(stone, x, y);
        compared++;
        if (analysis.overwrite) {
          expect(outcome).toEqual({ legal: false, reason: 'occupied' });
          continue;
        }
        if (analysis.suicide) {
          expect(outcome).toEqual({ legal: false, reason: 'suicide' });
          suicides++;
          continue;
        }
        if (!outcome.legal) {
          // Our ko is "recreates the position before the opponent's last move"; theirs flags at
          // least those retakes (and also ones that would take more than the ko stone).
          expect(outcome.reason).toBe('ko');
          expect(analysis.ko).toBe(true);
          kos++;
          continue;
        }
        if (analysis.ko) {
          // Their ko rule is wider: the retake must take more than the single stone to be legal here.
          expect(outcome.captured.length).toBeGreaterThan(1);
        }
        const after = theirs.makeMove(sign, [x, y]);
        const expected = capturedBetween(theirs, after, size).sort();
        expect(outcome.captured.map((i) => `${i % size},${Math.floor(i / size)}`).sort()).toEqual(expected);
        captures += expected.length;
        koCandidate = outcome.captured.length === 1 ? { x: outcome.captured[0] % size, y: Math.floor(outcome.captured[0] / size) } : null;
        theirs = after;
        stone = opponent(stone);
      }
      // Both boards hold the same stones at the end.
      for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) expect(ours.at(x, y)).toBe(theirs.get([x, y]) === 1 ? BLACK : theirs.get([x, y]) === -1 ? WHITE : 0);
    }
    expect(compared).toBeGreaterThan(100);
    if (size >= 5) {
      // A non-vacuous comparison: every kind of outcome came up.
      expect(captures).toBeGreaterThan(0);
      expect(suicides).toBeGreaterThan(0);
      expect(kos).toBeGreaterThan(0);
    }
  });
});
