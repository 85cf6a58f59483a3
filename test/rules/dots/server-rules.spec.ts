import { DotsGame, centralArea } from '../../../src/rules/dots/index.js';
import { pairs, setUp } from '../../support/dots/game-setup.js';

// The rules the Dots server adds to the engine: the central start and the end of a game.
// Cells are 0-based [row, col]; rows grow downwards.

describe('the central start area', () => {
  it('is the middle 2 lines of an even side and the middle 3 of an odd one', () => {
    // 10 points: 0..9, middle pair 4,5. 11 points: 0..10, middle three 4,5,6.
    expect(centralArea(10, 10)).toEqual({ rows: [4, 5], cols: [4, 5] });
    expect(centralArea(11, 11)).toEqual({ rows: [4, 6], cols: [4, 6] });
    expect(centralArea(10, 11)).toEqual({ rows: [4, 6], cols: [4, 5] });
    expect(centralArea(39, 32)).toEqual({ rows: [15, 16], cols: [18, 20] });
  });

  function serverGame(players = 2): DotsGame {
    return new DotsGame({ width: 10, height: 10, players, extraMove: false, centralStart: true });
  }

  it('refuses a first dot outside it, for every player, and allows later dots anywhere', () => {
    const game = serverGame();
    expect(game.illegality(0, 0)).toBe('outside_start_area');
    expect(game.illegality(3, 4)).toBe('outside_start_area');
    const refused = game.place(0, 0, 0);
    expect(refused).toMatchObject({ legal: false, reason: 'outside_start_area' });
    expect(game.place(0, 4, 4).legal).toBe(true);
    // Seat 1 has not moved yet: still bound to the centre; seat 0 is free now.
    expect(game.illegality(0, 0, 1)).toBe('outside_start_area');
    expect(game.illegality(0, 0, 0)).toBeNull();
    expect(game.place(1, 5, 5).legal).toBe(true);
    expect(game.place(1, 0, 9).legal).toBe(true);
  });

  it('fits four players on an even field, one point each', () => {
    const game = serverGame(4);
    for (const [seat, row, col] of [[0, 4, 4], [1, 4, 5], [2, 5, 4], [3, 5, 5]]) {
      expect(game.play(row, col).legal).toBe(true);
      expect(game.toMove).toBe((seat + 1) % 4);
    }
  });

  it('is not asked for without the option, so recorded games replay as before', () => {
    const game = new DotsGame({ width: 10, height: 10, players: 2, extraMove: false });
    expect(game.play(0, 0).legal).toBe(true);
  });
});

describe('the end of a game', () => {
  it('goes on while two players place dots and free points remain', () => {
    const game = new DotsGame({ width: 5, height: 5, players: 3, extraMove: false });
    game.stop(2);
    expect(game.activeSeats).toEqual([0, 1]);
    expect(game.ending()).toBeNull();
  });

  it('ends when all but one have stopped, or all have', () => {
    const game = new DotsGame({ width: 5, height: 5, players: 3, extraMove: false });
    game.stop(0);
    game.stop(2);
    expect(game.ending()).toBe('last_player');
    expect(game.toMove).toBe(1);
    game.stop(1);
    expect(game.ending()).toBe('all_stopped');
  });

  it('ends when no free point is left', () => {
    // A 2x1 field: two dots fill it.
    const game = new DotsGame({ width: 2, height: 1, players: 2, extraMove: false });
    game.play(0, 0);
    expect(game.ending()).toBeNull();
    game.play(0, 1);
    expect(game.hasFreePoint()).toBe(false);
    expect(game.ending()).toBe('no_free_point');
  });

  it('counts a surrounded empty point as not free', () => {
    // 3x3: red's diamond around the empty centre is an empty enclosure, no surround: the centre
    // stays free (blue holds the corners).
    const game = new DotsGame({ width: 3, height: 3, players: 2, extraMove: false });
    setUp(game, 0, [[0, 1], [1, 0], [1, 2], [2, 1]]);
    setUp(game, 1, [[0, 0], [0, 2], [2, 0], [2, 2]]);
    expect(game.hasFreePoint()).toBe(true);
    // Blue's dot fills the last empty point: nothing is free any more.
    game.place(1, 1, 1);
    expect(game.hasFreePoint()).toBe(false);
  });

  it('gives the last player the dots of the others that are not joined to the edge', () => {
    // 7x7. Blue: a lone dot at the centre (3,3), which can be surrounded, and a diagonal pair
    // (2,5)-(1,6) touching the right edge, which cannot. Green: a dot on the top edge (0,0).
    const game = new DotsGame({ width: 7, height: 7, players: 3, extraMove: false });
    setUp(game, 1, [[3, 3], [2, 5], [1, 6]]);
    setUp(game, 2, [[0, 0], [4, 4]]);
    expect(pairs(game.surroundableFor(0))).toEqual([[3, 3], [4, 4]]);
    // Green's view: blue's centre dot only (green's own dots are never counted).
    expect(pairs(game.surroundableFor(2))).toEqual([[3, 3]]);
  });
});
