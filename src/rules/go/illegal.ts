/**
 * Why a Go move is refused, one code per rule (see {@link GoPosition.play}):
 * - `off_board`: the point is not on the board;
 * - `occupied`: a stone already stands on the point;
 * - `suicide`: the move captures nothing and leaves its own group without a liberty;
 * - `ko`: the move retakes a single stone at once, recreating the position before the opponent's
 *   last move (simple ko).
 */
export const GO_ILLEGAL = ['off_board', 'occupied', 'suicide', 'ko'] as const;

export type GoIllegal = (typeof GO_ILLEGAL)[number];
