import { Logger } from '@nestjs/common';
import type { IndexUpkeep } from '../game-index.js';
import { decodeRow, encodeRows, gameOfPosting, mergeSteps, nextMerge, postingsInRow, sortedDistinct, wordsOf } from './postings.js';
import type { Query } from '../../database/sql.js';
import type { MergePlan } from './postings.js';
import { PositionPostingsRepository } from './postings.repository.js';

/**
 * A merge makes the space of the rows it deleted free again once it has deleted this many postings
 * (about 8 MB)… At 100,000 games a merge moves millions of postings: with 8 million here (as
 * before), few merges made the space of their first steps free for their later ones, and the
 * table's pages were half empty once the merges were done (142 MB for 68 MB of rows on the
 * embedded database; 113 MB with this).
 */
const RECLAIM_POSTINGS = 2 ** 21;
/** … or, in a larger archive, this share of all postings (a VACUUM reads the table's whole indexes). */
const RECLAIM_SHARE = 8;
/**
 * Writes told within this time are looked at together: an import of single-game files commits a run
 * a file, and each look at the runs is a statement (about a millisecond a file on the embedded database).
 */
const KICK_DELAY_MS = 200;
/**
 * A merge that failed (the embedded database's one connection held past its wait by a long
 * statement, a server gone for a while) is tried again after this long, should no write tell it
 * to sooner: the runs left unmerged are still searched, only more slowly.
 */
const RETRY_MS = 10_000;

/**
 * Merges the runs of postings in the background (postings.ts), the position index's upkeep: told after each write
 * ({@link kick}), it merges while a size class holds enough runs, one bucket range a statement, so
 * searches and writes go on between the steps. One merge at a time in a process; on a server one
 * node at a time. A merge interrupted (the process stopped) is resumed where it stopped.
 */
export class PostingsCompactor implements IndexUpkeep {
  private readonly logger = new Logger(PostingsCompactor.name);
  private running: Promise<void> | null = null;
  /** A look at the runs told for soon ({@link KICK_DELAY_MS}). */
  private timer: NodeJS.Timeout | null = null;
  private again = false;
  private stopped = false;
  /** The try told after a merge failed ({@link RETRY_MS}). */
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly postings: PositionPostingsRepository,
    private readonly retryMs = RETRY_MS,
  ) {}

  /** At boot: a merge left half done or due is taken up. */
  start(): void {
    this.kick();
  }

  /** Before the connections close: the step under way ends, no other starts (the merge is resumed at the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    await this.running;
  }

  /** A run was written: merge what is due (shortly, with the other writes told meanwhile, or after the merging under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.compactNow();
    }, KICK_DELAY_MS);
  }

  /** Resolves once no merge is under way or due (for the benches and tests): a look told for later is taken now. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.timer !== null) {
        clearTimeout(this.timer);
        this.timer = null;
        this.compactNow();
      }
      if (this.running === null) return;
      await this.running;
    }
  }

  private compactNow(): void {
    if (this.stopped) return;
    this.again = false;
    this.running = this.compact().finally(() => {
      this.running = null;
      if (this.again) this.kick();
    });
  }

  private async compact(): Promise<void> {
    try {
      await this.postings.whileCompacting(async (query) => {
        for (let runs = await this.postings.runs(query), plan = nextMerge(runs); plan !== null && !this.stopped; runs = await this.postings.runs(query), plan = nextMerge(runs)) {
          const all = runs.reduce((sum, run) => sum + run.postings, 0);
          if (!(await this.merge(plan, Math.max(RECLAIM_POSTINGS, all / RECLAIM_SHARE), query))) return;
        }
      });
    } catch (error) {
      // A merge left half done is resumed by the next one; searches read both halves meanwhile.
      if (this.stopped) return;
      this.logger.warn(`merging the position postings failed (tried again within ${this.retryMs / 1000} s): ${(error as Error).message}`);
      this.retry = setTimeout(() => {
        this.retry = null;
        this.kick();
      }, this.retryMs);
      // Nothing for a process to stay up for.
      this.retry.unref();
    }
  }

  /**
   * False when it did not run to its end: its runs were claimed by another merge, or the process is
   * stopping. The space of the rows it deleted is made free for its next rows each time it has read
   * `reclaimAfter` postings.
   */
  private async merge(plan: MergePlan, reclaimAfter: number, query: Query): Promise<boolean> {
    const target = plan.target ?? (await this.postings.claimMerge(plan.sources.map((source) => source.run), plan.bits, plan.shift, plan.postings, query));
    if (target === null) return false;
    let kept = 0;
    let deleted = 0;
    // The postings of games read again or deleted since their runs were written are left behind.
    const removals = await this.postings.removals(query);
    for (const { low, high } of mergeSteps(plan)) {
      if (this.stopped) return false;
      if (deleted >= reclaimAfter) {
        await this.postings.reclaim(query);
        deleted = 0;
      }
      const rows = await this.postings.rowsIn(plan.sources, low, high, query);
      if (rows.length === 0) continue;
      const postings = new BigUint64Array(rows.reduce((sum, row) => sum + postingsInRow(row), 0));
      deleted += postings.length;
      let at = 0;
      for (const row of rows) at = withoutRemoved(postings, at, decodeRow(row, postings, at), row.run, removals);
      const merged = sortedDistinct(postings.subarray(0, at));
      kept += merged.length;
      await this.postings.moveRange(target, encodeRows(merged, plan.shift, plan.bits), plan.sources, low, high, query);
    }
    // Resumed, the steps done before hold postings not counted here: the size is the claim's then.
    await this.postings.finishMerge(target, plan.target === null ? kept : plan.postings, query);
    return true;
  }
}

/**
 * Keeps, of the postings `from` … `to` just decoded from a row of run `run`, those of games not
 * removed since that run was written, moved down in place: where the kept ones end.
 */
function withoutRemoved(postings: BigUint64Array, from: number, to: number, run: number, removals: ReadonlyMap<number, number>): number {
  if (removals.size === 0) return to;
  const words = wordsOf(postings);
  let kept = from;
  for (let i = from; i < to; i++) {
    const before = removals.get(gameOfPosting(words, i));
    if (before === undefined || run >= before) postings[kept++] = postings[i];
  }
  return kept;
}
