import type { CheckersIllegal } from '../../../../src/rules/checkers/illegal.js';
import { Position } from '../../../../src/rules/checkers/position.js';
import { describeIllegal } from '../../../../src/formats/families/checkers/notation.js';
import { boardOf, sq } from '../../../support/checkers/board-builder.js';
import { ILLEGAL_CASES, proposed, refusal, refusalOf } from '../../../support/checkers/illegal-cases.js';

/** The refusal's explanation in words. */
function reasonFor(position: Position, path: string, captured: string[] = []): string {
  return describeIllegal(refusal(position, path, captured));
}

describe('a refused move in words', () => {
  it('names a capture that was mandatory', () => {
    expect(reasonFor(boardOf({ white: ['e3', 'a1'], black: ['c5', 'd4'] }, 'black'), 'c5-b4')).toBe('capture was mandatory: d4:f2 available');
  });

  it('refuses moving from an empty square or the opponent\'s piece', () => {
    expect(reasonFor(Position.initial(), 'd4-e5')).toBe('there is no piece on d4');
    expect(reasonFor(Position.initial(), 'b6-a5')).toBe('b6 holds a black man, but white is to move');
  });

  it('explains illegal quiet moves', () => {
    expect(reasonFor(boardOf({ white: ['d4'], black: ['a7'] }, 'white'), 'd4-c3')).toBe('d4-c3 is not a legal move: a man moves only forwards');
    expect(reasonFor(boardOf({ white: ['d4'], black: ['a7'] }, 'white'), 'd4-f6')).toBe('d4-f6 is not a legal move: a man moves one square');
    expect(reasonFor(boardOf({ white: ['d4'], black: ['a7'] }, 'white'), 'd4-d5')).toBe('d4-d5 is not a legal move: the squares are not on one diagonal');
    expect(reasonFor(boardOf({ white: ['Kd4', 'f6'], black: ['a7'] }, 'white'), 'd4-g7')).toBe('d4-g7 is not a legal move: a piece stands in the way');
  });

  it('insists that a capture sequence continues while it can', () => {
    expect(reasonFor(boardOf({ white: ['c1'], black: ['d2', 'f4'] }, 'white'), 'c1:e3', ['d2'])).toBe('c1:e3: the capture must continue: c1:e3:g5 available');
  });

  it('insists that a king lands where its capture continues', () => {
    expect(reasonFor(boardOf({ white: ['Ka1'], black: ['c3', 'f4'] }, 'white'), 'a1:d4', ['c3'])).toBe(
      'a1:d4: the king must land where the capture continues (e5, not d4)',
    );
  });

  it('refuses jumping a captured piece a second time', () => {
    const position = boardOf({ white: ['Kh6'], black: ['e3', 'b2', 'c5', 'e5'] }, 'white');
    expect(reasonFor(position, 'h6:c1:a3:d6:f4:d2', ['e3', 'b2', 'c5', 'e5', 'e3'])).toBe(
      'h6:c1:a3:d6:f4:d2: e3 would be jumped twice (a captured piece stays on the board until the move ends)',
    );
  });

  it('checks the captured squares the record names', () => {
    expect(reasonFor(boardOf({ white: ['Ka1'], black: ['c3'] }, 'white'), 'a1:e5', ['d4'])).toBe('a1:e5 captures c3, not d4 as written');
  });

  it('refuses a man capturing from afar and jumping its own piece', () => {
    expect(reasonFor(boardOf({ white: ['a1'], black: ['c3'] }, 'white'), 'a1:e5', ['c3'])).toBe(
      'a1:e5: a man captures by jumping an adjacent piece to the square right behind it',
    );
    expect(reasonFor(boardOf({ white: ['a1', 'b2'], black: ['h8'] }, 'white'), 'a1:c3', ['b2'])).toBe('a1:c3: a1:c3 jumps its own piece on b2');
  });

  it('words the rules a capture breaks in one of its jumps apart from those of a quiet move', () => {
    // e5 behind d4 is taken by black's own man.
    expect(reasonFor(boardOf({ white: ['c3'], black: ['d4', 'e5'] }, 'white'), 'c3:e5', ['d4'])).toBe('c3:e5: e5 is occupied');
    expect(reasonFor(boardOf({ white: ['c3'], black: ['h8'] }, 'white'), 'c3:c5', ['d4'])).toBe('c3:c5: c3:c5 is not along a diagonal');
    // c3:e5 alone is no legal capture (it must go on to g7), so the jump itself is checked: it takes d4.
    expect(reasonFor(boardOf({ white: ['c3'], black: ['d4', 'f6'] }, 'white'), 'c3:e5', ['f6'])).toBe('c3:e5: c3:e5 captures d4, not f6 as written');
  });
});

describe('words for every reason code', () => {
  // Written by hand for the positions of ILLEGAL_CASES.
  const sentences: Record<Exclude<CheckersIllegal, 'no_such_capture'>, string> = {
    game_over: 'the game is already over (white wins: black has no move)',
    no_piece: 'there is no piece on d4',
    opponent_piece: 'f6 holds a black man, but white is to move',
    must_capture: 'capture was mandatory: d4:f2 available',
    several_destinations: 'c3-d4-e5: a quiet move has one destination',
    not_diagonal: 'c3-c5 is not a legal move: the squares are not on one diagonal',
    occupied: 'c3-d4 is not a legal move: d4 is occupied',
    blocked: 'a1-d4 is not a legal move: a piece stands in the way',
    man_too_far: 'c3-e5 is not a legal move: a man moves one square',
    man_backwards: 'c3-d2 is not a legal move: a man moves only forwards',
    captures_per_landing: 'a capture needs one captured piece per landing',
    jumps_nothing: 'c3:e5: c3:e5 jumps no piece',
    jumps_several: 'a1:e5: a1:e5 jumps more than one piece',
    jumps_own_piece: 'a1:c3: a1:c3 jumps its own piece on b2',
    jumped_twice: 'a1:d4:b2: c3 would be jumped twice (a captured piece stays on the board until the move ends)',
    man_jump_distance: 'a1:e5: a man captures by jumping an adjacent piece to the square right behind it',
    wrong_captured: 'a1:e5 captures c3, not d4 as written',
    king_landing: 'a1:d4: the king must land where the capture continues (e5, not d4)',
    must_continue: 'c3:e5: the capture must continue: c3:e5:g7 available',
  };

  it.each(Object.entries(ILLEGAL_CASES))('refuses %s with that code and says why', (reason, example) => {
    const judgement = refusalOf(example);
    expect(judgement.reason).toBe(reason);
    expect(describeIllegal(judgement)).toBe(sentences[reason as keyof typeof sentences]);
  });

  it('names the end of the game in words', () => {
    expect(reasonFor(boardOf({ white: ['b4', 'c3'], black: ['a5'] }, 'black'), 'a5-b4')).toBe('the game is already over (white wins: black has no move)');
  });

  it('writes a quiet move without a destination with its dash, and the refusals no position here reaches', () => {
    expect(reasonFor(boardOf({ white: ['c3'], black: ['h8'] }, 'white'), 'c3')).toBe('c3-: a quiet move has one destination');
    const capture = proposed('c3:e5', ['d4']);
    expect(describeIllegal({ legal: false, reason: 'no_such_capture', proposed: capture })).toBe('c3:e5 is not a legal move');
    expect(describeIllegal({ legal: false, reason: 'must_continue', proposed: capture, jump: { from: sq('c3'), to: sq('e5') }, continuation: null })).toBe(
      'c3:e5: the capture must continue',
    );
  });
});
