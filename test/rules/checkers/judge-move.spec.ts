import { CHECKERS_ILLEGAL, CheckersIllegal } from '../../../src/rules/checkers/illegal.js';
import { IllegalJudgement, judgeMove, ProposedMove } from '../../../src/rules/checkers/judge-move.js';
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

/** The refusal's explanation in words. */
function reasonFor(position: Position, path: string, captured: string[] = []): string {
  return refusal(position, path, captured).detail;
}

function refusal(position: Position, path: string, captured: string[] = []): IllegalJudgement {
  const judgement = judgeMove(position, proposed(path, captured));
  if (judgement.legal) throw new Error(`${path} was judged legal`);
  return judgement;
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

describe('reason codes', () => {
  // One hand-made position per rule of CHECKERS_ILLEGAL and a move that breaks it. Rows 8..1 from
  // the top; white men move up the board, black men down; a1 is a dark square.
  type Case = { board: Parameters<typeof boardOf>[0]; toMove: 'white' | 'black'; path: string; captured?: string[] };
  const cases: Record<Exclude<CheckersIllegal, 'no_such_capture'>, Case> = {
    // Black's only man a5 is blocked: b4 is white and c3 behind it is taken, so black has no move at all.
    game_over: { board: { white: ['b4', 'c3'], black: ['a5'] }, toMove: 'black', path: 'a5-b4' },
    // Nothing stands on d4.
    no_piece: { board: { white: ['c3'], black: ['f6'] }, toMove: 'white', path: 'd4-e5' },
    // f6 is black's, and white is to move.
    opponent_piece: { board: { white: ['c3'], black: ['f6'] }, toMove: 'white', path: 'f6-e5' },
    // Black d4 can take white e3 (f2 is empty), so black's quiet c5-b4 is not allowed.
    must_capture: { board: { white: ['e3', 'a1'], black: ['c5', 'd4'] }, toMove: 'black', path: 'c5-b4' },
    // A quiet move with two destinations.
    several_destinations: { board: { white: ['c3'], black: ['h8'] }, toMove: 'white', path: 'c3-d4-e5' },
    // c3 to c5 is straight up a file, not a diagonal.
    not_diagonal: { board: { white: ['c3'], black: ['h8'] }, toMove: 'white', path: 'c3-c5' },
    // White's own man stands on d4.
    occupied: { board: { white: ['c3', 'd4'], black: ['h8'] }, toMove: 'white', path: 'c3-d4' },
    // The king on a1 cannot fly to d4 through its own man on c3.
    blocked: { board: { white: ['Ka1', 'c3'], black: ['h8'] }, toMove: 'white', path: 'a1-d4' },
    // A man steps one square: c3 to e5 is two.
    man_too_far: { board: { white: ['c3'], black: ['h8'] }, toMove: 'white', path: 'c3-e5' },
    // White men move up: c3 to d2 goes down.
    man_backwards: { board: { white: ['c3'], black: ['h8'] }, toMove: 'white', path: 'c3-d2' },
    // Two landings but only one captured piece named.
    captures_per_landing: { board: { white: ['b4'], black: ['c5', 'e7'] }, toMove: 'white', path: 'b4:d6:f8', captured: ['c5'] },
    // Nothing stands on d4 between c3 and e5.
    jumps_nothing: { board: { white: ['c3'], black: ['h8'] }, toMove: 'white', path: 'c3:e5', captured: ['d4'] },
    // The king's jump from a1 to e5 passes over both c3 and d4.
    jumps_several: { board: { white: ['Ka1'], black: ['c3', 'd4'] }, toMove: 'white', path: 'a1:e5', captured: ['c3'] },
    // b2 between a1 and c3 is white's own man.
    jumps_own_piece: { board: { white: ['a1', 'b2'], black: ['h8'] }, toMove: 'white', path: 'a1:c3', captured: ['b2'] },
    // The king takes c3 landing on d4, then jumps back over c3 (still on the board until the move ends).
    jumped_twice: { board: { white: ['Ka1'], black: ['c3'] }, toMove: 'white', path: 'a1:d4:b2', captured: ['c3', 'c3'] },
    // A man on a1 may take c3 only from b2: a1 to e5 is a king's jump.
    man_jump_distance: { board: { white: ['a1'], black: ['c3'] }, toMove: 'white', path: 'a1:e5', captured: ['c3'] },
    // The king's jump a1:e5 takes c3, not d4 as written.
    wrong_captured: { board: { white: ['Ka1'], black: ['c3'] }, toMove: 'white', path: 'a1:e5', captured: ['d4'] },
    // After taking c3 the king may land on d4..h8, but from e5 it goes on to take f4 (g3 empty):
    // it must land on e5, not d4 (from d4 nothing more can be taken).
    king_landing: { board: { white: ['Ka1'], black: ['c3', 'f4'] }, toMove: 'white', path: 'a1:d4', captured: ['c3'] },
    // After c3:e5 over d4 the man can go on over f6 to g7, so stopping on e5 is not allowed.
    must_continue: { board: { white: ['c3'], black: ['d4', 'f6'] }, toMove: 'white', path: 'c3:e5', captured: ['d4'] },
  };

  it('has a case for every code but the fallback', () => {
    expect(Object.keys(cases).sort()).toEqual(CHECKERS_ILLEGAL.filter((code) => code !== 'no_such_capture').sort());
  });

  it.each(Object.entries(cases))('refuses %s with that code and says why', (reason, { board, toMove, path, captured }) => {
    const judgement = refusal(boardOf(board, toMove), path, captured);
    expect(judgement.reason).toBe(reason);
    expect(judgement.detail.length).toBeGreaterThan(0);
  });

  it('names the end of the game in words', () => {
    expect(reasonFor(boardOf({ white: ['b4', 'c3'], black: ['a5'] }, 'black'), 'a5-b4')).toBe('the game is already over (white wins: black has no move)');
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
