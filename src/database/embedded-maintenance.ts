import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../common/config.js';
import { DatabaseTarget } from './database-target.js';

/** A table's change counters, as the statistics views keep them. */
interface TableActivity {
  readonly relname: string;
  readonly n_live_tup: string;
  readonly n_dead_tup: string;
  readonly n_mod_since_analyze: string;
  readonly n_ins_since_vacuum: string;
}

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
 * PostgreSQL's own thresholds, through the archive's pool (so between other statements).
 */
@Injectable()
export class EmbeddedMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private static readonly logger = new Logger('Database');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly target: DatabaseTarget,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const tables: TableActivity[] = await this.dataSource.query(
      `SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze, n_ins_since_vacuum FROM pg_stat_user_tables WHERE schemaname = 'public'`,
    );
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
      const [here]: { here: boolean }[] = await this.dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS here`, [`public.${name}`]);
      if (!here.here) continue;
      await this.dataSource.query(upkeep === 'vacuum' ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
      EmbeddedMaintenance.logger.debug(`${upkeep} ${table.relname} in ${(performance.now() - started).toFixed(0)} ms`);
      done[table.relname] = upkeep;
    }
    return done;
  }
}
