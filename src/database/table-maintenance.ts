import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../common/config.js';
import { DatabaseRepository } from './database.repository.js';
import { DatabaseTarget } from './database-target.js';

/** What a table needs: nothing, fresh statistics, or a vacuum (which refreshes them too). */
export type Upkeep = 'none' | 'analyze' | 'vacuum';

/**
 * PostgreSQL's own autovacuum thresholds (the defaults of `autovacuum_*_threshold` and
 * `_scale_factor`): a table is analysed after 50 + 10 % changed rows, vacuumed after 50 + 20 % dead
 * rows or 1000 + 20 % inserted ones (the insert vacuum keeps index-only scans off the heap). With
 * `vacuums` false (a server's tables, which the archive only analyses), the analysis's threshold alone.
 */
export function upkeepOf(table: { live: number; dead: number; modifiedSinceAnalyze: number; insertedSinceVacuum: number }, vacuums = true): Upkeep {
  if (vacuums && (table.dead > 50 + 0.2 * table.live || table.insertedSinceVacuum > 1000 + 0.2 * table.live)) return 'vacuum';
  if (table.modifiedSinceAnalyze > 50 + 0.1 * table.live) return 'analyze';
  return 'none';
}

/**
 * The autovacuum a database lacks. PGlite runs PostgreSQL without its background workers, and a
 * server may run with `autovacuum = off`: without this an archive would never get planner
 * statistics (every search planned blind: at a million games a page of players read every player
 * row) nor, embedded, have dead rows reclaimed. Every EMBEDDED_MAINTENANCE_MS it reads the change
 * counters and, past PostgreSQL's own thresholds, vacuums and analyses the embedded database's
 * tables, or analyses a server's (vacuuming a server's tables, which can take longer than a
 * statement may, is left to whoever turned autovacuum off); through the archive's pool, so between
 * other statements. A server whose autovacuum is on is left to it. Its statements are
 * DatabaseRepository's.
 */
@Injectable()
export class TableMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private static readonly logger = new Logger('Database');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** What the rounds do: vacuum and analyse (embedded), analyse only (a server without autovacuum), nothing; asked once. */
  private mode: Promise<'vacuum' | 'analyze' | 'none'> | undefined;

  constructor(
    private readonly target: DatabaseTarget,
    private readonly config: AppConfig,
    private readonly database: DatabaseRepository,
  ) {}

  private modeOf(): Promise<'vacuum' | 'analyze' | 'none'> {
    this.mode ??= this.target.isEmbedded ? Promise.resolve('vacuum') : this.database.autovacuumOn().then((on) => (on ? 'none' : 'analyze'));
    return this.mode;
  }

  async onApplicationBootstrap(): Promise<void> {
    const mode = await this.modeOf();
    // EMBEDDED_MAINTENANCE_MS=0: no rounds of its own (runOnce still does one when called).
    if (mode === 'none' || this.config.EMBEDDED_MAINTENANCE_MS === 0) return;
    if (mode === 'analyze') {
      TableMaintenance.logger.warn(
        `autovacuum is off on this PostgreSQL server: the archive analyses the tables that changed enough itself (every ${this.config.EMBEDDED_MAINTENANCE_MS} ms); vacuuming them is left to you`,
      );
    }
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => TableMaintenance.logger.warn(`maintenance failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = undefined));
    }, this.config.EMBEDDED_MAINTENANCE_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Whether rounds run here (the embedded database, or a server without autovacuum). */
  async isActive(): Promise<boolean> {
    return (await this.modeOf()) !== 'none';
  }

  /** One round: analyse or vacuum each table past its threshold. Returns what was done, by table (nothing where rounds do not run). */
  async runOnce(): Promise<Record<string, Upkeep>> {
    const done: Record<string, Upkeep> = {};
    const mode = await this.modeOf();
    if (mode === 'none') return done;
    const tables = await this.database.tableActivity();
    for (const table of tables) {
      const upkeep = upkeepOf(
        {
          live: Number(table.n_live_tup),
          dead: Number(table.n_dead_tup),
          modifiedSinceAnalyze: Number(table.n_mod_since_analyze),
          insertedSinceVacuum: Number(table.n_ins_since_vacuum),
        },
        mode === 'vacuum',
      );
      if (upkeep === 'none') continue;
      const started = performance.now();
      const name = `"${table.relname.replace(/"/g, '""')}"`;
      // A table dropped since the statistics were read (a scratch table) is not an error worth a log line.
      if (!(await this.database.exists(name))) continue;
      await this.database.upkeep(name, upkeep);
      TableMaintenance.logger.debug(`${upkeep} ${table.relname} in ${(performance.now() - started).toFixed(0)} ms`);
      done[table.relname] = upkeep;
    }
    return done;
  }
}
