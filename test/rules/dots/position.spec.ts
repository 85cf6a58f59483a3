import { scorePosition } from '../../../src/rules/dots/index.js';

/** A position from rows of server digits (0 empty, 1-4 dots, 5-8 captured dots, 9 surrounded empty). */
function position(players: number, rows: string[]) {
  return { width: rows[0].length, height: rows.length, players, points: rows.join('').split('').map(Number) };
}

describe('scoring a position without its history', () => {
  it('credits a captured dot to the player whose live dots enclose it', () => {
    const score = scorePosition(position(2, ['00000', '00100', '01610', '00100', '00000']));
    expect(score.points).toEqual([1, 0]);
    expect(score.liveDots).toEqual([4, 0]);
    expect(score.capturedDots).toEqual([0, 1]);
    expect(score.unenclosed).toEqual([]);
  });

  it('counts surrounded empty points without scoring them', () => {
    const score = scorePosition(position(2, ['000000', '001100', '019610', '001100', '000000']));
    expect(score.points).toEqual([1, 0]);
    expect(score.surroundedEmpty).toBe(1);
  });

  it("gives a re-surrounded area's contents to the outer surrounder, and a player's own dots to nobody", () => {
    // Red once captured blue's centre dot (6); blue then surrounded red's four walls (5).
    const score = scorePosition(position(2, ['0000000', '0002000', '0025200', '0256520', '0025200', '0002000', '0000000']));
    expect(score.points).toEqual([0, 4]);
    expect(score.recaptured).toEqual([{ row: 3, col: 3 }]);
  });

  it('scores 3 players', () => {
    const score = scorePosition(position(3, ['000000', '003300', '035630', '003300', '000000']));
    expect(score.points).toEqual([0, 0, 2]);
  });

  it('reports captured dots that nobody encloses (edge, or no wall)', () => {
    const score = scorePosition(position(2, ['06000', '00000', '00900']));
    expect(score.unenclosed).toEqual([
      { row: 0, col: 1 },
      { row: 2, col: 2 },
    ]);
    expect(score.points).toEqual([0, 0]);
  });
});
