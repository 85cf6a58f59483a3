/**
 * Why a peg-solitaire jump is refused, one code per rule (see {@link judgeJump}), checked in this order:
 * - `not_a_jump`: the landing is not two cells away along a row, column or diagonal;
 * - `diagonal_not_allowed`: a diagonal jump on a board whose mode allows only orthogonal ones;
 * - `off_board`: the start, the jumped cell or the landing is outside the board's matrix;
 * - `not_a_slot`: one of them is a locked cell, where no stone can ever stand;
 * - `no_stone`: no stone stands on the start;
 * - `nothing_to_jump`: no stone stands on the cell jumped over;
 * - `occupied`: a stone already stands on the landing.
 */
export const PEG_ILLEGAL = ['not_a_jump', 'diagonal_not_allowed', 'off_board', 'not_a_slot', 'no_stone', 'nothing_to_jump', 'occupied'] as const;

export type PegIllegal = (typeof PEG_ILLEGAL)[number];
