/**
 * Why a dot is refused, one code per rule (see {@link DotsGame.illegality}):
 * - `off_board`: the point is not on the field;
 * - `occupied`: a dot (live or captured) already stands on the point;
 * - `inside_surround`: the empty point lies inside an area a player has surrounded;
 * - `outside_start_area`: a player's first dot lies outside the central area, under rules that
 *   ask for a central start (see {@link DotsRules.centralStart}).
 */
export const DOTS_ILLEGAL = ['off_board', 'occupied', 'inside_surround', 'outside_start_area'] as const;

export type DotsIllegal = (typeof DOTS_ILLEGAL)[number];
