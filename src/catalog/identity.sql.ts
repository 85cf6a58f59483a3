import { PREFIX_PLIES } from '../indexes/identities/identity-rows.js';

/**
 * The SQL fragments about game identities the repositories share (identity, the search filters,
 * players): which rows hold the same game or a broken-off copy of it. Fragments only: every
 * statement is sent, and recorded (src/queries), by a repository.
 */

/** `x` is the prefix of `i`: its sequence is the beginning of `i`'s. */
const beginningOf = (i: string, x: string) => `substring(${i}.sequence FROM 1 FOR length(${x}.sequence)) = ${x}.sequence`;

/**
 * Of two rows of game_identities sharing a `head` (every relative does: the head hashes the start
 * and the first 30 plies), `x` holds the game of `i` (`same`), its first plies (a broken-off copy of
 * it: `prefix`), or `i`'s plies are its beginning (`extension`). A copy counts from 30 plies.
 */
export function related(i: string, x: string): string {
  return `${x}.head = ${i}.head AND ${x}.game_id <> ${i}.game_id AND (
           (${x}.plies = ${i}.plies AND ${x}.whole = ${i}.whole)
           OR (${x}.plies < ${i}.plies AND ${x}.plies >= ${PREFIX_PLIES} AND ${beginningOf(i, x)})
           OR (${x}.plies > ${i}.plies AND ${i}.plies >= ${PREFIX_PLIES} AND ${beginningOf(x, i)}))`;
}

/** The relation of `x` to `i` (of two {@link related} rows), as GET /games/{id}/relatives names it. */
export function relationOf(i: string, x: string): string {
  return `CASE WHEN ${x}.plies = ${i}.plies THEN 'same' WHEN ${x}.plies < ${i}.plies THEN 'prefix' ELSE 'extension' END`;
}

/**
 * Of two {@link related} rows, `x` stands for `i` in a search of each game once: it holds more of
 * the game (`i` is a broken-off copy of it), or as much and was stored first.
 */
export function standsFor(x: string, i: string): string {
  return `(${x}.plies > ${i}.plies OR (${x}.plies = ${i}.plies AND ${x}.game_id < ${i}.game_id))`;
}

/**
 * Game `g` is a copy of another game the archive holds (another file of it stored earlier, or a
 * longer file of which it is the beginning): a search of each game once (`unique`) leaves it out.
 */
export const IS_COPY = `EXISTS (SELECT 1 FROM game_identities ci JOIN game_identities cx ON ${related('ci', 'cx')}
         WHERE ci.game_id = g.id AND ${standsFor('cx', 'ci')})`;
