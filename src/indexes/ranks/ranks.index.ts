import type { ReadResult } from '../../formats/format-reader.js';
import type { PlayerEntry } from '../../formats/plugin.js';
import { goRankValue, ratingValue } from '../../formats/families/go/ranks.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

/** The fields {@link rankFields} writes, as a record definition: arrays by seat, and the game's bounds. */
const FIELDS = 'rank_seats smallint[], rating_seats real[], rank_low smallint, rank_high smallint, rating_low real, rating_high real';

/** The lowest and highest of values given for every seat of a game of two seats or more; nulls otherwise. */
function bounds(values: readonly (number | null)[]): [number | null, number | null] {
  if (values.length < 2 || values.some((value) => value === null)) return [null, null];
  const known = values as number[];
  return [Math.min(...known), Math.max(...known)];
}

/**
 * Each seat's rank (src/formats/families/go/ranks.ts: -29 for 30k … 18 for 9p) and numeric rating,
 * read from the rating the file writes for the player (null where none, or where no form matches),
 * by seat from 0, with the game's lowest and highest when every seat has one. Nothing when no seat
 * has either: the game gets no row.
 */
export function rankFields(players: readonly PlayerEntry[]): Readonly<Record<string, unknown>> {
  if (players.length === 0) return {};
  const seats = Math.max(...players.map((player) => player.seat)) + 1;
  const ranks: (number | null)[] = new Array<number | null>(seats).fill(null);
  const ratings: (number | null)[] = new Array<number | null>(seats).fill(null);
  for (const player of players) {
    if (player.rating === undefined || player.rating === null) continue;
    ranks[player.seat] = goRankValue(player.rating);
    ratings[player.seat] = ratingValue(player.rating);
  }
  if (ranks.every((rank) => rank === null) && ratings.every((rating) => rating === null)) return {};
  const [rankLow, rankHigh] = bounds(ranks);
  const [ratingLow, ratingHigh] = bounds(ratings);
  return { rank_seats: ranks, rating_seats: ratings, rank_low: rankLow, rank_high: rankHigh, rating_low: ratingLow, rating_high: ratingHigh };
}

const index: GameIndex = {
  name: 'ranks',
  fields: FIELDS,
  fieldsOf: (reading: ReadResult) => rankFields(reading.analysis?.players ?? []),
  rows: (made) => `ranks AS (
         INSERT INTO game_ranks (game_id, ranks, ratings, low_rank, high_rank, low_rating, high_rating)
         SELECT m.id, m.rank_seats, m.rating_seats, m.rank_low, m.rank_high, m.rating_low, m.rating_high
         FROM ${made} m WHERE m.rank_seats IS NOT NULL
       )`,
  remove: (ids) => `ranks AS (DELETE FROM game_ranks WHERE game_id = ANY(${ids}))`,
};

/**
 * The players' ranks (Go, on one scale) and numeric ratings, read once when a game is indexed:
 * the filters rankMin, rankMax, ratingMin and ratingMax of every search of games, and the levels the
 * explorer by year averages.
 */
export const RANKS_INDEX: IndexDefinition = {
  name: 'ranks',
  summary: "the players' ranks (Go, one scale from 30k to 9p) and numeric ratings: GET /games?rankMin=&ratingMin= and every search taking its filters",
  takes: [],
  tables: ['game_ranks'],
  open: () => index,
};
