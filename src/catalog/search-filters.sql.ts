import { nameKeyMatches, playerNameKey } from '../common/name-key.js';
import { sortsByDay, walksUploadTime } from './game-view.js';
import type { GameFilters } from './game-view.js';
import { IS_COPY } from './identity.sql.js';
import { parseTagFilter } from '../common/tags.js';
import { probeQuery, textMatches, textMatchesEach } from '../indexes/texts/text-query.js';
import { levelConditions } from '../indexes/ranks/rank-filter.js';

/**
 * What the search filters select, as SQL: the conditions every search of games shares (GET /games,
 * the re-indexing's walk, the export, the position and pattern searches). A fragment only: every
 * statement is sent, and recorded (src/queries), by a repository.
 */

/** Filters that narrow by the seats alone, nothing else: a page is then found among the seats. */
function byOneNameOnly(filters: GameFilters): boolean {
  const positional = new Set(['sort', 'pastId']);
  const narrowing = Object.entries(filters)
    .filter(([key, value]) => value !== undefined && !positional.has(key) && !(key === 'unique' && value === false))
    .map(([key]) => key);
  return narrowing.length === 1 && (narrowing[0] === 'player' || narrowing[0] === 'winner') && !sortsByDay(filters.sort);
}

/**
 * The WHERE conditions of a search (on `games g` joined with `game_analyses a`) and their
 * parameters; `pageSize` when they select one page (a search), not every match (re-indexing).
 */
export function whereClause(filters: GameFilters, pageSize?: number): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const ascending = filters.sort === 'uploaded' || filters.sort === 'played';
  const byDate = sortsByDay(filters.sort);
  // Sorted by the day played, only games with a day are listed.
  if (byDate) where.push(`a.date_played IS NOT NULL`);
  if (filters.pastId !== undefined) {
    const past = ascending ? '>' : '<';
    if (byDate) where.push(`(a.date_played, g.id) ${past} (${param(filters.pastDate)}::date, ${param(filters.pastId)})`);
    else if (walksUploadTime(filters)) where.push(`(g.uploaded_at, g.id) ${past} (${param(filters.pastUploadedAt)}::timestamptz, ${param(filters.pastId)})`);
    else where.push(`g.id ${past} ${param(filters.pastId)}`);
  }
  if (filters.boardWidth !== undefined) where.push(`a.board_width = ${param(filters.boardWidth)}`);
  if (filters.boardHeight !== undefined) where.push(`a.board_height = ${param(filters.boardHeight)}`);
  if (filters.event !== undefined) where.push(`a.event_key = ${param(playerNameKey(filters.event))}`);
  if (filters.playedFrom !== undefined) where.push(`a.date_played >= ${param(filters.playedFrom)}::date`);
  if (filters.playedTo !== undefined) where.push(`a.date_played <= ${param(filters.playedTo)}::date`);
  if (filters.externalId !== undefined) {
    where.push(`g.id IN (SELECT p.game_id FROM game_players p WHERE p.external_id = ${param(filters.externalId)})`);
  }
  if (filters.filename !== undefined) where.push(`g.filename = ${param(filters.filename)}`);
  if (filters.owner !== undefined) where.push(`g.owner = ${param(filters.owner)}`);
  if (filters.ending !== undefined) where.push(`a.ending = ${param(filters.ending)}`);
  if (filters.marginMin !== undefined) where.push(`a.margin >= ${param(filters.marginMin)}`);
  if (filters.marginMax !== undefined) where.push(`a.margin <= ${param(filters.marginMax)}`);
  if (filters.rules !== undefined) where.push(`lower(a.rules) = lower(${param(filters.rules)})`);
  if (filters.rating !== undefined) where.push(`g.id IN (SELECT p.game_id FROM game_players p WHERE lower(p.rating) = lower(${param(filters.rating)}))`);
  if (filters.rankMin !== undefined || filters.rankMax !== undefined) {
    const low = filters.rankMin === undefined ? undefined : `${param(filters.rankMin)}::smallint`;
    const high = filters.rankMax === undefined ? undefined : `${param(filters.rankMax)}::smallint`;
    where.push(`g.id IN (SELECT r.game_id FROM game_ranks r WHERE ${levelConditions('low_rank', 'high_rank', low, high).join(' AND ')})`);
  }
  if (filters.ratingMin !== undefined || filters.ratingMax !== undefined) {
    // Ratings are kept as real: a bound is compared as the real nearest to it, so that 2100.3 finds the 2100.3 a file wrote.
    const low = filters.ratingMin === undefined ? undefined : `${param(Math.fround(filters.ratingMin))}::float8`;
    const high = filters.ratingMax === undefined ? undefined : `${param(Math.fround(filters.ratingMax))}::float8`;
    where.push(`g.id IN (SELECT r.game_id FROM game_ranks r WHERE ${levelConditions('low_rating', 'high_rating', low, high).join(' AND ')})`);
  }
  if (filters.movesMin !== undefined) where.push(`a.move_count >= ${param(filters.movesMin)}`);
  if (filters.movesMax !== undefined) where.push(`a.move_count <= ${param(filters.movesMax)}`);
  if (filters.publisher !== undefined && filters.version !== undefined) {
    // One format: its games in id order straight from games_format_id.
    where.push(`g.format_id = (SELECT id FROM formats WHERE publisher = ${param(filters.publisher)} AND version = ${param(filters.version)})`);
  } else if (filters.publisher !== undefined) {
    where.push(`g.format_id IN (SELECT id FROM formats WHERE publisher = ${param(filters.publisher)})`);
  } else if (filters.version !== undefined) {
    where.push(`g.format_id IN (SELECT id FROM formats WHERE version = ${param(filters.version)})`);
  }
  if (filters.family !== undefined) where.push(`g.family_id = (SELECT id FROM families WHERE name = ${param(filters.family)})`);
  if (filters.status !== undefined) where.push(filters.status === 'indexed' ? 'g.indexed' : 'NOT g.indexed');
  if (filters.consistent !== undefined) where.push(`a.consistent = ${param(filters.consistent)}`);
  if (filters.uploadedFrom !== undefined) where.push(`g.uploaded_at >= ${param(filters.uploadedFrom)}`);
  if (filters.uploadedTo !== undefined) where.push(`g.uploaded_at < ${param(filters.uploadedTo)}`);
  if (filters.signature !== undefined) where.push(`g.id IN (SELECT i.game_id FROM game_identities i WHERE i.signature = ${param(filters.signature)})`);
  if (filters.unique === true) where.push(`NOT ${IS_COPY}`);
  if (filters.tags !== undefined) {
    // Each tag its own probe of game_tags' primary key (game_id, tag): a semi-join the planner may
    // also start from the tag's side (game_tags_tag_game).
    const { all, none } = parseTagFilter(filters.tags);
    for (const tag of all) where.push(`EXISTS (SELECT 1 FROM game_tags t WHERE t.game_id = g.id AND t.tag = ${param(tag)})`);
    if (none.length > 0) where.push(`NOT EXISTS (SELECT 1 FROM game_tags t WHERE t.game_id = g.id AND t.tag = ANY(${param(none)}::text[]))`);
  }
  if (filters.textGames !== undefined) {
    where.push(`g.id = ANY(${param(filters.textGames)}::bigint[])`);
    // Found by a relaxed query (phrases as words): each checked against the query itself.
    if (filters.text !== undefined && probeQuery(filters.text) !== filters.text) where.push(textMatchesEach(param(filters.text)));
  } else if (filters.text !== undefined) where.push(textMatches(param(filters.text)));
  const nameMatches = (part: string): string => nameKeyMatches('p.name_key', part, param);
  const seats = (condition: string): string => {
    if (pageSize === undefined || !byOneNameOnly(filters)) return `g.id IN (SELECT p.game_id FROM game_players p WHERE ${condition})`;
    // Nothing else filters: the page is the newest (or oldest) games of the matching seats, found
    // among the seats alone before any game row is read.
    const order = filters.sort === 'uploaded' ? 'ASC' : 'DESC';
    const past = filters.pastId === undefined ? '' : ` AND p.game_id ${order === 'ASC' ? '>' : '<'} ${param(filters.pastId)}`;
    return `g.id IN (SELECT DISTINCT p.game_id FROM game_players p WHERE ${condition}${past} ORDER BY p.game_id ${order} LIMIT ${param(pageSize)})`;
  };
  if (filters.player !== undefined) where.push(seats(nameMatches(filters.player)));
  if (filters.winner !== undefined) where.push(seats(`p.outcome = 'won' AND ${nameMatches(filters.winner)}`));
  return { where, params };
}
