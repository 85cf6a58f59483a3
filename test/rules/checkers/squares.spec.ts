import { isDarkSquare } from '../../../src/rules/checkers/squares.js';
import { Position } from '../../../src/rules/checkers/position.js';

// Square names (`g3`) are notation: test/formats/families/checkers/notation.spec.ts.
describe('squares in the area_monitor orientation', () => {
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
