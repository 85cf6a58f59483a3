import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { GameFilters } from '../catalog/game-view.js';
import { whereClause } from '../catalog/search-filters.sql.js';
import type { GameId } from '../http/game-id.pipe.js';
import { MAX_TAGS } from '../common/tags.js';

/** A tag and how many games have it (`tag_counts`). */
export interface TagCountRow {
  readonly tag: string;
  readonly games: number;
}

/** What a change of tags over a batch of games did. */
export interface BatchChange {
  /** Games whose tags changed. */
  readonly changed: number;
  /** Games left without the tags to add, since they would pass `MAX_TAGS` (their removals are done). */
  readonly full: number[];
}

/**
 * All SQL about tags (the migration 1767000000000-GameTags): a game's tags, a batch's, and the
 * counts. Tags are compared as stored (NFC, case kept); lists come sorted by code point (`COLLATE "C"`).
 * The SQL sent is in src/queries/tags.repository.sql.
 */
@Injectable()
export class TagsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The game's owner (null for none); undefined when there is no such game. */
  @GenerateSql()
  async ownerOf(id: GameId): Promise<string | null | undefined> {
    const rows: { owner: string | null }[] = await this.dataSource.query(`SELECT owner FROM games WHERE id = $1`, [id]);
    return rows.length === 0 ? undefined : rows[0].owner;
  }

  /**
   * Makes the game's tags exactly `tags` (checked, in NFC): those it has and `tags` lacks go, the
   * others are added. Answers its tags as stored, sorted, or undefined when the game is gone.
   */
  @GenerateSql()
  async replace(id: GameId, tags: readonly string[]): Promise<string[] | undefined> {
    return this.dataSource.transaction(async (manager) => {
      // The game's row locked: a bulk change of the same game waits (and so counts this one's tags).
      const game: unknown[] = await manager.query(`SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, [id]);
      if (game.length === 0) return undefined;
      await manager.query(`WITH gone AS (DELETE FROM game_tags WHERE game_id = $1 AND tag <> ALL($2::text[]) RETURNING 1) SELECT count(*) FROM gone`, [id, tags]);
      await manager.query(
        `WITH added AS (INSERT INTO game_tags (game_id, tag) SELECT $1, t FROM unnest($2::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*) FROM added`,
        [id, tags],
      );
      const rows: { tag: string }[] = await manager.query(`SELECT tag FROM game_tags WHERE game_id = $1 ORDER BY tag COLLATE "C"`, [id]);
      return rows.map((row) => row.tag);
    });
  }

  /** Ids of the games matching the filters, ascending after `afterId`: the order a bulk change walks in. */
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
   * Removes `remove` from the games `ids`, then adds `add` to each that stays within `MAX_TAGS`, in
   * one transaction; the games' rows are locked in id order (two changes sharing games do not deadlock).
   */
  @GenerateSql()
  async change(ids: readonly number[], add: readonly string[], remove: readonly string[]): Promise<BatchChange> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM games WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, [ids]);
      const removed: { game_id: string }[] =
        remove.length === 0
          ? []
          : await manager.query(`WITH gone AS (DELETE FROM game_tags WHERE game_id = ANY($1::bigint[]) AND tag = ANY($2::text[]) RETURNING game_id) SELECT DISTINCT game_id FROM gone`, [ids, remove]);
      let added: { game_id: string }[] = [];
      let full: { game_id: string }[] = [];
      if (add.length > 0) {
        // A game's tags after the change: those it has, and those of `add` it lacks.
        const after = `(SELECT count(*) FROM game_tags h WHERE h.game_id = b.id) + (SELECT count(*) FROM unnest($2::text[]) AS n(tag) WHERE NOT EXISTS (SELECT 1 FROM game_tags h WHERE h.game_id = b.id AND h.tag = n.tag))`;
        full = await manager.query(`SELECT b.id AS game_id FROM unnest($1::bigint[]) AS b(id) WHERE ${after} > $3 ORDER BY b.id`, [ids, add, MAX_TAGS]);
        added = await manager.query(
          `WITH fits AS (SELECT b.id FROM unnest($1::bigint[]) AS b(id) JOIN games g ON g.id = b.id WHERE ${after} <= $3),
                added AS (INSERT INTO game_tags (game_id, tag) SELECT fits.id, n.tag FROM fits, unnest($2::text[]) AS n(tag) ORDER BY fits.id, n.tag ON CONFLICT DO NOTHING RETURNING game_id)
           SELECT DISTINCT game_id FROM added`,
          [ids, add, MAX_TAGS],
        );
      }
      const changed = new Set([...removed, ...added].map((row) => Number(row.game_id)));
      return { changed: changed.size, full: full.map((row) => Number(row.game_id)) };
    });
  }

  /** Tags by how many games have them (most first, then by code point), those starting with `prefix` when given. */
  @GenerateSql()
  async counts(prefix: string | undefined, limit: number): Promise<TagCountRow[]> {
    const rows: { tag: string; games: number }[] =
      prefix === undefined
        ? await this.dataSource.query(`SELECT tag, games FROM tag_counts ORDER BY games DESC, tag COLLATE "C" LIMIT $1`, [limit])
        : await this.dataSource.query(`SELECT tag, games FROM tag_counts WHERE starts_with(tag, $1) ORDER BY games DESC, tag COLLATE "C" LIMIT $2`, [prefix, limit]);
    return rows.map((row) => ({ tag: row.tag, games: Number(row.games) }));
  }
}
