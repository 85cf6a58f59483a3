import { judgeMove, ProposedMove } from '../../../src/rules/checkers/judge-move.js';
import { moveNotation } from '../../../src/rules/checkers/move.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { gameOver, describeGameOver } from '../../../src/rules/checkers/outcome.js';
import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { legalMoves } from '../../../src/rules/checkers/legal-moves.js';
import { boardOf, sq } from '../../support/checkers/board-builder.js';

/** `c3-d4` or `f4:d6:f8` with the captured squares between the landings given separately. */
function proposed(path: string, captured: string[] = []): ProposedMove {
  const squares = path.split(/[-:]/).map(sq);
  return { from: squares[0], landings: squares.slice(1), captured: captured.map(sq) };
}

function reasonFor(position: Position, path: string, captured: string[] = []): string {
  const judgement = judgeMove(position, proposed(path, captured));
  if (judgement.legal) throw new Error(`${path} was judged legal`);
  return judgement.reason;
}

describe('judging a recorded move', () => {
  it('accepts a legal quiet move and a legal capture, returning the engine move', () => {
    const quiet = judgeMove(Position.initial(), proposed('c3-d4'));
    expect(quiet.legal && moveNotation(quiet.move)).toBe('c3-d4');
    const capture = judgeMove(boardOf({ white: ['b4'], black: ['c5', 'e7'] }, 'white'), proposed('b4:d6:f8', ['c5', 'e7']));
    expect(capture.legal && capture.move.promotes).toBe(true);
  });

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
