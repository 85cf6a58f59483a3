import { DOTS_ILLEGAL, DotsGame, DotsIllegal } from '../../../src/rules/dots/index.js';
import { RC, newGame, pairs, setUp, surroundsOf } from '../../support/dots/game-setup.js';

// Cells are 0-based [row, col]; rows grow downwards. Red is seat 0, blue seat 1.

describe('a single capture', () => {
  // . R .        R = red walls, b = blue dot, the closing red dot lands east of b.
  // R b <
  // . R .
  function diamond(): DotsGame {
    const game = newGame(5, 5);
    setUp(game, 0, [[1, 2], [2, 1], [3, 2]]);
    setUp(game, 1, [[2, 2]]);
    return game;
  }

  it('captures the enclosed enemy dot and scores it', () => {
    const game = diamond();
    const [surround, ...rest] = surroundsOf(game.place(0, 2, 3));
    expect(rest).toHaveLength(0);
    expect(surround.player).toBe(0);
    expect(pairs(surround.captured)).toEqual([[2, 2]]);
    expect(surround.empty).toEqual([]);
    expect(surround.deferred).toBe(false);
    expect(game.scores).toEqual([1, 0]);
  });

  it('writes the chain counter-clockwise around one point, ending with the dot west of the anchor', () => {
    // Anchor = the captured dot (W of the move); X0 = the red dot west of it; around (i,j) the
    // walk is (i+1,j) -> (i,j+1) -> (i-1,j) -> (i,j-1).
    const [surround] = surroundsOf(diamond().place(0, 2, 3));
    expect(pairs(surround.chain)).toEqual([[3, 2], [2, 3], [1, 2], [2, 1]]);
  });

  it('makes the captured dot unplayable and inert', () => {
    const game = diamond();
    game.place(0, 2, 3);
    expect(game.illegality(2, 2)).toBe('occupied');
    expect(game.board.isLiveDot(game.field.point(2, 2), 1)).toBe(false);
  });

  it('needs a closed line: three walls capture nothing', () => {
    const game = newGame(5, 5);
    setUp(game, 0, [[1, 2], [2, 1]]);
    setUp(game, 1, [[2, 2]]);
    expect(surroundsOf(game.place(0, 3, 2))).toEqual([]);
    expect(game.scores).toEqual([0, 0]);
  });

  it('links walls diagonally: a 4-closed line of diagonal links is enough', () => {
    // Red dots only touch diagonally, yet the blue dot has no 4-connected way out.
    const game = newGame(7, 7);
    setUp(game, 0, [[1, 3], [2, 2], [3, 1], [4, 2], [5, 3], [4, 4], [3, 5]]);
    setUp(game, 1, [[3, 3]]);
    const [surround] = surroundsOf(game.place(0, 2, 4));
    // Region = the 3x3 diamond interior {(2,3),(3,2),(3,3),(3,4),(4,3)}.
    expect(pairs(surround.captured)).toEqual([[3, 3]]);
    expect(surround.empty).toHaveLength(4);
    expect(surround.chain).toHaveLength(8);
  });
});

describe('edge dots', () => {
  it('cannot be surrounded: a region touching the edge is open', () => {
    const game = newGame(5, 5);
    setUp(game, 1, [[0, 2]]);
    setUp(game, 0, [[0, 1], [1, 2]]);
    expect(surroundsOf(game.place(0, 0, 3))).toEqual([]);
    expect(game.board.isLiveDot(game.field.point(0, 2), 1)).toBe(true);
  });

  it('can wall a surround: a dot one row in is captured with walls on the edge', () => {
    const game = newGame(5, 5);
    setUp(game, 1, [[1, 2]]);
    setUp(game, 0, [[0, 2], [1, 1], [2, 2]]);
    const [surround] = surroundsOf(game.place(0, 1, 3));
    expect(pairs(surround.captured)).toEqual([[1, 2]]);
  });
});

describe('closing moves the quick pre-check must not miss', () => {
  it('a move on the edge that seals the only way out to the edge', () => {
    // Blue (1,2) reaches the edge only through (0,2); red's edge dot there closes the area.
    const game = newGame(5, 5);
    setUp(game, 1, [[1, 2]]);
    setUp(game, 0, [[0, 1], [0, 3], [1, 1], [1, 3], [2, 2]]);
    expect(surroundsOf(game.place(0, 0, 2)).map((s) => pairs(s.captured))).toEqual([[[1, 2]]]);
  });

  it('a move touching the other walls only diagonally', () => {
    // The move's own neighbours are NW (2,2) and SW (4,2): they split W from the other sides.
    const game = newGame(7, 7);
    setUp(game, 1, [[3, 2]]);
    setUp(game, 0, [[2, 2], [4, 2], [3, 1]]);
    expect(surroundsOf(game.place(0, 3, 3)).map((s) => pairs(s.captured))).toEqual([[[3, 2]]]);
  });
});

describe('empty points and listing order', () => {
  it('lists captured dots and empty points by a reversed N-E-S-W pre-order from the newest enemy dot', () => {
    // Area: one row (2,2)..(2,5); blue at (2,2) placed first and (2,4) placed later.
    // Pre-order from (2,4): (2,4), E (2,5), W (2,3), (2,2) -> reversed (2,2) (2,3) (2,5) (2,4).
    const game = newGame(8, 6);
    setUp(game, 1, [[2, 2]]);
    setUp(game, 1, [[2, 4]]);
    setUp(game, 0, [[1, 2], [1, 3], [1, 4], [1, 5], [3, 2], [3, 3], [3, 4], [3, 5], [2, 1]]);
    const [surround] = surroundsOf(game.place(0, 2, 6));
    expect(pairs(surround.captured)).toEqual([[2, 2], [2, 4]]);
    expect(pairs(surround.empty)).toEqual([[2, 3], [2, 5]]);
    // Anchor: W of the move (2,5); walking west to X0 = (2,1).
    expect(pairs(surround.chain)).toEqual([
      [3, 2], [3, 3], [3, 4], [3, 5], [2, 6], [1, 5], [1, 4], [1, 3], [1, 2], [2, 1],
    ]);
  });

  it('forbids moves into the surrounded empty points', () => {
    const game = newGame(8, 6);
    setUp(game, 1, [[2, 2]]);
    setUp(game, 0, [[1, 2], [1, 3], [3, 2], [3, 3], [2, 1]]);
    surroundsOf(game.place(0, 2, 4));
    expect(game.illegality(2, 3)).toBe('inside_surround');
    expect(game.place(1, 2, 3)).toMatchObject({ legal: false, reason: 'inside_surround' });
  });
});

describe('several cycles from one move', () => {
  it('captures both diamonds that share the closing dot, ordered by their anchors (E before W)', () => {
    // The seed's own illustration: two diamonds sharing the point 23 (1-based), i.e. (1,2).
    const game = newGame(6, 5);
    setUp(game, 1, [[1, 1], [1, 3]]);
    setUp(game, 0, [[0, 1], [1, 0], [2, 1], [0, 3], [1, 4], [2, 3]]);
    const surrounds = surroundsOf(game.place(0, 1, 2));
    expect(surrounds.map((s) => pairs(s.captured))).toEqual([[[1, 3]], [[1, 1]]]);
    // East diamond: anchor (1,3), X0 = the move itself. West diamond: anchor (1,1), X0 = (1,0).
    expect(pairs(surrounds[0].chain)).toEqual([[2, 3], [1, 4], [0, 3], [1, 2]]);
    expect(pairs(surrounds[1].chain)).toEqual([[2, 1], [1, 2], [0, 1], [1, 0]]);
    expect(game.scores).toEqual([2, 0]);
  });
});

describe('holes and nested surrounds', () => {
  it('walks only the outer boundary when the area holds a group of the surrounder', () => {
    // 3x3 interior (rows/cols 2..4) with a red dot in its centre: a hole, not part of the chain.
    const game = newGame(7, 7);
    setUp(game, 0, [[3, 3]]);
    setUp(game, 1, [[2, 2]]);
    setUp(game, 0, [[1, 2], [1, 3], [1, 4], [2, 1], [3, 1], [4, 1], [5, 2], [5, 3], [5, 4], [2, 5], [4, 5]]);
    const [surround] = surroundsOf(game.place(0, 3, 5));
    // Anchor SW of the move = (4,4); west to X0 = (4,1); then counter-clockwise.
    expect(pairs(surround.chain)).toEqual([
      [5, 2], [5, 3], [5, 4], [4, 5], [3, 5], [2, 5], [1, 4], [1, 3], [1, 2], [2, 1], [3, 1], [4, 1],
    ]);
    expect(pairs(surround.captured)).toEqual([[2, 2]]);
    expect(surround.empty).toHaveLength(7);
    expect(game.illegality(3, 3)).toBe('occupied');
  });

  it('re-encloses captured dots: not listed again, no longer counted for their former captor, not freed', () => {
    // Blue captures red dot Y at (3,3); red then surrounds blue's whole diamond.
    const game = newGame(9, 9);
    setUp(game, 0, [[3, 3]]);
    setUp(game, 1, [[2, 3], [3, 2], [4, 3]]);
    const [inner] = surroundsOf(game.place(1, 3, 4));
    expect(pairs(inner.captured)).toEqual([[3, 3]]);
    setUp(game, 0, [[1, 3], [2, 2], [3, 1], [4, 2], [5, 3], [4, 4], [3, 5]]);
    const [outer] = surroundsOf(game.place(0, 2, 4));
    expect(outer.captured).toHaveLength(4);
    expect(pairs(outer.captured)).not.toContainEqual([3, 3]);
    expect(outer.empty).toEqual([]);
    // The design document: dots an area held before it was surrounded no longer count for its
    // former owner, so blue loses the point for Y; Y is red's own dot, so red gains nothing for it.
    expect(game.scores).toEqual([4, 0]);
    // Y is not freed: it stays a dead dot, now inside red's area.
    expect(game.board.isLiveDot(game.field.point(3, 3), 0)).toBe(false);
  });

  it('keeps scores right over three nested diamonds (no point is taken twice or below zero)', () => {
    // Diamonds of radius 1, 2, 3 around red's dot Y at (5,5): blue, red, blue in turn.
    const ring = (radius: number): [number, number][] => {
      const cells: [number, number][] = [];
      for (let dr = -radius; dr <= radius; dr++) {
        const dc = radius - Math.abs(dr);
        cells.push([5 + dr, 5 - dc]);
        if (dc !== 0) cells.push([5 + dr, 5 + dc]);
      }
      return cells;
    };
    const game = newGame(11, 11);
    setUp(game, 0, [[5, 5]]);
    const closeRing = (seat: number, radius: number) => {
      const cells = ring(radius);
      setUp(game, seat, cells.slice(0, -1));
      return surroundsOf(game.place(seat, ...cells[cells.length - 1]));
    };
    expect(closeRing(1, 1)[0].captured).toHaveLength(1);
    expect(game.scores).toEqual([0, 1]);
    // Red takes blue's 4 dots; Y no longer counts for blue.
    expect(closeRing(0, 2)[0].captured).toHaveLength(4);
    expect(game.scores).toEqual([4, 0]);
    // Blue takes red's 8 dots; blue's own 4 no longer count for red; Y, red's, now counts for blue.
    expect(closeRing(1, 3)[0].captured).toHaveLength(8);
    expect(game.scores).toEqual([0, 9]);
  });

  it('captured dots take no part in chains', () => {
    // Blue's dot at (2,2) is captured; a blue line using it cannot close around red.
    const game = newGame(9, 9);
    setUp(game, 1, [[2, 2]]);
    setUp(game, 0, [[1, 2], [2, 1], [3, 2]]);
    surroundsOf(game.place(0, 2, 3));
    // Blue tries to enclose red (3,2) with (2,2) as its north wall: (3,1),(4,2),(3,3).
    setUp(game, 1, [[3, 1], [4, 2]]);
    expect(surroundsOf(game.place(1, 3, 3))).toEqual([]);
    expect(game.scores).toEqual([1, 0]);
  });
});

describe('empty enclosures (the design document rule)', () => {
  function emptyRing(): DotsGame {
    const game = newGame(6, 6);
    setUp(game, 0, [[1, 2], [2, 1], [3, 2]]);
    expect(surroundsOf(game.place(0, 2, 3))).toEqual([]); // encloses nothing: no surround
    return game;
  }

  it('leaves an empty enclosure playable', () => {
    const game = emptyRing();
    expect(game.illegality(2, 2)).toBeNull();
  });

  it("captures an enemy dot placed inside at the owner's next move, wherever it is", () => {
    const game = emptyRing();
    expect(surroundsOf(game.place(1, 2, 2))).toEqual([]);
    const [surround] = surroundsOf(game.place(0, 5, 5));
    expect(surround.deferred).toBe(true);
    expect(pairs(surround.captured)).toEqual([[2, 2]]);
    // Anchored on the captured dot: X0 = (2,1).
    expect(pairs(surround.chain)).toEqual([[3, 2], [2, 3], [1, 2], [2, 1]]);
    expect(game.scores).toEqual([1, 0]);
  });

  it('does not capture it before the owner moves', () => {
    const game = emptyRing();
    game.place(1, 2, 2);
    expect(surroundsOf(game.place(1, 5, 5))).toEqual([]);
    expect(game.board.isLiveDot(game.field.point(2, 2), 1)).toBe(true);
  });
});

describe('3 and 4 players', () => {
  it('captures the dots of two opponents in one area', () => {
    const game = newGame(7, 5, 3);
    setUp(game, 0, [[2, 2]]);
    setUp(game, 1, [[2, 3]]);
    setUp(game, 2, [[1, 2], [1, 3], [3, 2], [3, 3], [2, 1]]);
    const [surround] = surroundsOf(game.place(2, 2, 4));
    expect(pairs(surround.captured)).toEqual([[2, 2], [2, 3]]);
    expect(game.scores).toEqual([0, 0, 2]);
  });

  it('lets each of 4 players capture, and an opponent dot is a wall for nobody else', () => {
    const game = newGame(9, 9, 4);
    // Seat 3 surrounds one dot of each other seat in a 1x3 area.
    setUp(game, 0, [[4, 3]]);
    setUp(game, 1, [[4, 4]]);
    setUp(game, 2, [[4, 5]]);
    setUp(game, 3, [[3, 3], [3, 4], [3, 5], [5, 3], [5, 4], [5, 5], [4, 2]]);
    const [surround] = surroundsOf(game.place(3, 4, 6));
    expect(surround.captured).toHaveLength(3);
    expect(game.scores).toEqual([0, 0, 0, 3]);
  });

  it('rotates turns over the players still placing dots', () => {
    const game = newGame(9, 9, 3);
    expect(game.toMove).toBe(0);
    game.play(0, 0);
    expect(game.toMove).toBe(1);
    game.stop(2);
    game.play(0, 1);
    expect(game.toMove).toBe(0);
  });
});

describe('turn order', () => {
  it('alternates strictly without the extra-move rule, even after a surround', () => {
    const game = newGame(5, 5);
    setUp(game, 0, [[1, 2], [2, 1], [3, 2]]);
    setUp(game, 1, [[2, 2]]);
    expect(surroundsOf(game.play(2, 3))).toHaveLength(1);
    expect(game.toMove).toBe(1);
  });

  it('gives the surrounder another move with the extra-move rule', () => {
    const game = newGame(5, 5, 2, true);
    setUp(game, 0, [[1, 2], [2, 1], [3, 2]]);
    setUp(game, 1, [[2, 2]]);
    game.play(2, 3);
    expect(game.toMove).toBe(0);
    game.play(4, 4);
    expect(game.toMove).toBe(1);
  });

  it('gives every move to the other player after a stop', () => {
    const game = newGame(5, 5);
    game.play(0, 0);
    game.stop(0);
    expect(game.toMove).toBe(1);
    game.play(0, 1);
    expect(game.toMove).toBe(1);
  });

  it('spends the turn of an illegal move without placing anything', () => {
    const game = newGame(5, 5);
    game.play(1, 1);
    expect(game.play(1, 1)).toMatchObject({ legal: false, player: 1, reason: 'occupied' });
    expect(game.toMove).toBe(0);
    expect(game.play(5, 0)).toMatchObject({ legal: false, reason: 'off_board' });
    expect(game.play(-1, 0)).toMatchObject({ legal: false, reason: 'off_board' });
  });
});

describe('field sizes', () => {
  it('accepts 1x1 to 50x50 and nothing else', () => {
    expect(() => newGame(1, 1)).not.toThrow();
    expect(() => newGame(50, 50)).not.toThrow();
    expect(() => newGame(51, 10)).toThrow(RangeError);
    expect(() => newGame(0, 10)).toThrow(RangeError);
    expect(() => newGame(10, 10, 5)).toThrow(RangeError);
    expect(() => newGame(10, 10, 1)).toThrow(RangeError);
  });

  it('plays the single point of a 1x1 field and nothing more', () => {
    const game = newGame(1, 1);
    expect(game.play(0, 0)).toMatchObject({ legal: true, surrounds: [] });
    expect(game.play(0, 0)).toMatchObject({ legal: false, reason: 'occupied' });
  });

  it('captures at the far corner of a 50x50 field', () => {
    const game = newGame(50, 50);
    setUp(game, 1, [[48, 48]]);
    setUp(game, 0, [[47, 48], [48, 47], [49, 48]]);
    expect(surroundsOf(game.place(0, 48, 49))).toHaveLength(1);
  });
});

describe('reason codes', () => {
  // One hand-made position per rule of DOTS_ILLEGAL, on a 5x5 field (rows and columns 0..4).
  const cases: Record<DotsIllegal, { setup: (game: DotsGame) => void; seat: number; at: RC; centralStart?: boolean }> = {
    // Column 5 is one past the last column.
    off_board: { setup: () => undefined, seat: 0, at: [2, 5] },
    // Blue already has a dot on 2,2.
    occupied: { setup: (game) => setUp(game, 1, [[2, 2]]), seat: 0, at: [2, 2] },
    // Red surrounds blue 2,2 together with the empty point 2,3 (a 1x2 area): that point becomes
    // red's area, where blue may not play.
    inside_surround: {
      setup: (game) => {
        setUp(game, 1, [[2, 2]]);
        setUp(game, 0, [[1, 2], [1, 3], [3, 2], [3, 3], [2, 1]]);
        // The last wall closes the area {2,2 (blue), 2,3 (empty)}.
        expect(surroundsOf(game.place(0, 2, 4)).map((s) => pairs(s.empty))).toEqual([[[2, 3]]]);
      },
      seat: 1,
      at: [2, 3],
    },
    // Under the server's central start, a first dot goes to the middle 3x3 of a 5x5 field (1..3).
    outside_start_area: { setup: () => undefined, seat: 0, at: [0, 2], centralStart: true },
  };

  it('has a case for every code, and no other', () => {
    expect(Object.keys(cases).sort()).toEqual([...DOTS_ILLEGAL].sort());
  });

  it.each(Object.entries(cases))('refuses %s with that code, placing nothing', (reason, { setup, seat, at, centralStart }) => {
    const game = new DotsGame({ width: 5, height: 5, players: 2, extraMove: false, centralStart });
    setup(game);
    const owners = game.board.owner.slice();
    expect(game.illegality(at[0], at[1])).toBe(reason);
    expect(game.place(seat, at[0], at[1])).toMatchObject({ legal: false, player: seat, reason });
    expect(game.board.owner).toEqual(owners);
  });
});
