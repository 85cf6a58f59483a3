import type { IllegalJudgement, Leg, ProposedMove } from '../../../rules/checkers/judge-move.js';
import { Move, isCapture } from '../../../rules/checkers/move.js';
import { describeGameOver } from '../../../rules/checkers/outcome.js';
import { describePiece } from '../../../rules/checkers/pieces.js';
import { BOARD_SIZE, Square, columnOf, rowOf, squareAt } from '../../../rules/checkers/squares.js';

/**
 * Standard Russian notation, which every checkers format here writes in its messages and replay
 * rows: squares by name (`g3`), quiet moves `c3-d4`, captures with every landing `f4:d6:f8`. The
 * rules engine works in square indices and reason codes only; this is where they become words.
 */

/** Files a to h, column 0 first. */
const FILES = 'abcdefgh';

/** `g3` for row 5, column 6 (row 0 is rank 8). */
export function squareName(square: Square): string {
  return `${FILES[columnOf(square)]}${BOARD_SIZE - rowOf(square)}`;
}

/** The square of a name like `g3` (lower-case file, rank 1 to 8), or undefined when it is not a square of the board. */
export function parseSquareName(name: string): Square | undefined {
  if (name.length !== 2) return undefined;
  const column = FILES.indexOf(name[0]);
  const rank = name.charCodeAt(1) - '0'.charCodeAt(0);
  if (column < 0 || rank < 1 || rank > BOARD_SIZE) return undefined;
  return squareAt(BOARD_SIZE - rank, column);
}

/** `c3-d4` for a quiet move, `f4:d6:f8` for a capture with every landing. */
export function moveNotation(move: Move): string {
  return writtenSquares(move.from, move.landings, isCapture(move));
}

/**
 * Why the rules engine refused a move, in the words a player would use, e.g.
 * `capture was mandatory: c5:e3 available` or `c3:e5: e5 is occupied`. A move proposed as a capture
 * (captured squares given) is written with `:`, a quiet one with `-`, as the record gave its landings.
 */
export function describeIllegal(judgement: IllegalJudgement): string {
  const { proposed } = judgement;
  const written = writtenSquares(proposed.from, proposed.landings, proposed.captured.length > 0);
  switch (judgement.reason) {
    case 'game_over':
      return `the game is already over (${describeGameOver(judgement.over)})`;
    case 'no_piece':
      return `there is no piece on ${squareName(judgement.square)}`;
    case 'opponent_piece':
      return `${squareName(judgement.square)} holds a ${describePiece(judgement.piece)}, but ${judgement.toMove} is to move`;
    case 'must_capture':
      return `capture was mandatory: ${moveNotation(judgement.capture)} available`;
    case 'several_destinations':
      // Written with a dash after the start even when no destination is given at all (`c3-`).
      return `${squareName(proposed.from)}-${proposed.landings.map(squareName).join('-')}: a quiet move has one destination`;
    case 'not_diagonal':
      return 'step' in judgement
        ? notAQuietMove(proposed, 'the squares are not on one diagonal')
        : `${written}: ${jumpNotation(judgement.jump)} is not along a diagonal`;
    case 'occupied':
      return 'step' in judgement
        ? notAQuietMove(proposed, `${squareName(judgement.step.to)} is occupied`)
        : `${written}: ${squareName(judgement.jump.to)} is occupied`;
    case 'blocked':
      return notAQuietMove(proposed, 'a piece stands in the way');
    case 'man_too_far':
      return notAQuietMove(proposed, 'a man moves one square');
    case 'man_backwards':
      return notAQuietMove(proposed, 'a man moves only forwards');
    case 'captures_per_landing':
      return 'a capture needs one captured piece per landing';
    case 'jumps_nothing':
      return `${written}: ${jumpNotation(judgement.jump)} jumps no piece`;
    case 'jumps_several':
      return `${written}: ${jumpNotation(judgement.jump)} jumps more than one piece`;
    case 'jumps_own_piece':
      return `${written}: ${jumpNotation(judgement.jump)} jumps its own piece on ${squareName(judgement.jumped)}`;
    case 'jumped_twice':
      return `${written}: ${squareName(judgement.jumped)} would be jumped twice (a captured piece stays on the board until the move ends)`;
    case 'man_jump_distance':
      return `${written}: a man captures by jumping an adjacent piece to the square right behind it`;
    case 'wrong_captured': {
      // Landings of a legal capture name the whole move; otherwise the jump that takes another piece.
      const what = judgement.jump ? `${written}: ${jumpNotation(judgement.jump)}` : written;
      return `${what} captures ${squareName(judgement.takes)}, not ${squareName(judgement.named)} as written`;
    }
    case 'king_landing':
      return `${written}: the king must land where the capture continues (${squareName(judgement.better)}, not ${squareName(judgement.jump.to)})`;
    case 'must_continue': {
      const available = judgement.continuation ? `: ${moveNotation(judgement.continuation)} available` : '';
      return `${written}: the capture must continue${available}`;
    }
    case 'no_such_capture':
      return `${written} is not a legal move`;
  }
}

/** A quiet move's refusal: `d4-c3 is not a legal move: a man moves only forwards`. */
function notAQuietMove(proposed: ProposedMove, why: string): string {
  return `${writtenSquares(proposed.from, proposed.landings, false)} is not a legal move: ${why}`;
}

/** One jump of a capture, `c3:e5`. */
function jumpNotation(jump: Leg): string {
  return writtenSquares(jump.from, [jump.to], true);
}

function writtenSquares(from: Square, landings: readonly Square[], capture: boolean): string {
  return [from, ...landings].map(squareName).join(capture ? ':' : '-');
}
