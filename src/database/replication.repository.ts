import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GenerateSql } from './sql.js';

/** Where a standby is: whether it is one, and how far it has replayed its primary's WAL. */
export interface ReplayPosition {
  /** pg_is_in_recovery(): false for a primary (or a standby since promoted), which replays nothing. */
  readonly standby: boolean;
  /** pg_last_wal_replay_lsn() as text (`16/B374D848`); null on a server that is no standby. */
  readonly replayed: string | null;
}

/**
 * The statements that tell how far a streaming replica lags its primary (read-replicas.ts): the
 * primary's WAL position, and a replica's replay position. Made over the primary's data source by
 * Nest, and over each replica's by ReadReplicas. The SQL sent is in src/queries/replication.repository.sql.
 */
@Injectable()
export class ReplicationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The primary's current WAL write position (`pg_current_wal_lsn()`), as text: every commit acknowledged before it was asked lies at or before it. */
  @GenerateSql()
  async walPosition(): Promise<string> {
    const [row]: { lsn: string }[] = await this.dataSource.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
    return row.lsn;
  }

  /** Whether the server is a standby, and the WAL position it has replayed up to. */
  @GenerateSql()
  async replayPosition(): Promise<ReplayPosition> {
    const [row]: ReplayPosition[] = await this.dataSource.query(`SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`);
    return row;
  }
}
