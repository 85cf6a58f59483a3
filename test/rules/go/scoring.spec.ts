import { BLACK, GoPosition, areaScore } from '../../../src/rules/go/index.js';
import { fromDiagram } from '../../support/go/diagram.js';

describe('areaScore (Tromp–Taylor)', () => {
  it('counts an empty board as neutral', () => {
    expect(areaScore(new GoPosition(9))).toEqual({ black: 0, white: 0, neutral: 81 });
  });

  it('gives a lone stone the whole board', () => {
    const position = new GoPosition(5);
    position.play(BLACK, 2, 2);
    expect(areaScore(position)).toEqual({ black: 25, white: 0, neutral: 0 });
  });

  it('splits a board walled into two territories', () => {
    const position = fromDiagram(['.XO..', '.XO..', '.XO..', '.XO..', '.XO..']);
    // Black: 5 stones + column 0; white: 5 stones + columns 3 and 4.
    expect(areaScore(position)).toEqual({ black: 10, white: 15, neutral: 0 });
  });

  it('leaves shared liberties of a seki neutral and still counts the eyes', () => {
    // Both walls live with three eyes each; the middle column is liberties both sides share.
    const position = fromDiagram(['.X.O.', 'XX.OO', '.X.O.', 'XX.OO', '.X.O.']);
    // Black: 7 stones + 3 eyes; white the same; column 2 reaches both colours.
    expect(areaScore(position)).toEqual({ black: 10, white: 10, neutral: 5 });
  });

  it("gives nobody an eyeless group's last liberties when they touch both colours", () => {
    // Black's eight stones have only (1,0) and (1,3) as liberties, both next to white too.
    const position = fromDiagram(['X.O..', 'XXOO.', 'XXOO.', 'X.O..', 'XXOO.']);
    // White: 8 stones + the 7 empty points on the right; black: its 8 stones only.
    expect(areaScore(position)).toEqual({ black: 8, white: 15, neutral: 2 });
  });

  it('counts dead stones as they stand (no removal)', () => {
    const position = fromDiagram(['....O', '.....', '..X..', '.....', '.....']);
    // The empty region touches both colours, so it is neutral.
    expect(areaScore(position)).toEqual({ black: 1, white: 1, neutral: 23 });
  });
});
