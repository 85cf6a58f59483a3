import { BLACK, GO_ILLEGAL, GoIllegal, GoPosition, MoveOutcome, Stone, WHITE } from '../../../src/rules/go/index.js';
import { fromDiagram, point, toDiagram } from '../../support/go/diagram.js';

function captured(position: GoPosition, outcome: MoveOutcome): string[] {
  if (!outcome.legal) throw new Error(`expected a legal move, got ${outcome.reason}`);
  return outcome.captured.map((index) => point(position, index)).sort();
}

describe('GoPosition captures', () => {
  it('takes a single stone in the middle of the board', () => {
    const position = fromDiagram(['.....', '..X..', '.XO..', '..X..', '.....']);
    expect(captured(position, position.play(BLACK, 3, 2))).toEqual(['2,2']);
    expect(toDiagram(position)).toEqual(['.....', '..X..', '.X.X.', '..X..', '.....']);
    expect(position.prisoners[BLACK]).toBe(1);
  });

  it('takes a multi-stone group and only the group without liberties', () => {
    const position = fromDiagram(['.XXX.', 'XOOOX', '.XXO.', '...X.', '.....']);
    // White's chain at (1,1),(2,1),(3,1),(3,2) has its last liberty at (4,2).
    expect(captured(position, position.play(BLACK, 4, 2))).toEqual(['1,1', '2,1', '3,1', '3,2']);
    expect(position.at(1, 1)).toBe(0);
  });

  it('takes several groups with one move', () => {
    const position = fromDiagram(['XO.OX', '.XOX.', '.....', '.....', '.....']);
    // (2,0) is the last liberty of white (1,0) and of white (3,0); white (2,1) keeps (2,2).
    const outcome = position.play(BLACK, 2, 0);
    expect(captured(position, outcome)).toEqual(['1,0', '3,0']);
    expect(position.at(2, 1)).toBe(WHITE);
  });

  it('takes stones on the edge and in the corner', () => {
    const corner = fromDiagram(['O.', 'X.']);
    expect(captured(corner, corner.play(BLACK, 1, 0))).toEqual(['0,0']);
    const edge = fromDiagram(['.XO..', '..X..', '.....', '.....', '.....']);
    expect(captured(edge, edge.play(BLACK, 3, 0))).toEqual(['2,0']);
    const edge2 = fromDiagram(['XOO..', '.XX..', '.....', '.....', '.....']);
    expect(captured(edge2, edge2.play(BLACK, 3, 0))).toEqual(['1,0', '2,0']);
  });

  it('does not take a group that still has a liberty', () => {
    const position = fromDiagram(['.....', '..X..', '.XO..', '.....', '.....']);
    expect(captured(position, position.play(BLACK, 3, 2))).toEqual([]);
    expect(position.at(2, 2)).toBe(WHITE);
  });
});

describe('GoPosition illegal moves', () => {
  it('refuses an occupied point and a point off the board', () => {
    const position = fromDiagram(['X..', '...', '...']);
    expect(position.play(WHITE, 0, 0)).toEqual({ legal: false, reason: 'occupied' });
    expect(position.play(WHITE, 3, 0)).toEqual({ legal: false, reason: 'off_board' });
    expect(position.play(WHITE, -1, 0)).toEqual({ legal: false, reason: 'off_board' });
  });

  it('refuses single-stone and multi-stone suicide and leaves the board as it was', () => {
    const single = fromDiagram(['.X...', 'X....', '.....', '.....', '.....']);
    expect(single.play(WHITE, 0, 0)).toEqual({ legal: false, reason: 'suicide' });
    expect(single.at(0, 0)).toBe(0);
    const multi = fromDiagram(['O.X..', 'XX...', '.....', '.....', '.....']);
    // White (1,0) would join (0,0); the pair has no liberty.
    expect(multi.play(WHITE, 1, 0)).toEqual({ legal: false, reason: 'suicide' });
    expect(toDiagram(multi)).toEqual(['O.X..', 'XX...', '.....', '.....', '.....']);
  });

  it('allows a move without liberties of its own when it captures', () => {
    const position = fromDiagram(['.XO..', 'XO...', 'O....', '.....', '.....']);
    // White fills (0,0): no empty neighbour, but black (1,0) and (0,1) lose their last liberties.
    expect(captured(position, position.play(WHITE, 0, 0))).toEqual(['0,1', '1,0']);
  });

  it('forbids retaking a ko at once, and allows it after a move elsewhere', () => {
    const position = fromDiagram(['.....', '.XO..', 'X.XO.', '.XO..', '.....']);
    // White takes black (2,2) by playing (1,2): that stone then has one liberty, the point just emptied.
    expect(captured(position, position.play(WHITE, 1, 2))).toEqual(['2,2']);
    expect(position.play(BLACK, 2, 2)).toEqual({ legal: false, reason: 'ko' });
    expect(toDiagram(position)).toEqual(['.....', '.XO..', 'XO.O.', '.XO..', '.....']);
    expect(position.play(BLACK, 4, 4).legal).toBe(true);
    expect(position.play(WHITE, 4, 0).legal).toBe(true);
    expect(captured(position, position.play(BLACK, 2, 2))).toEqual(['1,2']);
    // Now it is white who may not retake at once.
    expect(position.play(WHITE, 1, 2)).toEqual({ legal: false, reason: 'ko' });
  });

  it('clears the ko after a pass', () => {
    const position = fromDiagram(['.....', '.XO..', 'X.XO.', '.XO..', '.....']);
    position.play(WHITE, 1, 2);
    position.pass();
    position.pass();
    expect(position.play(BLACK, 2, 2).legal).toBe(true);
  });

  it('allows a snapback: taking back more than the single stone is not ko', () => {
    // White's four stones in the top right have two liberties, (4,0) and (4,1).
    const position = fromDiagram(['..XO.', '..XO.', '..XOO', '...XX', '.....']);
    // Black throws in at (4,1): it captures nothing and has (4,0) as its only liberty.
    expect(captured(position, position.play(BLACK, 4, 1))).toEqual([]);
    // White takes the thrown-in stone, which leaves white's own group with the one liberty (4,1).
    expect(captured(position, position.play(WHITE, 4, 0))).toEqual(['4,1']);
    // Black plays there again at once: five stones, so the position before white's move is not recreated.
    expect(captured(position, position.play(BLACK, 4, 1))).toEqual(['3,0', '3,1', '3,2', '4,0', '4,2']);
    expect(position.prisoners[BLACK]).toBe(5);
    expect(position.prisoners[WHITE]).toBe(1);
  });
});

describe('GoPosition board sizes', () => {
  it('accepts 2x2 up to 25x25 and refuses other sizes', () => {
    expect(() => new GoPosition(1)).toThrow(RangeError);
    expect(() => new GoPosition(26)).toThrow(RangeError);
    const tiny = new GoPosition(2);
    expect(tiny.play(BLACK, 0, 0).legal).toBe(true);
    expect(tiny.play(WHITE, 1, 1).legal).toBe(true);
    // Black (1,0) would leave white (1,1) one liberty and black's own pair one: legal, no capture.
    expect(captured(tiny, tiny.play(BLACK, 1, 0))).toEqual([]);
    // White (0,1) fills the last point: black's pair loses its last liberty first, so it is captured.
    expect(captured(tiny, tiny.play(WHITE, 0, 1))).toEqual(['0,0', '1,0']);
    const large = new GoPosition(25);
    expect(large.play(WHITE, 24, 24).legal).toBe(true);
    expect(large.play(BLACK, 25, 0)).toEqual({ legal: false, reason: 'off_board' });
  });
});

describe('GoPosition reason codes', () => {
  // One hand-made position per rule of GO_ILLEGAL: the diagram, any moves played first, and the
  // move that breaks the rule. The refused move must leave the board as it was.
  const cases: Record<GoIllegal, { rows: string[]; first?: [Stone, number, number][]; move: [Stone, number, number] }> = {
    // The board has points 0..2 on each axis: x = 3 is past the right edge.
    off_board: { rows: ['...', '...', '...'], move: [BLACK, 3, 1] },
    // A white stone already stands on 1,1.
    occupied: { rows: ['...', '.O.', '...'], move: [BLACK, 1, 1] },
    // 2,0 is walled by black 1,0, 3,0 and 2,1 (and the edge); a white stone there takes no black stone
    // (each of them keeps liberties) and has no liberty of its own.
    suicide: { rows: ['.X.X.', '..X..', '.....', '.....', '.....'], move: [WHITE, 2, 0] },
    // White 1,2 takes the lone black stone on 2,2, whose only liberty it was; black retaking on 2,2
    // at once would take back just that white stone and recreate the previous position.
    ko: { rows: ['.....', '.XO..', 'X.XO.', '.XO..', '.....'], first: [[WHITE, 1, 2]], move: [BLACK, 2, 2] },
  };

  it('has a case for every code, and no other', () => {
    expect(Object.keys(cases).sort()).toEqual([...GO_ILLEGAL].sort());
  });

  it.each(Object.entries(cases))('refuses %s with that code and changes nothing', (reason, { rows, first = [], move }) => {
    const position = fromDiagram(rows);
    for (const [stone, x, y] of first) expect(position.play(stone, x, y).legal).toBe(true);
    const before = toDiagram(position);
    expect(position.play(...move)).toEqual({ legal: false, reason });
    expect(toDiagram(position)).toEqual(before);
  });
});
