import { Column, Entity } from 'typeorm';
import type { Family } from '../../formats/plugin.js';
import { bigintAsNumber } from './bigint-number.transformer.js';

export type GameStatus = 'indexed' | 'stored';

/** One uploaded game file: the GoFans table columns plus the verbatim bytes. */
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

  @Column('text', { nullable: true })
  family: Family | null;

  @Column('text')
  status: GameStatus;

  @Column('text', { name: 'status_reason', nullable: true })
  statusReason: string | null;

  @Column('bytea', { select: false })
  raw: Buffer;

  @Column('char', { length: 64 })
  sha256: string;

  @Column('integer')
  size: number;

  @Column('text', { name: 'media_type' })
  mediaType: string;

  @Column('text', { nullable: true })
  filename: string | null;

  @Column('timestamptz', { name: 'uploaded_at' })
  uploadedAt: Date;
}
