import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { capturesFrom } from '../../../src/rules/checkers/captures.js';
import { legalMoves } from '../../../src/rules/checkers/legal-moves.js';
import { moveNotation } from '../../../src/formats/families/checkers/notation.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { WHITE_KING } from '../../../src/rules/checkers/pieces.js';
import { boardOf, sq } from '../../support/checkers/board-builder.js';

const notations = (position: Position) => legalMoves(position).map(moveNotation).sort();

describe('quiet moves', () => {
  it('gives white its seven opening moves', () => {
    expect(notations(Position.initial())).toEqual(['a3-b4', 'c3-b4', 'c3-d4', 'e3-d4', 'e3-f4', 'g3-f4', 'g3-h4']);
  });

  it('moves men only forwards: white up the board, black down', () => {
    expect(notations(boardOf({ white: ['d4'], black: ['a7'] }, 'white'))).toEqual(['d4-c5', 'd4-e5']);
    expect(notations(boardOf({ white: ['h2'], black: ['d4'] }, 'black'))).toEqual(['d4-c3', 'd4-e3']);
  });

  it('crowns a man that steps onto the last row', () => {
    const moves = legalMoves(boardOf({ white: ['c7'], black: ['h2'] }, 'white'));
    expect(moves.map(moveNotation).sort()).toEqual(['c7-b8', 'c7-d8']);
    expect(moves.every((move) => move.promotes)).toBe(true);
    expect(applyMove(boardOf({ white: ['c7'], black: ['h2'] }, 'white'), moves[0]).at(moves[0].landings[0])).toBe(WHITE_KING);
  });

  it('lets a king fly along every diagonal until a piece stops it', () => {
    const moves = notations(boardOf({ white: ['Kc3', 'e5'], black: ['h8'] }, 'white'));
    // c3: b2, a1 / b4, a5 / d2, e1 / d4 (e5 own piece); e5: d6, f6
    expect(moves).toEqual(['c3-a1', 'c3-a5', 'c3-b2', 'c3-b4', 'c3-d2', 'c3-d4', 'c3-e1', 'e5-d6', 'e5-f6']);
  });
});

describe('captures of men', () => {
  it('are mandatory: only the capture is legal when one exists', () => {
    expect(notations(boardOf({ white: ['c3', 'g3'], black: ['d4'] }, 'white'))).toEqual(['c3:e5']);
  });

  it('go backwards too', () => {
    expect(notations(boardOf({ white: ['d4'], black: ['c3'] }, 'white'))).toEqual(['d4:b2']);
    expect(notations(boardOf({ white: ['e5'], black: ['d6'] }, 'black'))).toEqual(['d6:f4']);
  });

  it('need an empty square right behind the captured piece', () => {
    expect(notations(boardOf({ white: ['c3'], black: ['d4', 'e5'] }, 'white'))).toEqual(['c3-b4']);
  });

  it('continue while possible, in any direction', () => {
    // c1 takes d2 (black) landing e3, then f4 landing g5, then f6 landing e7.
    expect(notations(boardOf({ white: ['c1'], black: ['d2', 'f4', 'f6'] }, 'white'))).toEqual(['c1:e3:g5:e7']);
  });

  it('offer every sequence, not only the longest', () => {
    // From c3: over b4 to a5 (ends), or over d4 to e5 and on over f6 to g7.
    expect(notations(boardOf({ white: ['c3'], black: ['b4', 'd4', 'f6'] }, 'white'))).toEqual(['c3:a5', 'c3:e5:g7']);
  });

  it('may be made by any piece that can capture', () => {
    expect(notations(boardOf({ white: ['c3', 'g3'], black: ['d4', 'f4'] }, 'white'))).toEqual(['c3:e5', 'g3:e5']);
  });

  it('crown a man on the last row in mid-capture, and it goes on capturing as a king', () => {
    // b6 takes c7 and lands on d8 crowned; as a king it flies over e7 and f6 to take g5, landing on h4.
    const position = boardOf({ white: ['b6'], black: ['c7', 'g5'] }, 'white');
    const moves = legalMoves(position);
    expect(moves.map(moveNotation)).toEqual(['b6:d8:h4']);
    expect(moves[0].promotes).toBe(true);
    expect(moves[0].captured).toEqual([sq('c7'), sq('g5')]);
    expect(applyMove(position, moves[0]).at(sq('h4'))).toBe(WHITE_KING);
  });

  it('crown a man that ends its capture on the last row', () => {
    const moves = legalMoves(boardOf({ white: ['b6'], black: ['c7', 'h2'] }, 'white'));
    expect(moves.map(moveNotation)).toEqual(['b6:d8']);
    expect(moves[0].promotes).toBe(true);
  });

  it('remove the captured pieces when the move ends', () => {
    const position = boardOf({ white: ['c1'], black: ['d2', 'f4', 'h8'] }, 'white');
    const after = applyMove(position, legalMoves(position)[0]);
    expect(after.count('black')).toEqual({ men: 1, kings: 0 });
    expect(after.at(sq('g5'))).toBe(1);
    expect(after.toMove).toBe('black');
  });
});

describe('captures of kings', () => {
  it('fly over any distance and may land on any empty square beyond', () => {
    expect(notations(boardOf({ white: ['Ka1'], black: ['c3'] }, 'white'))).toEqual(['a1:d4', 'a1:e5', 'a1:f6', 'a1:g7', 'a1:h8']);
  });

  it('must land where the capture can continue when such a landing exists', () => {
    // Beyond c3 only e5 lets the king go on (over f4 to g3 or h2).
    expect(notations(boardOf({ white: ['Ka1'], black: ['c3', 'f4'] }, 'white'))).toEqual(['a1:e5:g3', 'a1:e5:h2']);
  });

  it('cannot jump two pieces in a row or a piece with no empty square behind', () => {
    expect(notations(boardOf({ white: ['Ka1'], black: ['c3', 'd4', 'h6'] }, 'white'))).not.toContain('a1:e5');
    expect(legalMoves(boardOf({ white: ['Ka1'], black: ['c3', 'd4'] }, 'white')).every((m) => m.captured.length === 0)).toBe(true);
  });

  it('never jump a captured piece twice, and the captured piece still blocks (Turkish strike)', () => {
    // h6 takes e3 (must land on c1, where it continues), b2 (to a3), c5 (to d6) and e5 (to f4, g3 or h2).
    // From f4 the dead piece on e3 stands with an empty square behind it, yet it cannot be taken again.
    const position = boardOf({ white: ['Kh6'], black: ['e3', 'b2', 'c5', 'e5'] }, 'white');
    expect(notations(position)).toEqual(['h6:c1:a3:d6:f4', 'h6:c1:a3:d6:g3', 'h6:c1:a3:d6:h2']);
    for (const move of capturesFrom(position, sq('h6'))) expect(new Set(move.captured).size).toBe(4);
  });

  it('are not crowned again', () => {
    const moves = legalMoves(boardOf({ white: ['Kb6'], black: ['c7'] }, 'white'));
    expect(moves.map(moveNotation)).toEqual(['b6:d8']);
    expect(moves[0].promotes).toBe(false);
  });

  it('may cross their own starting square during a sequence', () => {
    // A closed loop: over c5 to b6, c7 to d8, e7 to f6, e5 back to d4 (c3 stops the flight there), then c3.
    const position = boardOf({ white: ['Kd4'], black: ['c5', 'c7', 'e7', 'e5', 'c3'] }, 'white');
    const moves = legalMoves(position).map(moveNotation);
    expect(moves).toContain('d4:b6:d8:f6:d4:b2');
    expect(moves).toContain('d4:b6:d8:f6:d4:a1');
    expect(moves.filter((move) => move.startsWith('d4:b6') || move.startsWith('d4:a7'))).toHaveLength(2);
  });
});
