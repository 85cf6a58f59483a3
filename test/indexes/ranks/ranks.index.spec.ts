import type { PlayerEntry } from '../../../src/formats/plugin.js';
import { rankFields } from '../../../src/indexes/ranks/ranks.index.js';
import { levelConditions } from '../../../src/indexes/ranks/rank-filter.js';

/** A seat with its written rating (or none); the rest of the entry does not matter here. */
const seat = (n: number, rating?: string | null): PlayerEntry => ({ seat: n, name: null, externalId: null, color: null, declaredPoints: null, points: null, captures: null, outcome: null, rating });

describe("the ranks index's row of a game", () => {
  it('reads each seat, and the lowest and highest when both players have one', () => {
    expect(rankFields([seat(0, '5 dan'), seat(1, '3k')])).toEqual({ rank_seats: [5, -2], rating_seats: [null, null], rank_low: -2, rank_high: 5, rating_low: null, rating_high: null });
    expect(rankFields([seat(0, '2100'), seat(1, '1850.5')])).toEqual({ rank_seats: [null, null], rating_seats: [2100, 1850.5], rank_low: null, rank_high: null, rating_low: 1850.5, rating_high: 2100 });
  });

  it('keeps one-sided and unmatched seats by seat, with no bounds', () => {
    expect(rankFields([seat(0, '9p'), seat(1)])).toEqual({ rank_seats: [18, null], rating_seats: [null, null], rank_low: null, rank_high: null, rating_low: null, rating_high: null });
    expect(rankFields([seat(0, 'strong'), seat(1, '1d')])).toEqual({ rank_seats: [null, 1], rating_seats: [null, null], rank_low: null, rank_high: null, rating_low: null, rating_high: null });
    // A rank against a rating: neither filter takes the game.
    expect(rankFields([seat(0, '1d'), seat(1, '1500')])).toEqual({ rank_seats: [1, null], rating_seats: [null, 1500], rank_low: null, rank_high: null, rating_low: null, rating_high: null });
  });

  it('needs every seat of a game of more than two, and two seats at least', () => {
    expect(rankFields([seat(0, '1500'), seat(1, '1600'), seat(2, '1400')])).toMatchObject({ rating_seats: [1500, 1600, 1400], rating_low: 1400, rating_high: 1600 });
    expect(rankFields([seat(0, '1500'), seat(2, '1400')])).toMatchObject({ rating_seats: [1500, null, 1400], rating_low: null, rating_high: null });
    expect(rankFields([seat(0, '4d')])).toMatchObject({ rank_seats: [4], rank_low: null, rank_high: null });
  });

  it('writes no row for a game no seat of which has a rank or a rating', () => {
    expect(rankFields([])).toEqual({});
    expect(rankFields([seat(0), seat(1, null)])).toEqual({});
    expect(rankFields([seat(0, 'strong'), seat(1, '?')])).toEqual({});
  });
});

describe('the conditions of a range', () => {
  it('bound the leading column of the (low, high) index on either end', () => {
    expect(levelConditions('low_rank', 'high_rank', '$1', '$2')).toEqual(['r.low_rank >= $1', 'r.low_rank <= $2', 'r.high_rank <= $2']);
    expect(levelConditions('low_rank', 'high_rank', '$1', undefined)).toEqual(['r.low_rank >= $1']);
    expect(levelConditions('low_rating', 'high_rating', undefined, '$3')).toEqual(['r.low_rating <= $3', 'r.high_rating <= $3']);
  });
});
