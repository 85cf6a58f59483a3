import type { DataSource } from 'typeorm';
import { GenerateSql } from '../../database/sql.js';
import type { Query } from '../../database/sql.js';
import { GatheredPostings, POSTING_BITS, encodeRows, shiftFor, sortedByBucket } from './postings.js';
import type { EncodedRows, StoredRow } from './postings.js';

/** A run of postings as `position_runs` has it. */
export interface RunRow {
  readonly run: number;
  /** The width of its buckets (src/indexes/positions/postings.ts). */
  readonly bits: number;
  readonly shift: number;
  readonly postings: number;
  /** The run a merge is moving this one into, null when none is. */
  readonly mergingInto: number | null;
}

/** One row of a run's postings. */
export interface PostingRow extends StoredRow {
  readonly run: number;
  readonly bits: number;
}

/** About how many bytes of postings one statement of a write carries. */
const STATEMENT_BYTES = 256 * 1024;

/** The key of the session-level advisory lock a server's compactor holds while it merges (one node merges at a time). */
const COMPACTION_LOCK_KEY = 0x7461627570n; // "tabup"

/**
 * The runs of postings of the later positions' buckets (postings.ts): a write's run,
 * and the steps of a merge. The reads of a search are PositionsRepository's.
 */
export class PositionPostingsRepository {
  constructor(
    private readonly dataSource: DataSource,
    /** Whether the database is the embedded one (one process: its merges need no lock between nodes). */
    private readonly embedded: boolean,
  ) {}

  /**
   * A run of the games' buckets (each game: its id and the `bits`-bit buckets of its later
   * positions; or gathered already, as a write gathers them batch by batch), on `query` (the
   * caller's transaction); nothing when none has any.
   */
  @GenerateSql()
  async writeRun(
    games: readonly { readonly id: number; readonly buckets: readonly number[] }[] | GatheredPostings,
    query: Query = (sql, params) => this.dataSource.query(sql, params),
    bits: number = POSTING_BITS,
  ): Promise<void> {
    const postings = (games instanceof GatheredPostings ? games : GatheredPostings.of(games)).all;
    if (postings.length === 0) return;
    const sorted = sortedByBucket(postings);
    const rows = encodeRows(sorted, shiftFor(sorted.length, bits), bits);
    const [{ run }] = await query<{ run: string }>(`INSERT INTO position_runs (bits, shift, postings) VALUES ($1, $2, $3) RETURNING run`, [bits, rows.shift, sorted.length]);
    // Its rows a few hundred kB a statement: the embedded database's memory (WebAssembly) grows to hold the largest statement it is sent, and never shrinks.
    for (let first = 0; first < rows.parts.length; ) {
      let last = first;
      while (last + 1 < rows.parts.length && rows.offsets[last + 1] + rows.lengths[last + 1] - rows.offsets[first] <= STATEMENT_BYTES) last++;
      const from = rows.offsets[first] - 1;
      await query(
        `INSERT INTO position_postings (run, bits, part, shift, base, games)
         SELECT $1, $8, p.part, $2, p.base, substring($3::bytea FROM p.at FOR p.length)
         FROM unnest($4::int[], $5::bigint[], $6::int[], $7::int[]) AS p(part, base, at, length)`,
        [
          run,
          rows.shift,
          rows.bytes.subarray(from, rows.offsets[last] - 1 + rows.lengths[last]),
          rows.parts.slice(first, last + 1),
          rows.bases.slice(first, last + 1),
          rows.offsets.slice(first, last + 1).map((offset) => offset - from),
          rows.lengths.slice(first, last + 1),
          bits,
        ],
      );
      first = last + 1;
    }
  }

  /** Every run, oldest first (a few dozen at most: runs of a size are merged). */
  @GenerateSql()
  async runs(query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<RunRow[]> {
    const rows = await query<{ run: string; bits: number; shift: number; postings: string; merging_into: string | null }>(
      `SELECT run, bits, shift, postings, merging_into FROM position_runs ORDER BY run`,
    );
    return rows.map((row) => ({ run: Number(row.run), bits: row.bits, shift: row.shift, postings: Number(row.postings), mergingInto: row.merging_into === null ? null : Number(row.merging_into) }));
  }

  /**
   * Starts a merge of the runs into a new one of the given bucket width, shift and size: the new
   * run, or null when one of them is being merged already (claimed by another node meanwhile).
   */
  @GenerateSql()
  async claimMerge(sources: readonly number[], bits: number, shift: number, postings: number, query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<number | null> {
    // One statement: the sources locked and checked unclaimed, the new run made only when all are,
    // and the sources pointed at it. A claim racing for one of them waits, finds it claimed, makes nothing.
    const [{ target }] = await query<{ target: string | null }>(
      `WITH free AS (
         SELECT run FROM position_runs WHERE run = ANY($3::bigint[]) AND merging_into IS NULL FOR UPDATE
       ), made AS (
         INSERT INTO position_runs (bits, shift, postings) SELECT $4, $1, $2 WHERE (SELECT count(*) FROM free) = cardinality($3::bigint[]) RETURNING run
       ), claimed AS (
         UPDATE position_runs SET merging_into = made.run FROM made WHERE position_runs.run IN (SELECT run FROM free) RETURNING position_runs.run
       )
       SELECT (SELECT run FROM made) AS target`,
      [shift, postings, sources, bits],
    );
    return target === null ? null : Number(target);
  }

  /** The rows of the runs (each with its shift) whose bucket ranges lie in buckets `low` … `high`. */
  @GenerateSql()
  async rowsIn(runs: readonly { readonly run: number; readonly shift: number }[], low: number, high: number, query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<PostingRow[]> {
    const rows = await query<{ run: string; bits: number; part: number; shift: number; base: string; games: Buffer }>(
      // A lookup by the primary key per run (OFFSET 0 keeps the planner from joining the whole table instead).
      `SELECT p.run, p.bits, p.part, p.shift, p.base, p.games
       FROM unnest($1::bigint[], $2::int[]) AS r(run, shift)
       CROSS JOIN LATERAL (SELECT * FROM position_postings q WHERE q.run = r.run AND q.part BETWEEN ($3::int >> r.shift) AND ($4::int >> r.shift) OFFSET 0) p`,
      [runs.map((r) => r.run), runs.map((r) => r.shift), low, high],
    );
    return rows.map((row) => ({ run: Number(row.run), bits: row.bits, part: row.part, shift: row.shift, base: Number(row.base), games: row.games }));
  }

  /**
   * One step of a merge, in one statement: the merged rows of buckets `low` … `high` written into
   * the target run, and the source runs' rows of that range deleted. A search sees each posting
   * once, before the step or after it.
   */
  @GenerateSql()
  async moveRange(target: number, rows: EncodedRows, sources: readonly { readonly run: number; readonly shift: number }[], low: number, high: number, query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<void> {
    await query(
      // The rows to delete found as rowsIn finds them, by the primary key per run, and deleted by their row ids.
      `WITH gone AS (
         DELETE FROM position_postings WHERE ctid = ANY(ARRAY(
           SELECT p.ctid FROM unnest($6::bigint[], $7::int[]) AS r(run, shift)
           CROSS JOIN LATERAL (SELECT ctid FROM position_postings q WHERE q.run = r.run AND q.part BETWEEN ($8::int >> r.shift) AND ($9::int >> r.shift) OFFSET 0) p
         ))
       )
       INSERT INTO position_postings (run, bits, part, shift, base, games)
       SELECT $1, $12, p.part, $2, p.base, substring($3::bytea FROM p.at FOR p.length)
       FROM unnest($4::int[], $5::bigint[], $10::int[], $11::int[]) AS p(part, base, at, length)`,
      [target, rows.shift, rows.bytes, rows.parts, rows.bases, sources.map((s) => s.run), sources.map((s) => s.shift), low, high, rows.offsets, rows.lengths, rows.bits],
    );
  }

  /**
   * Makes the space of the rows merges deleted free for the rows they write next (a plain VACUUM of
   * the postings: no lock that stops a search or a write). Without it a table whose rows are all
   * rewritten at each merge grows to hold the old rows beside the new ones.
   */
  @GenerateSql()
  async reclaim(query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<void> {
    await query(`VACUUM position_postings`);
  }

  /**
   * Ends a merge whose every range has moved: the sources go, the target's size is what it holds,
   * and the marks of dead postings no run holds any more (no run numbered below theirs is left) go.
   */
  @GenerateSql()
  async finishMerge(target: number, postings: number, query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<void> {
    await query(
      `WITH gone AS (DELETE FROM position_runs WHERE merging_into = $1)
       UPDATE position_runs SET postings = $2 WHERE run = $1`,
      [target, postings],
    );
    await query(`DELETE FROM position_removals WHERE before_run <= (SELECT coalesce(min(run), 9223372036854775807) FROM position_runs)`);
  }

  /** The games whose postings in runs numbered below their `before_run` are dead (read again or deleted since): game id → before_run. */
  @GenerateSql()
  async removals(query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Map<number, number>> {
    const rows = await query<{ game_id: string; before_run: string }>(`SELECT game_id, before_run FROM position_removals`);
    return new Map(rows.map((row) => [Number(row.game_id), Number(row.before_run)]));
  }

  /**
   * Runs `work` while this process may merge, with the connection its statements go on: on a server,
   * one held for the whole time under a session-level advisory lock (false at once when another node
   * holds it; released should this process die), so a merge takes one connection of the pool at
   * most; on the embedded database, its one connection, between other statements.
   */
  @GenerateSql()
  async whileCompacting(work: (query: Query) => Promise<void>): Promise<boolean> {
    if (this.embedded) {
      await work((sql, params) => this.dataSource.query(sql, params));
      return true;
    }
    const holder = this.dataSource.createQueryRunner();
    await holder.connect();
    try {
      const [{ locked }] = (await holder.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [COMPACTION_LOCK_KEY.toString()])) as { locked: boolean }[];
      if (!locked) return false;
      try {
        await work((sql, params) => holder.query(sql, params));
        return true;
      } finally {
        await holder.query('SELECT pg_advisory_unlock($1::bigint)', [COMPACTION_LOCK_KEY.toString()]);
      }
    } finally {
      await holder.release();
    }
  }
}
