import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, toView } from './game-rows.js';
import type { PlayerRow, SummaryRow } from './game-rows.js';
import { sortsByDay, walksUploadTime } from './game-view.js';
import type { GameFilters, SearchHit } from './game-view.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS, UPLOADED_KEY } from './games.sql.js';
import { nameKeyMatches, playerNameKey } from '../common/name-key.js';
import { IS_COPY } from '../identity/identity.sql.js';

/**
 * The searches of `GET /games`, and the walk of `POST /games/reindex` over the same filters: which
 * games match, in what order, past which cursor. {@link whereClause} and {@link orderOf} are the
 * export's too (games-export.repository.ts). The SQL sent is in src/queries/games-search.repository.sql.
 */
@Injectable()
export class GamesSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * In upload order (ids grow with upload time), newest first unless asked; keyset pagination on the
   * id (and the day played, or the upload time, when the search goes by them). Each game comes with
   * its upload time to the microsecond, which a cursor needs to continue a search by upload time.
   */
  @GenerateSql(
    { name: 'newest first, no filter', params: [{}, 21] },
    { name: 'one name part alone: the page is found among the seats', params: [{ player: 'sedol' }, 21] },
    { name: 'a short name part alone, oldest first, past a game', params: [{ player: 'gu', sort: 'uploaded', pastId: 1 }, 21] },
    { name: 'a winner among other filters', params: [{ winner: 'lee', family: 'go', status: 'indexed', consistent: false }, 21] },
    { name: 'by the day played, past a day', params: [{ sort: 'played', pastDate: '2004-05-01', pastId: 1, playedFrom: '2000-01-01', playedTo: '2010-12-31' }, 21] },
    {
      name: 'in a window of upload times, past an upload time',
      params: [{ uploadedFrom: new Date('2020-01-01T00:00:00Z'), uploadedTo: new Date('2100-01-01T00:00:00Z'), pastUploadedAt: '2099-12-31T23:59:59.999999Z', pastId: 99 }, 21],
    },
    {
      name: 'every other filter',
      params: [
        {
          publisher: 'SGF', version: 'FF4-Go', boardWidth: 19, boardHeight: 19, event: 'Example Cup', externalId: '12345', filename: 'example.sgf',
          ending: 'resignation', marginMin: 0, marginMax: 10, rules: 'japanese', rating: '9P', movesMin: 1, movesMax: 300,
        },
        21,
      ],
    },
    { name: 'a publisher alone', params: [{ publisher: 'SGF', sort: '-played' }, 21] },
    { name: 'a version alone', params: [{ version: 'FF4-Go', status: 'stored' }, 21] },
    { name: 'each game once', params: [{ unique: true }, 21] },
    { name: 'a Dyer signature', params: [{ signature: 'pdddpppdddpp' }, 21] },
  )
  async search(filters: GameFilters, limit: number): Promise<SearchHit[]> {
    const { where, params } = whereClause(filters, limit);
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const rows: (SummaryRow & { uploaded_key: string })[] = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS}, ${UPLOADED_KEY}
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${orderOf(filters)}
       LIMIT ${param(limit)}`,
      params,
    );
    const ids = rows.map((row) => Number(row.id));
    const players = playersByGame(ids.length === 0 ? [] : await this.dataSource.query<PlayerRow[]>(PLAYERS_OF, [ids]));
    return rows.map((row) => ({ game: toView(row, players.get(Number(row.id)) ?? []), uploadedKey: row.uploaded_key }));
  }

  /** Ids of the games matching the filters, ascending after `afterId`: the order bulk re-indexing walks in. */
  @GenerateSql({ name: 'every game', params: [{}, 0, 101] }, { name: 'a name among other filters', params: [{ player: 'sedol', family: 'go' }, 1, 101] })
  async idsAfter(filters: GameFilters, afterId: number, limit: number): Promise<number[]> {
    const { where, params } = whereClause(filters);
    params.push(afterId, limit);
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
       WHERE g.id > $${params.length - 1}${where.length > 0 ? ` AND ${where.join(' AND ')}` : ''}
       ORDER BY g.id LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => Number(row.id));
  }
}

/** The ORDER BY of a search (on `games g` joined with `game_analyses a`). */
export function orderOf(filters: GameFilters): string {
  if (walksUploadTime(filters)) return filters.sort === 'uploaded' ? 'g.uploaded_at ASC, g.id ASC' : 'g.uploaded_at DESC, g.id DESC';
  switch (filters.sort) {
    case 'uploaded':
      return 'g.id ASC';
    case 'played':
      return 'a.date_played ASC, g.id ASC';
    case '-played':
      return 'a.date_played DESC, g.id DESC';
    default:
      return 'g.id DESC';
  }
}

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
