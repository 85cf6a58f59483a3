/**
 * Why a checkers move is refused, one code per rule (see {@link judgeMove}):
 *
 * The mover
 * - `game_over`: the side to move has no legal move at all (no pieces, or every piece blocked);
 * - `no_piece`: the starting square is empty;
 * - `opponent_piece`: the starting square holds a piece of the side not to move.
 *
 * Quiet moves
 * - `must_capture`: a quiet move while the side to move has a capture (capturing is mandatory);
 * - `several_destinations`: a quiet move that does not name exactly one destination;
 * - `not_diagonal`: the squares of a step or jump are not on one diagonal;
 * - `occupied`: the destination or landing square holds a piece;
 * - `blocked`: a king's quiet move passes over a piece;
 * - `man_too_far`: a man's quiet move goes further than one square;
 * - `man_backwards`: a man's quiet move goes backwards.
 *
 * Captures
 * - `captures_per_landing`: the capture does not name one captured piece per landing;
 * - `jumps_nothing`: a jump passes over no piece;
 * - `jumps_several`: a jump passes over more than one piece;
 * - `jumps_own_piece`: a jump passes over a piece of the mover's colour;
 * - `jumped_twice`: a piece is jumped a second time (a captured piece stays on the board until the
 *   move ends and may not be jumped again);
 * - `man_jump_distance`: a man jumps other than an adjacent piece to the square right behind it;
 * - `wrong_captured`: the square given as captured is not the piece the jump takes;
 * - `king_landing`: a king lands where its capture cannot continue although another landing
 *   beyond the same piece would let it continue;
 * - `must_continue`: the capture stops while the piece can still capture;
 * - `no_such_capture`: no legal capture sequence has these landings and no more precise rule above
 *   was found broken. A fallback so that a refusal always has a code: a capture that passes every
 *   check above is one the move generator makes, so this is not expected to be reached.
 */
export const CHECKERS_ILLEGAL = [
  'game_over',
  'no_piece',
  'opponent_piece',
  'must_capture',
  'several_destinations',
  'not_diagonal',
  'occupied',
  'blocked',
  'man_too_far',
  'man_backwards',
  'captures_per_landing',
  'jumps_nothing',
  'jumps_several',
  'jumps_own_piece',
  'jumped_twice',
  'man_jump_distance',
  'wrong_captured',
  'king_landing',
  'must_continue',
  'no_such_capture',
] as const;

export type CheckersIllegal = (typeof CHECKERS_ILLEGAL)[number];
