import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../common/config.js';
import { DatabaseRepository } from './database.repository.js';
import { DatabaseTarget } from './database-target.js';

/** What a table needs: nothing, fresh statistics, or a vacuum (which refreshes them too). */
export type Upkeep = 'none' | 'analyze' | 'vacuum';

/**
 * PostgreSQL's own autovacuum thresholds (the defaults of `autovacuum_*_threshold` and
 * `_scale_factor`): a table is analysed after 50 + 10 % changed rows, vacuumed after 50 + 20 % dead
 * rows or 1000 + 20 % inserted ones (the insert vacuum keeps index-only scans off the heap).
 */
export function upkeepOf(table: { live: number; dead: number; modifiedSinceAnalyze: number; insertedSinceVacuum: number }): Upkeep {
  if (table.dead > 50 + 0.2 * table.live || table.insertedSinceVacuum > 1000 + 0.2 * table.live) return 'vacuum';
  if (table.modifiedSinceAnalyze > 50 + 0.1 * table.live) return 'analyze';
  return 'none';
}

/**
 * The autovacuum the embedded database lacks: PGlite runs PostgreSQL without its background
 * workers, so without this an archive built one upload at a time would never get planner
 * statistics (every search planned blind) nor have dead rows reclaimed. Every
 * EMBEDDED_MAINTENANCE_MS it reads the change counters and analyses or vacuums the tables past
 * PostgreSQL's own thresholds, through the archive's pool (so between other statements); its
 * statements are DatabaseRepository's.
 */
@Injectable()
export class EmbeddedMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private static readonly logger = new Logger('Database');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly target: DatabaseTarget,
    private readonly config: AppConfig,
    private readonly database: DatabaseRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.target.isEmbedded || this.config.EMBEDDED_MAINTENANCE_MS === 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => EmbeddedMaintenance.logger.warn(`maintenance failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = undefined));
    }, this.config.EMBEDDED_MAINTENANCE_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One round: analyse or vacuum each table past its threshold. Returns what was done, by table. */
  async runOnce(): Promise<Record<string, Upkeep>> {
    const tables = await this.database.tableActivity();
    const done: Record<string, Upkeep> = {};
    for (const table of tables) {
      const upkeep = upkeepOf({
        live: Number(table.n_live_tup),
        dead: Number(table.n_dead_tup),
        modifiedSinceAnalyze: Number(table.n_mod_since_analyze),
        insertedSinceVacuum: Number(table.n_ins_since_vacuum),
      });
      if (upkeep === 'none') continue;
      const started = performance.now();
      const name = `"${table.relname.replace(/"/g, '""')}"`;
      // A table dropped since the statistics were read (a scratch table) is not an error worth a log line.
      if (!(await this.database.exists(name))) continue;
      await this.database.upkeep(name, upkeep);
      EmbeddedMaintenance.logger.debug(`${upkeep} ${table.relname} in ${(performance.now() - started).toFixed(0)} ms`);
      done[table.relname] = upkeep;
    }
    return done;
  }
}
