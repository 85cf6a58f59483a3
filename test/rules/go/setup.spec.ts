import { BLACK, EMPTY, GoMoveNode, GoPosition, WHITE, replayTree } from '../../../src/rules/go/index.js';

describe('replayTree with an initial position and setup points', () => {
  it('starts from a copy of the initial position and applies setup before the move', () => {
    const initial = new GoPosition(5);
    initial.setStone(1, 0, BLACK); // black at (1,0) next to the corner
    const capture: GoMoveNode = { stone: BLACK, point: { x: 0, y: 1 }, children: [] };
    // White (0,0) in the corner: black (1,0) from the start, black (0,1) takes it.
    const roots: GoMoveNode[] = [{ stone: WHITE, point: { x: 0, y: 0 }, children: [capture] }];
    const captured: number[][] = [];
    const end = replayTree(5, roots, ({ outcome }) => captured.push(outcome.legal ? [...outcome.captured] : []), initial);
    expect(captured).toEqual([[], [0]]);
    expect(initial.at(0, 0)).toBe(EMPTY);
    expect(initial.at(0, 1)).toBe(EMPTY);
    expect(end.at(1, 0)).toBe(BLACK);

    // The same white stone, but a setup point empties (1,0) before black's move: nothing is taken.
    const emptied: GoMoveNode = { stone: BLACK, point: { x: 0, y: 1 }, children: [], setup: [{ x: 1, y: 0, cell: EMPTY }] };
    const again: number[][] = [];
    replayTree(5, [{ stone: WHITE, point: { x: 0, y: 0 }, children: [emptied] }], ({ outcome }) => again.push(outcome.legal ? [...outcome.captured] : []), initial);
    expect(again).toEqual([[], []]);
  });
});
