import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';

/** A row of `tokens`, as the driver hands it over (bigint ids as text). */
export interface TokenRow {
  readonly id: string;
  readonly account: string;
  readonly name: string;
  readonly scopes: string[];
  readonly secret_sha256: Buffer;
  readonly created_at: Date;
  readonly expires_at: Date | null;
  readonly revoked_at: Date | null;
  readonly last_used_at: Date | null;
}

export interface NewToken {
  readonly account: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly secretSha256: Buffer;
  readonly expiresAt: Date | null;
}

const TOKEN_COLUMNS = 'id, account, name, scopes, secret_sha256, created_at, expires_at, revoked_at, last_used_at';

/** Accounts and their tokens. The SQL sent is in src/queries/accounts.repository.sql. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Makes the token (and its account, when new) in one statement. */
  @GenerateSql()
  async createToken(token: NewToken): Promise<TokenRow> {
    const rows: TokenRow[] = await this.dataSource.query(
      `WITH account AS (INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO NOTHING)
       INSERT INTO tokens (account, name, scopes, secret_sha256, expires_at) VALUES ($1, $2, $3::text[], $4, $5) RETURNING ${TOKEN_COLUMNS}`,
      [token.account, token.name, token.scopes, token.secretSha256, token.expiresAt],
    );
    return rows[0];
  }

  /** A token by id, revoked or not. */
  @GenerateSql()
  async findToken(id: string): Promise<TokenRow | undefined> {
    const rows: TokenRow[] = await this.dataSource.query(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = $1`, [id]);
    return rows[0];
  }

  /** The tokens not revoked, oldest first; of one account when given. */
  @GenerateSql()
  async listTokens(account: string | undefined): Promise<TokenRow[]> {
    return this.dataSource.query(
      `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE revoked_at IS NULL ${account === undefined ? '' : 'AND account = $1'} ORDER BY id`,
      account === undefined ? [] : [account],
    );
  }

  /** Records that a token was used now (at most once a minute a token: see Credentials). */
  @GenerateSql()
  async touchToken(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE tokens SET last_used_at = now() WHERE id = $1`, [id]);
  }

  /** Revokes a token; false when there is none of that id not revoked already. */
  @GenerateSql()
  async revokeToken(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH revoked AS (UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id) SELECT id FROM revoked`,
      [id],
    );
    return rows.length > 0;
  }
}
