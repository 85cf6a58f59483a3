import { Column, Entity } from 'typeorm';
import type { Family } from '../../formats/plugin.js';
import { bigintAsNumber } from './bigint-number.transformer.js';

export type GameStatus = 'indexed' | 'stored';

/**
 * One uploaded game file: the GoFans table columns (Header and Body as byte ranges of the file,
 * as text only when they are not a slice of it) and what identifies the bytes, kept in game_files.
 */
@Entity('games')
export class GameEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintAsNumber })
  id: number;

  @Column('text', { nullable: true })
  publisher: string | null;

  @Column('text', { nullable: true })
  version: string | null;

  @Column('text', { nullable: true })
  header: string | null;

  @Column('text', { nullable: true })
  body: string | null;

  @Column('integer', { name: 'header_start', nullable: true })
  headerStart: number | null;

  @Column('integer', { name: 'header_end', nullable: true })
  headerEnd: number | null;

  @Column('integer', { name: 'body_start', nullable: true })
  bodyStart: number | null;

  @Column('integer', { name: 'body_end', nullable: true })
  bodyEnd: number | null;

  @Column('text', { nullable: true })
  family: Family | null;

  @Column('text')
  status: GameStatus;

  @Column('text', { name: 'status_reason', nullable: true })
  statusReason: string | null;

  /** The SHA-256 of the bytes (32 bytes; the API writes it in hex). */
  @Column('bytea')
  sha256: Buffer;

  @Column('integer')
  size: number;

  @Column('text', { name: 'media_type' })
  mediaType: string;

  @Column('text', { nullable: true })
  filename: string | null;

  @Column('timestamptz', { name: 'uploaded_at' })
  uploadedAt: Date;
}
