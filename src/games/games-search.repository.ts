import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, tagsByGame, toView } from '../catalog/game-rows.js';
import type { PlayerRow, SummaryRow, TagRow } from '../catalog/game-rows.js';
import { walksUploadTime } from '../catalog/game-view.js';
import type { GameFilters, SearchHit } from '../catalog/game-view.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS, TAGS_OF, UPLOADED_KEY } from '../catalog/games.sql.js';
import { whereClause } from '../catalog/search-filters.sql.js';
import { TEXT_SEARCH_CONFIG, anyOfQuery } from '../indexes/texts/text-query.js';

/**
 * The searches of `GET /games`, and the walk of `POST /games/reindex` over the same filters: which
 * games match (the read model's {@link whereClause}), in what order, past which cursor.
 * {@link orderOf} is the export's too (games-export.repository.ts). The SQL sent is in
 * src/queries/games-search.repository.sql.
 */
@Injectable()
export class GamesSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * In upload order (ids grow with upload time), newest first unless asked; keyset pagination on the
   * id (and the day played, or the upload time, when the search goes by them). Each game comes with
   * its upload time to the microsecond, which a cursor needs to continue a search by upload time.
   */
  @GenerateSql()
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
    const [players, tags] = await Promise.all([
      ids.length === 0 ? new Map() : this.dataSource.query<PlayerRow[]>(PLAYERS_OF, [ids]).then(playersByGame),
      ids.length === 0 ? new Map() : this.dataSource.query<TagRow[]>(TAGS_OF, [ids]).then(tagsByGame),
    ]);
    return rows.map((row) => ({ game: { ...toView(row, players.get(Number(row.id)) ?? []), tags: tags.get(Number(row.id)) ?? [] }, uploadedKey: row.uploaded_key }));
  }

  /** Ids of the games matching the filters, ascending after `afterId`: the order bulk re-indexing walks in. */
  @GenerateSql()
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

  /**
   * How many games the planner expects the text query to find (its statistics of `game_words`'
   * most common words): a query it expects in many games is not probed first.
   */
  @GenerateSql()
  async textEstimate(text: string): Promise<number> {
    return plannedRows(this.dataSource, `SELECT w.game_id FROM game_words w WHERE w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1)`, [text]);
  }

  /** Up to `limit` games whose texts meet the text query, in no order: found in the GIN index alone. */
  @GenerateSql()
  async textGames(text: string, limit: number): Promise<number[]> {
    const rows: { game_id: string }[] = await this.dataSource.query(
      `SELECT w.game_id FROM game_words w WHERE w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $1) LIMIT $2`,
      [text, limit],
    );
    return rows.map((row) => Number(row.game_id));
  }

  /**
   * The pairs of words next to each other in the phrases' texts, made by `word_pairs` as of a
   * game's words: none when no two of a phrase's words stand together (a stop word between them).
   */
  @GenerateSql()
  async phrasePairs(phrases: readonly string[]): Promise<number[]> {
    const [{ pairs }]: { pairs: number[] }[] = await this.dataSource.query(
      `SELECT coalesce(array_agg(DISTINCT k.pair), '{}') AS pairs
       FROM unnest($1::text[]) AS t(text), unnest(word_pairs(to_tsvector('${TEXT_SEARCH_CONFIG}', t.text))) AS k(pair)`,
      [phrases],
    );
    return pairs;
  }

  /** How many games the planner expects to hold every pair (its statistics of `game_word_pairs`' most common pairs). */
  @GenerateSql()
  async pairsEstimate(pairs: readonly number[]): Promise<number> {
    return plannedRows(this.dataSource, `SELECT p.game_id FROM game_word_pairs p WHERE p.pairs @> $1::integer[]`, [pairs]);
  }

  /** Up to `limit` games holding every pair, in no order: found in the GIN index alone. */
  @GenerateSql()
  async pairGames(pairs: readonly number[], limit: number): Promise<number[]> {
    const rows: { game_id: string }[] = await this.dataSource.query(`SELECT p.game_id FROM game_word_pairs p WHERE p.pairs @> $1::integer[] LIMIT $2`, [pairs, limit]);
    return rows.map((row) => Number(row.game_id));
  }

  /**
   * The texts of the games `ids` that hold any wanted word of the text query (a game's texts meet
   * the query together, each may hold only part of it): the first {@link HITS_A_GAME} of each game
   * in ply order, each as a snippet of HTML (the text escaped, the words found in `<b>`).
   */
  @GenerateSql()
  async hitsOf(ids: readonly number[], text: string): Promise<Map<number, TextHit[]>> {
    const rows: { game_id: string; ply: number; snippet: string }[] = await this.dataSource.query(
      `SELECT h.game_id, h.ply,
              ts_headline('${TEXT_SEARCH_CONFIG}', replace(replace(replace(h.body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), h.query,
                          'StartSel="<b>", StopSel="</b>", MaxWords=30, MinWords=12, ShortWord=2') AS snippet
       FROM (SELECT t.game_id, t.ply, t.n, t.body, q.query, row_number() OVER (PARTITION BY t.game_id ORDER BY t.ply, t.n) AS k
             FROM game_texts t, websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', $2) AS q(query)
             WHERE t.game_id = ANY($1) AND to_tsvector('${TEXT_SEARCH_CONFIG}', t.body) @@ q.query) h
       WHERE h.k <= ${HITS_A_GAME}
       ORDER BY h.game_id, h.ply, h.n`,
      [ids, anyOfQuery(text)],
    );
    const hits = new Map<number, TextHit[]>();
    for (const row of rows) {
      const id = Number(row.game_id);
      hits.set(id, [...(hits.get(id) ?? []), { ply: row.ply, snippet: row.snippet }]);
    }
    return hits;
  }
}

/** How many rows the planner expects a query to answer (EXPLAIN, nothing run). */
async function plannedRows(dataSource: DataSource, sql: string, params: unknown[]): Promise<number> {
  const [plan] = await dataSource.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return plan['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** The most texts a listed game shows for a text search. */
const HITS_A_GAME = 5;

/** A text of a game holding words of a text search (`GET /games?text=`). */
export interface TextHit {
  readonly ply: number;
  readonly snippet: string;
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
