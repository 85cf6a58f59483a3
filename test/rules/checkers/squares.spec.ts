import { isDarkSquare, parseSquareName, squareAt, squareName } from '../../../src/rules/checkers/squares.js';
import { Position } from '../../../src/rules/checkers/position.js';

describe('squares in the area_monitor orientation', () => {
  it('names [row][column] as the spec does: row 0 is rank 8, column 0 is file a', () => {
    expect(squareName(squareAt(5, 6))).toBe('g3');
    expect(squareName(squareAt(0, 5))).toBe('f8');
    expect(squareName(squareAt(1, 6))).toBe('g7');
    expect(squareName(squareAt(4, 1))).toBe('b4');
    expect(squareName(squareAt(7, 0))).toBe('a1');
  });

  it('parses names back and refuses what is not a square', () => {
    expect(parseSquareName('c7')).toBe(squareAt(1, 2));
    expect(parseSquareName('i1')).toBeUndefined();
    expect(parseSquareName('a9')).toBeUndefined();
    expect(parseSquareName('a10')).toBeUndefined();
  });

  it('has a1 and h8 dark, a8 light', () => {
    expect(isDarkSquare(7, 0)).toBe(true);
    expect(isDarkSquare(0, 7)).toBe(true);
    expect(isDarkSquare(0, 0)).toBe(false);
  });

  it('sets up the initial position of the spec', () => {
    const expected = [
      [9, 2, 9, 2, 9, 2, 9, 2],
      [2, 9, 2, 9, 2, 9, 2, 9],
      [9, 2, 9, 2, 9, 2, 9, 2],
      [0, 9, 0, 9, 0, 9, 0, 9],
      [9, 0, 9, 0, 9, 0, 9, 0],
      [1, 9, 1, 9, 1, 9, 1, 9],
      [9, 1, 9, 1, 9, 1, 9, 1],
      [1, 9, 1, 9, 1, 9, 1, 9],
    ].map((row) => row.map((cell) => (cell === 9 ? 0 : cell)));
    const initial = Position.initial();
    expect(initial.rows()).toEqual(expected);
    expect(initial.toMove).toBe('white');
  });
});
