import { BLACK, GoMoveNode, ReplayedMove, Stone, WHITE, areaScore } from '../../../src/rules/go/index.js';
import { replayTree } from '../../../src/rules/go/tree.js';
import { toDiagram } from '../../support/go/diagram.js';

const move = (stone: Stone, x: number, y: number, ...children: GoMoveNode[]): GoMoveNode => ({ stone, point: { x, y }, children });
const pass = (stone: Stone, ...children: GoMoveNode[]): GoMoveNode => ({ stone, point: null, children });

describe('replayTree', () => {
  it('replays the main line first and every variation from where it branches', () => {
    // Main line: B(0,1) W(0,0) B(1,0) takes (0,0). Variation at ply 2: W(1,0) instead.
    const tree = [move(BLACK, 0, 1, move(WHITE, 0, 0, move(BLACK, 1, 0)), move(WHITE, 1, 0, move(BLACK, 0, 0)))];
    const seen: { ply: number; line: number; legal: boolean; captured: number }[] = [];
    const end = replayTree(3, tree, (m: ReplayedMove) =>
      seen.push({ ply: m.ply, line: m.line, legal: m.outcome.legal, captured: m.outcome.legal ? m.outcome.captured.length : -1 }),
    );
    expect(seen).toEqual([
      { ply: 1, line: 0, legal: true, captured: 0 },
      { ply: 2, line: 0, legal: true, captured: 0 },
      { ply: 3, line: 0, legal: true, captured: 1 },
      { ply: 2, line: 1, legal: true, captured: 0 },
      // In the variation (0,0) is empty (the main line's stones are not there): black may play it.
      { ply: 3, line: 1, legal: true, captured: 0 },
    ]);
    expect(toDiagram(end)).toEqual(['.X.', 'X..', '...']);
    expect(areaScore(end)).toEqual({ black: 9, white: 0, neutral: 0 });
  });

  it('reports an illegal move in a variation and goes on with that line unchanged', () => {
    const tree = [move(BLACK, 1, 1, pass(WHITE), move(WHITE, 1, 1, move(BLACK, 0, 0)))];
    const illegal: string[] = [];
    replayTree(3, tree, (m) => {
      if (!m.outcome.legal) illegal.push(`${m.line}:${m.ply}:${m.outcome.reason}`);
    });
    expect(illegal).toEqual(['1:2:occupied']);
  });

  it('walks a line thousands of moves deep without recursion', () => {
    let node: GoMoveNode = pass(WHITE);
    for (let i = 0; i < 5000; i++) node = i % 2 === 0 ? pass(BLACK, node) : pass(WHITE, node);
    let count = 0;
    replayTree(9, [node], () => count++);
    expect(count).toBe(5001);
  });
});
