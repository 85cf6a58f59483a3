import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, tagsByGame, toRaw, toView } from '../catalog/game-rows.js';
import type { PlayerRow, RawRow, SummaryRow, TagRow } from '../catalog/game-rows.js';
import type { GameId } from '../http/game-id.pipe.js';
import type { GameView, GameViewWithJsonText, RawGame } from '../catalog/game-view.js';
import { BATCH_ANALYSES, BATCH_RAW_SOURCES, NAME_SOURCES, PLAYERS_OF, RAW, RAW_COLUMNS, RAW_SOURCES, SUMMARY_COLUMNS, TAGS_OF, summaryColumns } from '../catalog/games.sql.js';

/**
 * Stored games as the archive shows them: one game or a batch with Header, Body and players (for
 * `GET /games/{id}`, its replay and picture, and the export's NDJSON), and a game's bytes as
 * stored. The SQL sent is in src/queries/games-view.repository.sql.
 */
@Injectable()
export class GamesViewRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @GenerateSql()
  async findById(id: GameId): Promise<GameView | undefined> {
    return (await this.viewsOf([id]))[0];
  }

  /** Games with their Header and Body, as `GET /games/{id}` shows them; in no particular order, missing ids left out. */
  @GenerateSql()
  async viewsOf(ids: readonly (GameId | number)[]): Promise<GameView[]> {
    return fullViewsOf(this.dataSource, ids, SUMMARY_COLUMNS);
  }

  /** As {@link viewsOf}, with problems and details as the JSON text stored (a bulk export writes them out unparsed). */
  @GenerateSql()
  async viewsWithJsonTextOf(ids: readonly number[]): Promise<GameViewWithJsonText[]> {
    return fullViewsOf(this.dataSource, ids, summaryColumns('text')) as Promise<unknown[]> as Promise<GameViewWithJsonText[]>;
  }

  @GenerateSql()
  async findRaw(id: GameId): Promise<RawGame | undefined> {
    const rows: RawRow[] = await this.dataSource.query(`SELECT ${RAW_COLUMNS} FROM games g ${NAME_SOURCES} ${RAW_SOURCES} WHERE g.id = $1`, [id]);
    return rows.length === 0 ? undefined : toRaw(rows[0]);
  }
}

/** Views with Header and Body and the summary's `columns`. */
async function fullViewsOf(dataSource: DataSource, ids: readonly (GameId | number)[], columns: string): Promise<GameView[]> {
  // Header and Body are cut out of the stored bytes unless kept as text (see text-spans.ts). The
  // bytes are fetched once a game: OFFSET 0 keeps the planner from pulling the subquery up, which
  // would fetch them (a slice of a kept file, from its TOAST table) once for each of the two.
  // The players are asked for at once, not once the games have come: the database goes on to
  // them without waiting for this thread to take in the games' rows.
  const [rows, byGame, tagsOf] = await Promise.all([
    dataSource.query<SummaryRow[]>(
      `SELECT ${columns},
                coalesce(g.header, convert_from(substring(r.raw FROM g.header_start + 1 FOR g.header_end - g.header_start), 'UTF8')) AS header,
                coalesce(g.body, convert_from(substring(r.raw FROM g.body_start + 1 FOR g.body_end - g.body_start), 'UTF8')) AS body
         FROM games g ${BATCH_ANALYSES} ${NAME_SOURCES} ${BATCH_RAW_SOURCES} CROSS JOIN LATERAL (SELECT ${RAW} AS raw OFFSET 0) r
         WHERE g.id = ANY($1::bigint[])`,
      [ids],
    ),
    // The ids as given: a GameId may lie past what a JavaScript number holds exactly.
    ids.length === 0 ? new Map() : dataSource.query<PlayerRow[]>(PLAYERS_OF, [ids]).then(playersByGame),
    ids.length === 0 ? new Map<number, string[]>() : dataSource.query<TagRow[]>(TAGS_OF, [ids]).then(tagsByGame),
  ]);
  return rows.map((row) => ({ ...toView(row, byGame.get(Number(row.id)) ?? [], true), tags: tagsOf.get(Number(row.id)) ?? [] }));
}
