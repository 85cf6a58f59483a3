import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { judgeMove } from '../../../src/rules/checkers/judge-move.js';
import { hasCapture } from '../../../src/rules/checkers/captures.js';
import { hasLegalMove, legalMoves } from '../../../src/rules/checkers/legal-moves.js';
import { moveNotation } from '../../../src/formats/families/checkers/notation.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { gameOver } from '../../../src/rules/checkers/outcome.js';

/**
 * A second, deliberately naive statement of the Russian rules on a grid of strings ('w', 'W', 'b',
 * 'B', '.'), written straight from the rule text without the engine's rays, flags or scratch boards.
 * Random games compare its legal moves with the engine's at every position.
 */
type Grid = string[][];
const DIRS = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];

function toGrid(position: Position): Grid {
  return position.rows().map((row) => row.map((cell) => ({ 0: '.', 1: 'w', 2: 'b', 11: 'W', 12: 'B' })[cell]!));
}

const name = (r: number, c: number) => `${'abcdefgh'[c]}${8 - r}`;
const inside = (r: number, c: number) => r >= 0 && r < 8 && c >= 0 && c < 8;
const isWhite = (p: string) => p === 'w' || p === 'W';
const enemyOf = (p: string, q: string) => q !== '.' && isWhite(p) !== isWhite(q);

function referenceMoves(grid: Grid, white: boolean): string[] {
  const captures: string[] = [];
  const quiet: string[] = [];
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const p = grid[r][c];
      if (p === '.' || isWhite(p) !== white) continue;
      const g = grid.map((row) => row.slice());
      g[r][c] = '.';
      chain(g, p, r, c, [name(r, c)], new Set(), captures);
      for (const [dr, dc] of DIRS) {
        if (p === 'w' || p === 'b') {
          if (dr !== (p === 'w' ? -1 : 1)) continue;
          if (inside(r + dr, c + dc) && grid[r + dr][c + dc] === '.') quiet.push(`${name(r, c)}-${name(r + dr, c + dc)}`);
        } else {
          for (let k = 1; inside(r + k * dr, c + k * dc) && grid[r + k * dr][c + k * dc] === '.'; k++) quiet.push(`${name(r, c)}-${name(r + k * dr, c + k * dc)}`);
        }
      }
    }
  }
  return (captures.length > 0 ? captures : quiet).sort();
}

/** Captures available to piece p on (r, c) given the pieces already taken: [victim, landing] pairs. */
function jumps(g: Grid, p: string, r: number, c: number, taken: Set<string>): [string, number, number][] {
  const found: [string, number, number][] = [];
  const king = p === 'W' || p === 'B';
  for (const [dr, dc] of DIRS) {
    let k = 1;
    if (king) while (inside(r + k * dr, c + k * dc) && g[r + k * dr][c + k * dc] === '.') k++;
    const vr = r + k * dr;
    const vc = c + k * dc;
    if (!inside(vr, vc) || !enemyOf(p, g[vr][vc]) || taken.has(name(vr, vc))) continue;
    for (let j = k + 1; inside(r + j * dr, c + j * dc) && g[r + j * dr][c + j * dc] === '.'; j++) {
      found.push([name(vr, vc), r + j * dr, c + j * dc]);
      if (!king) break;
    }
  }
  return found;
}

function chain(g: Grid, p: string, r: number, c: number, path: string[], taken: Set<string>, out: string[]): void {
  const options = jumps(g, p, r, c, taken);
  if (options.length === 0) {
    if (taken.size > 0) out.push(path.join(':'));
    return;
  }
  // A king must choose, among the landings beyond one victim, those from which it can capture again.
  const byVictim = new Map<string, [string, number, number][]>();
  for (const option of options) byVictim.set(option[0], [...(byVictim.get(option[0]) ?? []), option]);
  for (const [victim, landings] of byVictim) {
    const next = new Set(taken).add(victim);
    const crowned = (lr: number) => (p === 'w' && lr === 0 ? 'W' : p === 'b' && lr === 7 ? 'B' : p);
    const going = landings.filter(([, lr, lc]) => jumps(g, crowned(lr), lr, lc, next).length > 0);
    for (const [, lr, lc] of going.length > 0 ? going : landings) chain(g, crowned(lr), lr, lc, [...path, name(lr, lc)], next, out);
  }
}

/** A small deterministic generator so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('the engine against a naive statement of the rules', () => {
  it('agrees on every position of 300 random games', () => {
    const next = random(20261122);
    let positions = 0;
    let acceptedProposals = 0;
    let kingPositions = 0;
    for (let game = 0; game < 300; game++) {
      let position = Position.initial();
      for (let ply = 0; ply < 150; ply++) {
        const engine = legalMoves(position);
        const expected = referenceMoves(toGrid(position), position.toMove === 'white');
        const actual = engine.map(moveNotation).sort();
        // Compare cheaply; call expect only on a difference so the failure shows both lists.
        if (actual.join(' ') !== expected.join(' ')) expect({ game, ply, actual }).toEqual({ game, ply, actual: expected });
        if (hasLegalMove(position) !== expected.length > 0) expect({ game, ply, hasLegalMove: !expected.length }).toBeNull();
        if (hasCapture(position) !== expected.some((m) => m.includes(':'))) expect({ game, ply, hasCapture: hasCapture(position) }).toBeNull();
        // A few random one-step proposals: the judge must accept exactly the legal ones.
        for (let k = 0; k < 3; k++) {
          // Mostly a piece that can move, to a square near it, so that legal and illegal proposals both occur.
          const from = engine.length > 0 && k < 2 ? engine[Math.floor(next() * engine.length)].from : Math.floor(next() * 64);
          const to = Math.max(0, Math.min(63, from + [-18, -14, -9, -7, 7, 9, 14, 18, 27, -27][Math.floor(next() * 10)]));
          const proposal = { from, landings: [to], captured: [] };
          const isLegal = engine.some((m) => m.captured.length === 0 && m.from === from && m.landings[0] === to);
          if (judgeMove(position, proposal).legal !== isLegal) expect({ game, ply, from, to, isLegal }).toBeNull();
          if (isLegal) acceptedProposals++;
        }
        positions++;
        if (position.count('white').kings + position.count('black').kings > 0) kingPositions++;
        if (engine.length === 0) {
          if (gameOver(position) === null) expect({ game, ply, gameOver: null }).toBeNull();
          break;
        }
        const move = engine[Math.floor(next() * engine.length)];
        if (!judgeMove(position, move).legal) expect({ game, ply, judged: moveNotation(move) }).toBeNull();
        position = applyMove(position, move);
      }
    }
    // The random games must reach kings, or the flying rules would go untested here.
    expect(kingPositions).toBeGreaterThan(1000);
    expect(positions).toBeGreaterThan(10000);
    expect(acceptedProposals).toBeGreaterThan(1000);
  });
});
