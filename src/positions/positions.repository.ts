import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql, namedStatements } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import { playersByGame, toView } from '../catalog/game-rows.js';
import type { PlayerRow, SummaryRow } from '../catalog/game-rows.js';
import type { GameFilters, GameView } from '../catalog/game-view.js';
import { whereClause } from '../catalog/search-filters.sql.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS } from '../catalog/games.sql.js';
import { OPENING_ENTRIES, signedKeyAt } from '../indexes/positions/position-rows.js';
import { RUN_BITS, gamesInRow } from '../indexes/positions/postings.js';

/** What a search by position looks for: the key's 8 bytes, its bucket, the family's entry size. */
export interface PositionSought {
  readonly key: Buffer;
  /** The key's top 20 bits: its bucket in the bucket arrays of rows stored before the runs of postings. */
  readonly bucket: number;
  /** The key's top 32 bits, unsigned: its bucket in a run of b-bit buckets is this `>>> (32 - b)`. */
  readonly top: number;
  readonly stride: number;
  /** Only games whose first arrival has one of these transforms (an exact match); null: any. */
  readonly transforms: readonly number[] | null;
}

/** A game's indexed positions. */
export interface StoredTrack {
  readonly family: string;
  /** The last ply indexed. */
  readonly plies: number;
  /** Entries of plies 0 … plies. */
  readonly entries: Buffer;
  /**
   * The board's width and height in points or squares, as the game's facts give them, else as its
   * details name the field it was replayed on (a VK game: its facts leave the size unknown, and its
   * moves are indexed on the 35x35 replay field); for peg solitaire, the slots' bounding box, in
   * which its moves are indexed.
   */
  readonly width: number;
  readonly height: number;
}

/** A game reaching the position: as search lists it, with the ply of its first arrival and its entry there. */
export interface PositionHit {
  readonly game: GameView;
  readonly ply: number;
  readonly entry: Buffer;
}

/** How often a move was played from the position, by result. */
export interface MoveRow {
  readonly move: Buffer;
  readonly result: string;
  readonly games: number;
  readonly lastPlayed: string | null;
  /** The first day one of those games was played, where recorded (the explorer's rows: the tree's years). */
  readonly firstPlayed?: string | null;
  /** The newest of those games (the highest id). */
  readonly newest: number;
}

/** How many games reaching a position were played in a year (null: undated). */
export interface YearRow {
  readonly year: number | null;
  readonly games: number;
}

/** A {@link MoveRow} of one year, with the sum and count of the movers' known ranks or ratings. */
export interface MoveYearRow extends MoveRow {
  readonly year: number | null;
  readonly levelSum: number;
  readonly levels: number;
}

/**
 * Which players' level the explorer by year averages (Go's ranks, other families' ratings, of
 * `game_ranks`), and how a ply's mover is known: written in each ply of the game's identity (Go,
 * Dots), or taking turns from the identity's first seat.
 */
export interface MoverLevel {
  readonly level: 'rank' | 'rating';
  readonly moverInPly: boolean;
}

/** A game reaching a position: its result, its day, and its entries from its first arrival there on. */
export interface ArrivalRow {
  readonly game: number;
  readonly result: string;
  readonly played: string | null;
  readonly entries: Buffer;
}

/** The games a search confirms by their later positions, and how many hold the key among their opening keys. */
export interface Candidates {
  readonly later: number[];
  readonly openingGames: number;
}

/**
 * The position index's reads (src/queries/positions.repository.sql). A key is looked for among the
 * keys of the games' first {@link OPENING_ENTRIES} positions (`opening_positions`, a row per game
 * and key with the move played next, under a B-tree index in the explorer's order: the common
 * positions are there), and among the games whose later positions have a key in its
 * bucket (the key's top 24 bits, or 20 in older runs: the runs of postings,
 * src/indexes/positions/postings.ts; for rows stored before them, the top 20 bits in a GIN index of their
 * bucket arrays): each game found so is confirmed by finding the 8 bytes of the key at the start of
 * one of its entries.
 */
@Injectable()
export class PositionsRepository {
  /** From how many games holding the key among their opening keys filters may go first (see narrowFirst; tests lower it). */
  static narrowFirstFrom = 5_000;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private readonly query: Query = (sql, params) => this.dataSource.query(sql, params);
  /**
   * The statements every search sends whatever its filters (the game's entries, the candidates, the
   * unfiltered page, the page's players), as named statements: planned once, not on each request.
   * The filtered searches' plans hang on how many games the filters and the key keep: planned each time.
   */
  private readonly prepared: Query = namedStatements(this.dataSource);

  /** A game's positions (head and tail, whole: one row), undefined when the game has none indexed. */
  @GenerateSql()
  async track(gameId: string): Promise<StoredTrack | undefined> {
    const rows = await this.prepared<{ family: string; plies: number; head: Buffer; tail: Buffer | null; board_width: number | null; board_height: number | null }>(
      `SELECT fa.name AS family, p.plies, p.head, p.tail,
              coalesce((a.details->'slotBox'->>'width')::int, a.board_width, (a.details->'field'->>'width')::int) AS board_width,
              coalesce((a.details->'slotBox'->>'height')::int, a.board_height, (a.details->'field'->>'height')::int) AS board_height
       FROM game_positions p JOIN families fa ON fa.id = p.family_id LEFT JOIN game_analyses a ON a.game_id = p.game_id
       WHERE p.game_id = $1`,
      [gameId],
    );
    if (rows.length === 0) return undefined;
    const { family, plies, head, tail, board_width: width, board_height: height } = rows[0];
    return { family, plies, entries: tail === null ? head : Buffer.concat([head, tail]), width: width ?? 0, height: height ?? 0 };
  }

  @GenerateSql()
  async gameExists(gameId: string): Promise<boolean> {
    const rows = await this.prepared(`SELECT 1 FROM games WHERE id = $1`, [gameId]);
    return rows.length > 0;
  }

  /**
   * A page of the games reaching the position, newest first, after `pastId`, narrowed by the
   * filters of GET /games; `limit` games at most; and how many games reach it with the filters.
   */
  @GenerateSql()
  async games(sought: PositionSought, filters: GameFilters, limit: number): Promise<{ hits: PositionHit[]; total: number }> {
    const { pastId, ...narrowing } = filters;
    // Every game matching the filters: no page size, which would let a name's search stop at a page of its own.
    const { where, params } = joinedFilters(narrowing);
    const candidates = await this.candidates(sought);
    const { later, openingGames } = candidates;
    if (where.length === 0 && !onlyPeriod(narrowing) && sought.transforms === null) return unfilteredGames(this.prepared, sought, later, openingGames, pastId, limit, () => this.count(sought, {}, candidates));
    const { sql: hits, filtered } = hitsOf(sought, later, params, await this.narrowFirst(where, params, openingGames), narrowing);
    const past = pastId === undefined ? '' : `WHERE m.game_id < $${params.push(pastId)}`;
    // The page cut from the matches by id before the games' own rows are joined: a position tens of
    // thousands of games reach joined every one of them to sort them.
    params.push(limit);
    const rows: (SummaryRow & { at: number; entry: Buffer; total: string })[] = await this.dataSource.query(
      `WITH ${hits}, matched AS (
         SELECT h.game_id, h.at, h.entry FROM hit h${where.length > 0 && !filtered ? ` JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}` : ''}
       ), page AS (
         SELECT m.game_id, m.at, m.entry FROM matched m ${past} ORDER BY m.game_id DESC LIMIT $${params.length}
       )
       SELECT ${SUMMARY_COLUMNS}, m.at, m.entry, (SELECT count(*) FROM matched) AS total
       FROM page m JOIN games g ON g.id = m.game_id LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       ORDER BY g.id DESC`,
      params,
    );
    if (rows.length === 0) return { hits: [], total: await this.count(sought, narrowing, candidates) };
    return { hits: await withPlayers(this.prepared, rows, sought.stride), total: Number(rows[0].total) };
  }

  /** How many games reach the position, narrowed by the filters (`candidates`: what {@link candidates} gave, when read already). */
  @GenerateSql()
  async count(sought: PositionSought, filters: GameFilters, candidates?: Candidates): Promise<number> {
    const { where, params } = joinedFilters(filters);
    // The candidates a caller read already are not read again.
    const { later, openingGames } = candidates ?? (await this.candidates(sought));
    const { sql: hits, filtered } = hitsOf(sought, later, params, await this.narrowFirst(where, params, openingGames), filters);
    const rows: { n: string }[] = await this.dataSource.query(
      where.length === 0 || filtered
        ? `WITH ${hits} SELECT count(*) AS n FROM hit`
        : `WITH ${hits}
           SELECT count(*) AS n FROM hit h JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id
           WHERE ${where.join(' AND ')}`,
      params,
    );
    return Number(rows[0].n);
  }

  /**
   * The moves played from the position by the games reaching it (narrowed by the filters), each
   * game counted once, by the move after its first arrival: per move and result (the winner's
   * colour, `draw` or `unknown`), how many games, the first and last days one of them was played and the newest
   * of them. The games that ended in the position are rows too, with a move of 0xff bytes: every
   * game is in one row. Results and days are the position rows' own: with no filter, no other table is read.
   */
  @GenerateSql()
  async moves(sought: PositionSought, filters: GameFilters): Promise<MoveRow[]> {
    const { where, params } = joinedFilters(filters);
    const { later, openingGames } = await this.candidates(sought);
    const narrowing = await this.narrowFirst(where, params, openingGames);
    // Nothing joined: the games holding the key among their openings are counted in the order of
    // opening_positions' index, a group of rows at a time, apart from those holding it later on.
    const apart = where.length === 0 && narrowing === null;
    const { sql: hits, filtered, openingMoves } = hitsOf(sought, later, params, narrowing, filters, apart);
    const rows: { move: Buffer; result: string; games: string; last_played: string | null; first_played: string | null; newest: string }[] = await this.dataSource.query(
      apart
        ? `WITH ${hits}
           SELECT substring(m.turn FROM 2) AS move, m.result, sum(m.games) AS games, to_char(max(m.played), 'YYYY-MM-DD') AS last_played,
                  to_char(min(m.first), 'YYYY-MM-DD') AS first_played, max(m.newest) AS newest
           FROM (
             ${openingMoves}
             UNION ALL
             SELECT substring(h.entry FROM 9), coalesce(h.result, 'unknown'), count(*), max(h.played), max(h.game_id), min(h.played) FROM hit h GROUP BY 1, 2
           ) m
           GROUP BY 1, 2`
        : `WITH ${hits}
           SELECT substring(h.entry FROM 10) AS move, coalesce(h.result, 'unknown') AS result, count(*) AS games,
                  to_char(max(h.played), 'YYYY-MM-DD') AS last_played, to_char(min(h.played), 'YYYY-MM-DD') AS first_played, max(h.game_id) AS newest
           FROM hit h${where.length > 0 && !filtered ? ` JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}` : ''}
           GROUP BY 1, 2`,
      params,
    );
    return rows.map((row) => ({ move: row.move, result: row.result, games: Number(row.games), lastPlayed: row.last_played, firstPlayed: row.first_played, newest: Number(row.newest) }));
  }

  /** Whether the players' ranks and ratings are indexed (`game_ranks`, which the explorer by year averages). */
  @GenerateSql()
  async hasRanks(): Promise<boolean> {
    const rows = await this.prepared<{ found: boolean }>(`SELECT to_regclass('game_ranks') IS NOT NULL AS found`, []);
    return rows[0].found;
  }

  /**
   * A position's history: the games reaching it (narrowed by the filters, each counted once) by the
   * year they were played (null: undated). The year is the position rows' own day of play (the
   * analysis's `date_played`, copied into them): with no filter, no other table is read.
   */
  @GenerateSql()
  async years(sought: PositionSought, filters: GameFilters): Promise<YearRow[]> {
    const { where, params } = joinedFilters(filters);
    const { later, openingGames } = await this.candidates(sought);
    const { sql: hits, filtered } = hitsOf(sought, later, params, await this.narrowFirst(where, params, openingGames), filters);
    const rows: { year: number | null; games: string }[] = await this.dataSource.query(
      `WITH ${hits}
       SELECT extract(year FROM h.played)::int AS year, count(*) AS games
       FROM hit h${where.length > 0 && !filtered ? ` JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}` : ''}
       GROUP BY 1`,
      params,
    );
    return rows.map((row) => ({ year: row.year === null ? null : Number(row.year), games: Number(row.games) }));
  }

  /**
   * {@link moves} by year as well: per move, result and year played (null: undated), the same
   * counts, and the sum and count of the known ranks (Go) or ratings of the players who played the
   * move, from `game_ranks` (null `mover`: none read). The mover's seat is the game identity's
   * (Go and Dots write each ply's mover there): other families get none.
   */
  @GenerateSql()
  async movesByYear(sought: PositionSought, filters: GameFilters, mover: MoverLevel | null): Promise<MoveYearRow[]> {
    const { where, params } = joinedFilters(filters);
    const { later, openingGames } = await this.candidates(sought);
    const { sql: hits, filtered } = hitsOf(sought, later, params, await this.narrowFirst(where, params, openingGames), filters, false, mover !== null);
    const level = mover === null ? null : moverLevel(mover, sought.stride, params);
    const rows: { move: Buffer; result: string; year: number | null; games: string; last_played: string | null; first_played: string | null; newest: string; level_sum: number | null; levels: string }[] =
      await this.dataSource.query(
        `WITH ${hits}${level === null ? '' : `, ${level.cte}`}
         SELECT substring(h.entry FROM 10) AS move, coalesce(h.result, 'unknown') AS result, extract(year FROM h.played)::int AS year, count(*) AS games,
                to_char(max(h.played), 'YYYY-MM-DD') AS last_played, to_char(min(h.played), 'YYYY-MM-DD') AS first_played, max(h.game_id) AS newest,
                ${level === null ? 'NULL::float8 AS level_sum, 0 AS levels' : `sum(${level.value})::float8 AS level_sum, count(${level.value}) AS levels`}
         FROM hit h${level === null ? '' : ` ${level.join}`}${where.length > 0 && !filtered ? ` JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}` : ''}
         GROUP BY 1, 2, 3`,
        params,
      );
    return rows.map((row) => ({
      move: row.move,
      result: row.result,
      year: row.year === null ? null : Number(row.year),
      games: Number(row.games),
      lastPlayed: row.last_played,
      firstPlayed: row.first_played,
      newest: Number(row.newest),
      levelSum: row.level_sum === null ? 0 : Number(row.level_sum),
      levels: Number(row.levels),
    }));
  }

  /**
   * The games reaching the position (narrowed by the filters), each with its result, its day and
   * `entries` of its positions from its first arrival there on (fewer where the game ends): the
   * opening tree (GET /positions/tree) follows them in memory rather than search each of its nodes.
   * The tail is read only for a game whose entries run past its head.
   */
  @GenerateSql()
  async arrivals(sought: PositionSought, filters: GameFilters, entries: number): Promise<ArrivalRow[]> {
    const { where, params } = joinedFilters(filters);
    const { later, openingGames } = await this.candidates(sought);
    const { sql: hits, filtered } = hitsOf(sought, later, params, await this.narrowFirst(where, params, openingGames), filters);
    const length = `$${params.push(entries * sought.stride)}::int`;
    const rows: { game_id: string; result: string; played: string | null; entries: Buffer }[] = await this.dataSource.query(
      `WITH ${hits}
       SELECT h.game_id, coalesce(h.result, 'unknown') AS result, to_char(h.played, 'YYYY-MM-DD') AS played,
              CASE WHEN h.at + ${length} <= octet_length(p.head) THEN substring(p.head FROM h.at + 1 FOR ${length})
                   ELSE substring(p.head || coalesce(p.tail, ''::bytea) FROM h.at + 1 FOR ${length}) END AS entries
       FROM hit h JOIN game_positions p ON p.game_id = h.game_id${where.length > 0 && !filtered ? ` JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}` : ''}`,
      params,
    );
    return rows.map((row) => ({ game: Number(row.game_id), result: row.result, played: row.played, entries: row.entries }));
  }

  /**
   * The filters (`where`, on `games g` and `game_analyses a`, their parameters the first of
   * `params`) to apply before the key, or null: when more than {@link narrowFirstFrom} games hold the
   * key among their opening keys and the planner expects the filters to keep fewer games than a
   * {@link NARROWED_GAME_COST}th of that. Left alone, the planner reads every game reaching a common
   * opening to keep a player's few hundred (the two conditions are on different tables, its
   * estimates of their overlap a guess); `position_counts` knows how many games hold the key, and
   * the filters' own estimate (EXPLAIN of them alone) is the planner's usual one.
   */
  @GenerateSql()
  async narrowFirst(where: readonly string[], params: readonly unknown[], openingGames: number): Promise<readonly string[] | null> {
    if (where.length === 0 || openingGames <= PositionsRepository.narrowFirstFrom) return null;
    const [plan] = await this.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${where.join(' AND ')}`,
      [...params],
    );
    return plan['QUERY PLAN'][0].Plan['Plan Rows'] * NARROWED_GAME_COST < openingGames ? where : null;
  }

  /**
   * The games whose later positions have a key in the bucket, by the runs of postings
   * (src/indexes/positions/postings.ts): per run, the row whose range holds the bucket (per bucket width and
   * shift, one lookup of the index of the rows' ranges: OFFSET 0 keeps it so, where the planner,
   * taking the widths and shifts for a thousand rows, hashed the whole table). Candidates only
   * (a game may hold another key of the bucket, or be deleted): the search confirms each by its
   * entries. And, in the same statement, how many games hold the key among their opening keys
   * (position_counts).
   */
  @GenerateSql()
  async candidates(sought: PositionSought): Promise<Candidates> {
    const rows = await this.prepared<{ opening_games: number; bits: number | null; part: number | null; shift: number | null; base: string | null; games: Buffer | null }>(
      `SELECT c.n AS opening_games, p.bits, p.part, p.shift, p.base, p.games
       FROM (SELECT coalesce((SELECT games FROM position_counts WHERE key = $2::bigint), 0) AS n) c
       LEFT JOIN LATERAL (
         SELECT q.bits, q.part, q.shift, q.base, q.games FROM unnest($3::int[]) AS b(bits) CROSS JOIN LATERAL generate_series(0, b.bits) AS s(shift)
         CROSS JOIN LATERAL (
           SELECT bits, part, shift, base, games FROM position_postings
           WHERE shift = s.shift AND part = ($1::bigint >> (32 - b.bits + s.shift))::int AND bits = b.bits
           OFFSET 0
         ) q
       ) p ON true`,
      [sought.top, signedKeyAt(sought.key, 0), RUN_BITS],
    );
    const later: number[] = [];
    for (const row of rows) {
      if (row.games !== null) gamesInRow({ part: row.part!, shift: row.shift!, base: Number(row.base), games: row.games }, sought.top >>> (32 - row.bits!), later);
    }
    return { later, openingGames: rows[0].opening_games };
  }
}

/** Up to how many games holding a key among their opening keys are read by the key's index and sorted; more, newest first by id. */
const FEW_OPENING_GAMES = 5_000;

/**
 * What a game the filters keep costs, found first and its row read by its id, against a game read
 * holding the key (a scan of the rows): at a million games, 13 µs against 3 (a month's 166,000
 * games narrowed first took 2.2 s, the 470,000 games holding the key after ply 1 read first 1.4 s).
 */
const NARROWED_GAME_COST = 4;

/**
 * The page with no filter, which must not read every game of a position every game reaches: the
 * newest games holding it among their first positions, and every game holding it later on, ordered
 * and cut to the page; then the page's own entries, read by id; and the count of the first kind
 * from position_counts (kept by triggers, read with the candidates), the second counted. How the
 * first kind is read follows that count, not the planner's guess: not at all when no game holds the
 * key so, by opening_positions' index when few do, by walking the ids backwards until the page is full when
 * many do (the planner, taking a rare key for a common one, walked all of them backwards).
 */
async function unfilteredGames(
  query: Query,
  sought: PositionSought,
  later: readonly number[],
  openingGames: number,
  pastId: number | undefined,
  limit: number,
  count: () => Promise<number>,
): Promise<{ hits: PositionHit[]; total: number }> {
  const params: unknown[] = [];
  const { key, opening, openingKey, laterHolds } = conditionsOf(sought, later, params);
  const laterHit = `${laterHolds} AND (position(${key} IN p.head) > 0 OR position(${key} IN p.tail) > 0)`;
  const before = pastId === undefined ? null : `$${params.push(pastId)}`;
  const past = (id: string) => (before === null ? '' : ` AND ${id} < ${before}`);
  const size = `$${params.push(limit)}`;
  const byOpening =
    openingGames === 0
      ? ''
      : openingGames <= FEW_OPENING_GAMES
        ? `(SELECT o.game_id FROM opening_positions o WHERE o.key = ${openingKey}${past('o.game_id')} ORDER BY o.game_id DESC LIMIT ${size})
         UNION ALL`
        : `(SELECT p.game_id FROM game_positions p WHERE p.openings @> ${opening}${past('p.game_id')} ORDER BY p.game_id DESC LIMIT ${size})
         UNION ALL`;
  const page = entriesOf(key, `$${params.push(sought.stride)}::int`, 'ids');
  const rows = await query<SummaryRow & { at: number; entry: Buffer; total: string }>(
    // The games holding it later on, all of them, by their candidates (materialized: ordered and cut
    // to the page, the planner would walk every game's id backwards looking for them), counted and paged.
    `WITH later AS MATERIALIZED (
       SELECT p.game_id FROM game_positions p WHERE ${laterHit} AND NOT p.openings @> ${opening}
     ), counted AS (
       SELECT $${params.push(openingGames)}::bigint + (SELECT count(*) FROM later) AS total
     ), ids AS (
       SELECT game_id FROM (
         ${byOpening}
         SELECT l.game_id FROM later l WHERE true${past('l.game_id')}
       ) both_indexes ORDER BY game_id DESC LIMIT ${size}
     ), ${page}
     SELECT ${SUMMARY_COLUMNS}, h.at, h.entry, (SELECT total FROM counted) AS total
     FROM hit h JOIN games g ON g.id = h.game_id LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
     ORDER BY g.id DESC`,
    params,
  );
  if (rows.length === 0) return { hits: [], total: await count() };
  return { hits: await withPlayers(query, rows, sought.stride), total: Number(rows[0].total) };
}

/**
 * The CTE `hit` (game_id, at, entry, result, played) of the games of CTE `ids` (`game_id`), each
 * known to hold the key: where it first does, found in the row's head, else in its tail.
 */
function entriesOf(key: string, stride: string, ids: string): string {
  return `f AS (
         SELECT p.game_id, ${foundAt(stride)}, p.result, p.played
         FROM ${ids} i JOIN game_positions p ON p.game_id = i.game_id ${foundIn(key)}
         WHERE h.at > 0 OR t.at > 0
       ), hit AS (
         SELECT f.game_id, f.at, f.entry, f.result, f.played FROM f WHERE f.at % ${stride} = 0
       )`;
}

/** The offset (`at`) and bytes (`entry`) of the first entry of row `p` holding the key, found by {@link foundIn}. */
function foundAt(stride: string): string {
  return `CASE WHEN h.at > 0 THEN h.at - 1 ELSE octet_length(p.head) + t.at - 1 END AS at,
                CASE WHEN h.at > 0 THEN substring(p.head FROM h.at FOR ${stride}) ELSE substring(p.tail FROM t.at FOR ${stride}) END AS entry`;
}

/** Where row `p` holds the key: `h.at` in its head (from 1; 0: not there), else `t.at` in its tail, read (out of line) only then. */
function foundIn(key: string): string {
  return `CROSS JOIN LATERAL (SELECT position(${key} IN p.head) AS at) h
              CROSS JOIN LATERAL (SELECT CASE WHEN h.at > 0 THEN 0 ELSE position(${key} IN p.tail) END AS at) t`;
}

async function withPlayers(query: Query, rows: readonly (SummaryRow & { at: number; entry: Buffer })[], stride: number): Promise<PositionHit[]> {
  const ids = rows.map((row) => Number(row.id));
  const players = playersByGame(await query<PlayerRow>(PLAYERS_OF, [ids]));
  return rows.map((row) => ({ game: toView(row, players.get(Number(row.id)) ?? []), ply: row.at / stride, entry: row.entry }));
}


/**
 * The CTE `hit` (game_id, at: the byte offset of the first entry holding the key, entry: its bytes,
 * result, played) of the games reaching the sought position, its parameters added to `params`.
 * With `narrowing` (filters on `games g` and `game_analyses a`, see PositionsRepository.narrowFirst),
 * of the games those filters keep, found first. A period of play in `filters` is also asked of the
 * positions' own day (`played`, the same day as the analysis's), so the rows outside it go before
 * any join; when it is all the filters ask, no other table is joined (see {@link joinedFilters}).
 * `filtered`: `hit` holds only games the filters keep. `readTwice`: the statement reads `hit` twice,
 * once for its first row only (the mover's seat): it is then not written out whole first, as
 * PostgreSQL does with a CTE read twice (every hit of an opening, 100,000 rows at 100,000 games).
 */
function hitsOf(
  sought: PositionSought,
  later: readonly number[],
  params: unknown[],
  narrowing: readonly string[] | null = null,
  filters: GameFilters = {},
  openingsApart = false,
  readTwice = false,
): { sql: string; filtered: boolean; openingMoves: string } {
  const { key, opening, openingKey, laterHolds } = conditionsOf(sought, later, params);
  const from = filters.playedFrom === undefined ? null : `$${params.push(filters.playedFrom)}::date`;
  const to = filters.playedTo === undefined ? null : `$${params.push(filters.playedTo)}::date`;
  const period = (row: string) => `${from === null ? '' : ` AND ${row}.played >= ${from}`}${to === null ? '' : ` AND ${row}.played <= ${to}`}`;
  const stride = `$${params.push(sought.stride)}::int`;
  const transforms = sought.transforms === null ? null : `$${params.push(sought.transforms)}::int[]`;
  const exact = (transformByte: string) => (transforms === null ? '' : ` AND (${transformByte} & 7) = ANY(${transforms})`);
  // The games whose first positions hold the key, then the others whose later positions may (found
  // by its bucket), confirmed by finding the key in their entries: in the row's head first, the tail
  // (out of line) read only when the head lacks it. A key found at an offset that is no entry's
  // start is 8 bytes of two entries: no match (the chance of it is that of 64 random bits agreeing).
  // The first kind are the key's rows in opening_positions; narrowed first, each game the filters
  // keep, its row read by its id (OFFSET 0: one lookup a game, not a join the planner might make
  // over every row) and the key found in its head.
  const openingRows = `opening_positions o WHERE o.key = ${openingKey}${period('o')}`;
  const byOpening =
    narrowing === null
      ? `SELECT o.game_id, o.ply * ${stride} AS at, ${key} || o.turn AS entry, o.result, o.played FROM ${openingRows}`
      : `SELECT p.game_id, h.at - 1 AS at, substring(p.head FROM h.at FOR ${stride}) AS entry, p.result, p.played
         FROM narrowed n CROSS JOIN LATERAL (SELECT q.game_id, q.head, q.openings, q.result, q.played FROM game_positions q WHERE q.game_id = n.id OFFSET 0) p
         CROSS JOIN LATERAL (SELECT position(${key} IN p.head) AS at) h
         WHERE p.openings @> ${opening} AND h.at > 0${period('p')}`;
  const sql = `${narrowing === null ? '' : `narrowed AS MATERIALIZED (SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id WHERE ${narrowing.join(' AND ')}), `}f AS (
         ${openingsApart ? '' : `${byOpening}
         UNION ALL
         `}SELECT p.game_id, ${foundAt(stride)}, p.result, p.played
         FROM game_positions p ${foundIn(key)}
         WHERE ${laterHolds} AND NOT p.openings @> ${opening} AND (h.at > 0 OR t.at > 0)${period('p')}${narrowing === null ? '' : ' AND p.game_id IN (SELECT id FROM narrowed)'}
       ), hit AS ${readTwice ? 'NOT MATERIALIZED ' : ''}(
         SELECT f.game_id, f.at, f.entry, f.result, f.played FROM f WHERE f.at % ${stride} = 0${exact('get_byte(f.entry, 8)')}
       )`;
  // The opening rows' moves, grouped as the index orders them: (turn, result).
  const openingMoves = openingsApart
    ? `SELECT o.turn, o.result, count(*) AS games, max(o.played) AS played, max(o.game_id) AS newest, min(o.played) AS first FROM ${openingRows}${exact('get_byte(o.turn, 0)')} GROUP BY o.turn, o.result`
    : '';
  return { sql, filtered: narrowing !== null || onlyPeriod(filters), openingMoves };
}

/** Whether the filters ask for a period of play and nothing else (the positions' own `played` answers them: no join). */
function onlyPeriod(filters: GameFilters): boolean {
  const asked = Object.entries(filters).filter(([, value]) => value !== undefined);
  return asked.length > 0 && asked.every(([name]) => name === 'playedFrom' || name === 'playedTo');
}

/** The filters a search joins `games g` and `game_analyses a` for: none when a period is all they ask ({@link hitsOf} asks it of the positions' rows). */
function joinedFilters(filters: GameFilters): { where: string[]; params: unknown[] } {
  return onlyPeriod(filters) ? { where: [], params: [] } : whereClause(filters);
}

/**
 * The placeholders of the key (bytea) and of the opening-key array, and `laterHolds`, the condition
 * on a `game_positions p` row that it is a candidate by its later positions: `later`, the games the
 * runs of postings name, or (a row stored before them, with a bucket array) the bucket's GIN index.
 * Their parameters are added to `params`.
 */
function conditionsOf(sought: PositionSought, later: readonly number[], params: unknown[]): { key: string; openingKey: string; opening: string; laterHolds: string } {
  const key = `$${params.push(sought.key)}::bytea`;
  const openingKey = `$${params.push(signedKeyAt(sought.key, 0))}::bigint`;
  const laterHolds = `(p.game_id = ANY($${params.push(later)}::bigint[]) OR p.buckets @> ARRAY[$${params.push(sought.bucket)}::int])`;
  return { key, openingKey, opening: `ARRAY[${openingKey}]`, laterHolds };
}

/**
 * The rank or rating of the player who played the move after the first arrival of each game of
 * `hit` (`value`, null when unknown): the side to move is the same in every game reaching the
 * position (its key holds it), so one game tells its seat (CTE `mover`): the game identity's row
 * holds each ply's mover counted from the first mover's seat (Go and Dots, 2 bytes a ply: the low 2
 * bits, after the start's bytes), or, where the movers take turns (draughts), the first mover's
 * seat, the ply counted from it. Each game's `game_ranks` row is then joined by its id (`join`).
 */
function moverLevel({ level, moverInPly }: MoverLevel, stride: number, params: unknown[]): { cte: string; join: string; value: string } {
  const column = level === 'rank' ? 'ranks' : 'ratings';
  const ply = `(h.at / $${params.push(stride)}::int)`;
  // Counted from the first mover's seat: written in the ply's second byte, or the ply itself.
  const fromFirst = moverInPly ? `(get_byte(i.sequence, octet_length(i.sequence) - 2 * i.plies + 2 * ${ply} + 1) & 3)` : ply;
  const seats = `(SELECT count(*) FROM game_players s WHERE s.game_id = h.game_id)`;
  return {
    cte: `mover AS (
           SELECT (i.first_seat + ${fromFirst}) % greatest(${seats}, ${moverInPly ? 2 : 1})::int AS seat
           FROM hit h JOIN game_identities i ON i.game_id = h.game_id
           WHERE i.first_seat IS NOT NULL AND ${ply} < i.plies
           LIMIT 1
         )`,
    join: 'LEFT JOIN game_ranks r ON r.game_id = h.game_id',
    value: `r.${column}[(SELECT seat FROM mover) + 1]::float8`,
  };
}
