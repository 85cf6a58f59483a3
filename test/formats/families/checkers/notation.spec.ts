import { moveNotation, parseSquareName, squareName } from '../../../../src/formats/families/checkers/notation.js';
import { squareAt } from '../../../../src/rules/checkers/squares.js';

describe('squares by name in the area_monitor orientation', () => {
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
    expect(parseSquareName('a0')).toBeUndefined();
    expect(parseSquareName('C7')).toBeUndefined();
    expect(parseSquareName('')).toBeUndefined();
  });
});

describe('moves in Russian notation', () => {
  it('joins a quiet move with a dash and every landing of a capture with a colon', () => {
    // c3 is row 5, column 2; d4 row 4, column 3.
    expect(moveNotation({ from: squareAt(5, 2), landings: [squareAt(4, 3)], captured: [], promotes: false })).toBe('c3-d4');
    // f4:d6:f8 over e5 and e7.
    const capture = { from: squareAt(4, 5), landings: [squareAt(2, 3), squareAt(0, 5)], captured: [squareAt(3, 4), squareAt(1, 4)], promotes: true };
    expect(moveNotation(capture)).toBe('f4:d6:f8');
  });
});
