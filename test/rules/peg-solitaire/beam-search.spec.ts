import { beamSearch, Ranking } from '../../../src/rules/peg-solitaire/beam-search.js';
import { Board } from '../../../src/rules/peg-solitaire/board.js';
import { geometryOf } from '../../../src/rules/peg-solitaire/geometry.js';
import { playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { boardFromRows } from '../../support/peg-solitaire/boards.js';

function problem(board: Board) {
  const geometry = geometryOf(board);
  const occupied: number[] = [];
  const finals = new Uint8Array(geometry.slots.length);
  const hasTargets = board.cells.some((c) => c.kind === 'slot' && c.target);
  geometry.slots.forEach((p, slot) => {
    const cell = board.cells[p.y * board.width + p.x];
    if (cell.kind !== 'slot') return;
    if (cell.stone) occupied.push(slot);
    if (!hasTargets || cell.target) finals[slot] = 1;
  });
  return { geometry, occupied, finals };
}

describe('beamSearch', () => {
  it('finds a legal solution of the English board that ends on the centre', () => {
    const board = boardFromRows(['**yyy**', '**yyy**', 'yyyyyyy', 'yyyEyyy', 'yyyyyyy', '**yyy**', '**yyy**']);
    const { geometry, occupied, finals } = problem(board);
    const path = beamSearch(geometry, occupied, finals, 256, () => false);
    if (!Array.isArray(path)) throw new Error(`no solution: ${path}`);
    const jumps = path.map((j) => ({ from: geometry.slots[geometry.jumps[j].from], to: geometry.slots[geometry.jumps[j].to] }));
    const played = playJumps(board, jumps);
    expect(played.jumps).toHaveLength(31);
    expect(played.bonus).toBe(2000); // the last stone stands on the target
  });

  it('gives up (null, not a proof) when every position of a layer is stuck', () => {
    const { geometry, occupied, finals } = problem(boardFromRows(['yey']));
    expect(beamSearch(geometry, occupied, finals, 64, () => false)).toBeNull();
  });

  it('gives up when the last stones end off the allowed slots', () => {
    // y y e E: the only line of play leaves the stone on slot 2, not on the target.
    const { geometry, occupied, finals } = problem(boardFromRows(['yyeE']));
    expect(beamSearch(geometry, occupied, finals, 64, () => false)).toBeNull();
  });

  it('stops when told to, and tells how many positions it made', () => {
    const { geometry, occupied, finals } = problem(boardFromRows(['**yyy**', '**yyy**', 'yyyyyyy', 'yyyeyyy', 'yyyyyyy', '**yyy**', '**yyy**']));
    let told = 0;
    const result = beamSearch(geometry, occupied, finals, 64, (positions) => {
      told += positions;
      return told > 100;
    });
    expect(result).toBe('aborted');
    expect(told).toBeGreaterThan(100);
  });

  it('is deterministic', () => {
    const { geometry, occupied, finals } = problem(boardFromRows(['*yyy*', 'yyyyy', 'yyeyy', 'yyyyy', '*yyy*'], 'diagonal'));
    expect(beamSearch(geometry, occupied, finals, 64, () => false)).toEqual(beamSearch(geometry, occupied, finals, 64, () => false));
  });
});

describe('Ranking', () => {
  it('hands out indices in the order of a full sort by score, ties by index, however few it sorts first', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // Scores with many ties (multiples of 0.25) and a spread like real squared distances.
    const scores = Float64Array.from({ length: 5000 }, () => Math.floor(random() * 400) / 4);
    const expected = Array.from(scores.keys()).sort((a, b) => scores[a] - scores[b] || a - b);
    for (const first of [1, 10, 100, 4999, 5000, 10_000]) {
      const ranking = new Ranking(scores, first);
      const got: number[] = [];
      for (let c = ranking.next(); c >= 0; c = ranking.next()) got.push(c);
      expect(got).toEqual(expected);
    }
  });
});
