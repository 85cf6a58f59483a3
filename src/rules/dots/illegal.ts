/**
 * Why a dot is refused, one code per rule (see {@link DotsGame.illegality}):
 * - `off_board`: the point is not on the field;
 * - `occupied`: a dot (live or captured) already stands on the point;
 * - `inside_surround`: the empty point lies inside an area a player has surrounded.
 */
export const DOTS_ILLEGAL = ['off_board', 'occupied', 'inside_surround'] as const;

export type DotsIllegal = (typeof DOTS_ILLEGAL)[number];
