import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, toView } from '../catalog/game-rows.js';
import type { PlayerRow, SummaryRow } from '../catalog/game-rows.js';
import type { GameView } from '../catalog/game-view.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS } from '../catalog/games.sql.js';
import { PREFIX_PLIES } from '../indexes/identities/identity-rows.js';
import { related, relationOf, standsFor } from '../catalog/identity.sql.js';

export const RELATIONS = ['same', 'prefix', 'extension'] as const;
export type Relation = (typeof RELATIONS)[number];

/** What of a game's identity tells how its board maps onto another's: its transforms (bit t: transform t) and first mover's seat. */
export interface IdentityOrientation {
  readonly transforms: number;
  readonly firstSeat: number | null;
}

/** A game's identity as its relatives are looked for from it. */
export interface OwnIdentity extends IdentityOrientation {
  readonly family: string;
  readonly plies: number;
  readonly ended: boolean;
  readonly sequence: Buffer;
}

export interface RelativeRow extends IdentityOrientation {
  readonly game: GameView;
  readonly relation: Relation;
}

/** How a game of a search page stands among its copies. */
export interface CopyStanding {
  /** The game that stands for it in a search of each game once; null when it stands for itself. */
  readonly copyOf: number | null;
  /** The other files it stands for: copies of it stored later, and broken-off copies of it. */
  readonly copies: number;
}

/**
 * The game identities' reads (src/queries/identity.repository.sql): a game's relatives found from
 * the index on `head` and confirmed by the stored bytes, never by replaying a game.
 */
@Injectable()
export class IdentityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The game's identity; undefined when the game has none. */
  @GenerateSql()
  async own(gameId: string): Promise<OwnIdentity | undefined> {
    const rows: { transforms: number; first_seat: number | null; family: string; plies: number; ended: boolean; sequence: Buffer }[] = await this.dataSource.query(
      `SELECT i.transforms, i.first_seat, fa.name AS family, i.plies, i.ended, i.sequence
       FROM game_identities i JOIN games g ON g.id = i.game_id JOIN families fa ON fa.id = g.family_id
       WHERE i.game_id = $1`,
      [gameId],
    );
    if (rows.length === 0) return undefined;
    const [row] = rows;
    return { transforms: row.transforms, firstSeat: row.first_seat, family: row.family, plies: row.plies, ended: row.ended, sequence: row.sequence };
  }

  @GenerateSql()
  async gameExists(gameId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM games WHERE id = $1`, [gameId]);
    return rows.length > 0;
  }

  /**
   * The games holding the game, a broken-off copy of it, or more of it; oldest first, `limit` at most.
   * Besides the relatives sharing its head: the games that ended by rule in fewer than 30 plies and
   * are its beginning (their heads are among `shortHeads`, the hashes of its first plies), and, when
   * the game itself is one (`shortEnded`), the longer games it begins — read from every row, which
   * only such a game asks.
   */
  @GenerateSql()
  async relatives(gameId: string, limit: number, shortHeads: readonly string[], shortEnded: boolean): Promise<RelativeRow[]> {
    const rows: (SummaryRow & { relation: Relation; transforms: number; first_seat: number | null })[] = await this.dataSource.query(
      `WITH i AS (SELECT * FROM game_identities WHERE game_id = $1),
       found AS (
         SELECT x.game_id, ${relationOf('i', 'x')} AS relation, x.transforms, x.first_seat
         FROM i JOIN game_identities x ON ${related('i', 'x')}
         UNION
         SELECT x.game_id, 'prefix', x.transforms, x.first_seat
         FROM i JOIN game_identities x ON x.head = ANY($3::bigint[]) AND x.ended AND x.plies < ${PREFIX_PLIES} AND x.plies < i.plies AND x.game_id <> i.game_id
              AND substring(i.sequence FROM 1 FOR length(x.sequence)) = x.sequence
         UNION
         SELECT x.game_id, 'extension', x.transforms, x.first_seat
         FROM i JOIN game_identities x ON $4::boolean AND x.plies > i.plies AND substring(x.sequence FROM 1 FOR length(i.sequence)) = i.sequence
       )
       SELECT ${SUMMARY_COLUMNS}, r.relation, r.transforms, r.first_seat
       FROM found r JOIN games g ON g.id = r.game_id LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       ORDER BY g.id
       LIMIT $2`,
      [gameId, limit, shortHeads, shortEnded],
    );
    const ids = rows.map((row) => Number(row.id));
    const players = playersByGame(ids.length === 0 ? [] : await this.dataSource.query<PlayerRow[]>(PLAYERS_OF, [ids]));
    return rows.map((row) => ({
      game: toView(row, players.get(Number(row.id)) ?? []),
      relation: row.relation,
      transforms: row.transforms,
      firstSeat: row.first_seat,
    }));
  }

  /** For each game given, the other games holding the same game (same start and plies), oldest first. */
  @GenerateSql()
  async sameAs(gameIds: readonly number[]): Promise<Map<number, number[]>> {
    const found = new Map<number, number[]>(gameIds.map((id) => [id, []]));
    if (gameIds.length === 0) return found;
    const rows: { game_id: string; same: string }[] = await this.dataSource.query(
      `SELECT i.game_id, x.game_id AS same
       FROM game_identities i JOIN game_identities x ON x.head = i.head AND x.plies = i.plies AND x.whole = i.whole AND x.game_id <> i.game_id
       WHERE i.game_id = ANY($1::bigint[])
       ORDER BY i.game_id, x.game_id`,
      [gameIds],
    );
    for (const row of rows) found.get(Number(row.game_id))?.push(Number(row.same));
    return found;
  }

  /** How each game given stands among its copies (see {@link CopyStanding}); a game without an identity stands alone. */
  @GenerateSql()
  async standings(gameIds: readonly number[]): Promise<Map<number, CopyStanding>> {
    const found = new Map<number, CopyStanding>(gameIds.map((id) => [id, { copyOf: null, copies: 0 }]));
    if (gameIds.length === 0) return found;
    const rows: { game_id: string; copy_of: string | null; copies: string }[] = await this.dataSource.query(
      `SELECT i.game_id,
              (SELECT x.game_id FROM game_identities x WHERE ${related('i', 'x')} AND ${standsFor('x', 'i')}
               ORDER BY x.plies DESC, x.game_id LIMIT 1) AS copy_of,
              (SELECT count(*) FROM game_identities x WHERE ${related('i', 'x')} AND ${standsFor('i', 'x')}) AS copies
       FROM game_identities i WHERE i.game_id = ANY($1::bigint[])`,
      [gameIds],
    );
    for (const row of rows) found.set(Number(row.game_id), { copyOf: row.copy_of === null ? null : Number(row.copy_of), copies: Number(row.copies) });
    return found;
  }
}
