import type { CheckersIllegal } from '../../../src/rules/checkers/illegal.js';
import { IllegalJudgement, ProposedMove, judgeMove } from '../../../src/rules/checkers/judge-move.js';
import type { Colour } from '../../../src/rules/checkers/pieces.js';
import type { Position } from '../../../src/rules/checkers/position.js';
import { boardOf, sq } from './board-builder.js';

/** `c3-d4` or `f4:d6:f8` with the captured squares between the landings given separately. */
export function proposed(path: string, captured: readonly string[] = []): ProposedMove {
  const squares = path.split(/[-:]/).map(sq);
  return { from: squares[0], landings: squares.slice(1), captured: captured.map(sq) };
}

/** The engine's refusal of a move; throws when the engine accepts it. */
export function refusal(position: Position, path: string, captured: readonly string[] = []): IllegalJudgement {
  const judgement = judgeMove(position, proposed(path, captured));
  if (judgement.legal) throw new Error(`${path} was judged legal`);
  return judgement;
}

export interface IllegalCase {
  readonly board: Parameters<typeof boardOf>[0];
  readonly toMove: Colour;
  readonly path: string;
  readonly captured?: readonly string[];
}

/**
 * One hand-made position per rule of CHECKERS_ILLEGAL and a move that breaks it, but the fallback
 * `no_such_capture`. Rows 8..1 from the top; white men move up the board, black men down; a1 is a
 * dark square. The rules tests check the codes and facts, the notation tests the words.
 */
export const ILLEGAL_CASES: Readonly<Record<Exclude<CheckersIllegal, 'no_such_capture'>, IllegalCase>> = {
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

/** The refusal of an {@link ILLEGAL_CASES} case. */
export function refusalOf({ board, toMove, path, captured }: IllegalCase): IllegalJudgement {
  return refusal(boardOf(board, toMove), path, captured);
}
