import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';

/** One entry of the audit trail. */
export interface AuditEntry {
  readonly account: string | null;
  readonly tokenId: string | null;
  readonly action: string;
  readonly target: string | null;
  readonly status: number;
  readonly requestId: string | null;
}

/** A row of `audit`, as the driver hands it over. */
export interface AuditRow {
  readonly id: string;
  readonly at: Date;
  readonly account: string | null;
  readonly token_id: string | null;
  readonly action: string;
  readonly target: string | null;
  readonly status: number;
  readonly request_id: string | null;
}

export interface AuditFilters {
  readonly account?: string;
  readonly action?: string;
  readonly from?: Date;
  readonly to?: Date;
  /** Entries older than this id (the cursor). */
  readonly before?: string;
}

/** The audit trail: written once per write, read by admins newest first. The SQL sent is in src/queries/audit.repository.sql. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @GenerateSql()
  async record(entry: AuditEntry): Promise<void> {
    await this.dataSource.query(`INSERT INTO audit (account, token_id, action, target, status, request_id) VALUES ($1, $2, $3, $4, $5, $6)`, [
      entry.account,
      entry.tokenId,
      entry.action,
      entry.target,
      entry.status,
      entry.requestId,
    ]);
  }

  /** Up to `limit` entries matching the filters, newest first. */
  @GenerateSql()
  async page(filters: AuditFilters, limit: number): Promise<AuditRow[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filters.account !== undefined) where.push(`account = ${param(filters.account)}`);
    if (filters.action !== undefined) where.push(`action = ${param(filters.action)}`);
    if (filters.from !== undefined) where.push(`at >= ${param(filters.from)}`);
    if (filters.to !== undefined) where.push(`at < ${param(filters.to)}`);
    if (filters.before !== undefined) where.push(`id < ${param(filters.before)}`);
    return this.dataSource.query(
      `SELECT id, at, account, token_id, action, target, status, request_id FROM audit ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ${param(limit)}`,
      params,
    );
  }
}
