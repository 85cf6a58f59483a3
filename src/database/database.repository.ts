import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, QueryRunner } from 'typeorm';
import { GenerateSql } from './sql.js';

/** A table's change counters, as the statistics views keep them. */
export interface TableActivity {
  readonly relname: string;
  readonly n_live_tup: string;
  readonly n_dead_tup: string;
  readonly n_mod_since_analyze: string;
  readonly n_ins_since_vacuum: string;
}

/**
 * The key of the session-level advisory lock under which migrations run on a PostgreSQL server: a
 * fixed number of the archive's own (ASCII "tabula-m"), which no other lock of the archive uses.
 */
export const MIGRATION_LOCK_KEY = '8386939317591076205';

/**
 * The statements about the database itself rather than the archive's rows: whether it answers
 * (`GET /health`), and the statistics and upkeep of its tables (table-maintenance.ts). The SQL
 * sent is in src/queries/database.repository.sql.
 */
@Injectable()
export class DatabaseRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Fails when the database does not answer. */
  @GenerateSql()
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /** The change counters of the archive's tables. */
  @GenerateSql()
  async tableActivity(): Promise<TableActivity[]> {
    return this.dataSource.query(
      `SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze, n_ins_since_vacuum FROM pg_stat_user_tables WHERE schemaname = 'public'`,
    );
  }

  /** Whether the table (its name quoted) is there, in the public schema. */
  @GenerateSql()
  async exists(quotedName: string): Promise<boolean> {
    const [here]: { here: boolean }[] = await this.dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS here`, [`public.${quotedName}`]);
    return here.here;
  }

  /**
   * Vacuums and analyses the table (its name quoted), or only analyses it; skipped when another
   * session holds a lock that would make it wait (another node's analysis of the same table).
   */
  @GenerateSql()
  async upkeep(quotedName: string, upkeep: 'vacuum' | 'analyze'): Promise<void> {
    await this.dataSource.query(upkeep === 'vacuum' ? `VACUUM (ANALYZE, SKIP_LOCKED) ${quotedName}` : `ANALYZE (SKIP_LOCKED) ${quotedName}`);
  }

  /** Whether the server runs autovacuum (the embedded database never does, whatever it says). */
  @GenerateSql()
  async autovacuumOn(): Promise<boolean> {
    const [row]: { on: boolean }[] = await this.dataSource.query(`SELECT current_setting('autovacuum') = 'on' AS on`);
    return row.on;
  }

  /**
   * Runs `work` while this process holds the migrations' advisory lock: taken on a connection held
   * for the whole time and handed to `work`, which runs the migrations on it (one connection: a
   * server that takes one at a time, as the embedded database's socket server does, serves it too),
   * waited for as long as another node holds it, and given back when `work` ends. Should this
   * process die meanwhile, its connection closes and the server releases the lock.
   */
  @GenerateSql()
  async whileMigrationLocked<T>(work: (holder: QueryRunner) => Promise<T>): Promise<T> {
    const holder = this.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      try {
        return await work(holder);
      } finally {
        await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      await holder.release();
    }
  }
}
