import { CHECKERS_ILLEGAL } from '../../../src/rules/checkers/illegal.js';
import { judgeMove } from '../../../src/rules/checkers/judge-move.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { BLACK_MAN } from '../../../src/rules/checkers/pieces.js';
import { gameOver, describeGameOver } from '../../../src/rules/checkers/outcome.js';
import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { legalMoves } from '../../../src/rules/checkers/legal-moves.js';
import { boardOf, sq } from '../../support/checkers/board-builder.js';
import { ILLEGAL_CASES, proposed, refusalOf } from '../../support/checkers/illegal-cases.js';

// The engine refuses with a code and the squares involved; the words are the formats' (test/formats/families/checkers).

describe('judging a recorded move', () => {
  it('accepts a legal quiet move and a legal capture, returning the engine move', () => {
    const quiet = judgeMove(Position.initial(), proposed('c3-d4'));
    expect(quiet.legal && quiet.move).toEqual({ from: sq('c3'), landings: [sq('d4')], captured: [], promotes: false });
    const capture = judgeMove(boardOf({ white: ['b4'], black: ['c5', 'e7'] }, 'white'), proposed('b4:d6:f8', ['c5', 'e7']));
    expect(capture.legal && capture.move.promotes).toBe(true);
  });

  it('agrees with the move generator on every move of the initial position and a king-rich position', () => {
    const positions = [Position.initial(), boardOf({ white: ['Kh6', 'a1'], black: ['e3', 'b2', 'c5', 'e5'] }, 'white')];
    for (const position of positions) {
      for (const move of legalMoves(position)) {
        const judgement = judgeMove(position, move);
        expect(judgement.legal).toBe(true);
      }
    }
  });
});

describe('reason codes', () => {
  it('has a case for every code but the fallback', () => {
    expect(Object.keys(ILLEGAL_CASES).sort()).toEqual(CHECKERS_ILLEGAL.filter((code) => code !== 'no_such_capture').sort());
  });

  it.each(Object.entries(ILLEGAL_CASES))('refuses %s with that code and the move as proposed', (reason, example) => {
    const judgement = refusalOf(example);
    expect(judgement.reason).toBe(reason);
    expect(judgement.proposed).toEqual(proposed(example.path, example.captured));
  });
});

describe('the facts of a refusal', () => {
  it('names the capture that was mandatory and the piece of the wrong colour', () => {
    // Black d4 takes white e3 landing on f2.
    expect(refusalOf(ILLEGAL_CASES.must_capture)).toEqual({
      legal: false,
      reason: 'must_capture',
      proposed: proposed('c5-b4'),
      capture: { from: sq('d4'), landings: [sq('f2')], captured: [sq('e3')], promotes: false },
    });
    expect(refusalOf(ILLEGAL_CASES.opponent_piece)).toMatchObject({ reason: 'opponent_piece', square: sq('f6'), piece: BLACK_MAN, toMove: 'white' });
  });

  it('gives the step of a quiet move and the jump of a capture', () => {
    expect(refusalOf(ILLEGAL_CASES.occupied)).toMatchObject({ reason: 'occupied', step: { from: sq('c3'), to: sq('d4') } });
    // White c3 cannot land on e5, where black's own man stands behind d4.
    const landingTaken = refusalOf({ board: { white: ['c3'], black: ['d4', 'e5'] }, toMove: 'white', path: 'c3:e5', captured: ['d4'] });
    expect(landingTaken).toMatchObject({ reason: 'occupied', jump: { from: sq('c3'), to: sq('e5') } });
    expect(landingTaken).not.toHaveProperty('step');
  });

  it('names the piece jumped twice, the better landing of a king, and how the end of the game came', () => {
    // The second jump d4:b2 passes over c3 again.
    expect(refusalOf(ILLEGAL_CASES.jumped_twice)).toMatchObject({ reason: 'jumped_twice', jump: { from: sq('d4'), to: sq('b2') }, jumped: sq('c3') });
    // From e5 the king goes on over f4; from d4 it cannot.
    expect(refusalOf(ILLEGAL_CASES.king_landing)).toMatchObject({ reason: 'king_landing', jump: { from: sq('a1'), to: sq('d4') }, better: sq('e5') });
    expect(refusalOf(ILLEGAL_CASES.game_over)).toMatchObject({ reason: 'game_over', over: { winner: 'white', loser: 'black', reason: 'no move' } });
  });

  it('tells a wrong captured square of a legal capture from one of a single jump', () => {
    expect(refusalOf(ILLEGAL_CASES.wrong_captured)).toMatchObject({ reason: 'wrong_captured', jump: null, takes: sq('c3'), named: sq('d4') });
    // c3:e5 must go on to g7, so it is no legal capture: its one jump takes d4.
    const jump = refusalOf({ board: { white: ['c3'], black: ['d4', 'f6'] }, toMove: 'white', path: 'c3:e5', captured: ['f6'] });
    expect(jump).toMatchObject({ reason: 'wrong_captured', jump: { from: sq('c3'), to: sq('e5') }, takes: sq('d4'), named: sq('f6') });
  });

  it('gives the legal capture a stopped one must continue to', () => {
    expect(refusalOf(ILLEGAL_CASES.must_continue)).toMatchObject({
      reason: 'must_continue',
      jump: { from: sq('c3'), to: sq('e5') },
      continuation: { from: sq('c3'), landings: [sq('e5'), sq('g7')], captured: [sq('d4'), sq('f6')], promotes: false },
    });
  });
});

describe('the end of the game', () => {
  it('is a loss for the side left without pieces', () => {
    const position = boardOf({ white: ['c3'], black: ['d4'] }, 'white');
    const after = applyMove(position, legalMoves(position)[0]);
    const over = gameOver(after);
    expect(over).toEqual({ winner: 'white', loser: 'black', reason: 'no pieces' });
    expect(describeGameOver(over!)).toBe('white wins: black has no pieces');
  });

  it('is a loss for the side that cannot move', () => {
    // Black's only man on a5 is blocked by b4 with c3 behind it.
    expect(gameOver(boardOf({ white: ['b4', 'c3'], black: ['a5'] }, 'black'))).toEqual({ winner: 'white', loser: 'black', reason: 'no move' });
  });

  it('is not reached while a move exists', () => {
    expect(gameOver(Position.initial())).toBeNull();
    expect(gameOver(boardOf({ white: ['b4', 'c3'], black: ['a5'] }, 'white'))).toBeNull();
  });
});
