import { Column, Entity } from 'typeorm';
import { bigintAsNumber } from './bigint-number.transformer.js';

/**
 * One uploaded game file: the GoFans table columns (the format as a `formats` id, Header and Body
 * as byte ranges of the file, as text only when they are not a slice of it) and what identifies the
 * bytes. A file of at most 256 bytes keeps them in `raw`; a larger one in game_files, or, when it
 * came in a multi-game file, as its range of `uploads`. A NULL media type is the format's own.
 */
@Entity('games')
export class GameEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintAsNumber })
  id: number;

  @Column('timestamptz', { name: 'uploaded_at' })
  uploadedAt: Date;

  @Column('bigint', { name: 'upload_id', nullable: true, transformer: bigintAsNumber })
  uploadId: number | null;

  @Column('integer')
  size: number;

  @Column('integer', { name: 'header_start', nullable: true })
  headerStart: number | null;

  @Column('integer', { name: 'header_end', nullable: true })
  headerEnd: number | null;

  @Column('integer', { name: 'body_start', nullable: true })
  bodyStart: number | null;

  @Column('integer', { name: 'body_end', nullable: true })
  bodyEnd: number | null;

  @Column('integer', { name: 'upload_start', nullable: true })
  uploadStart: number | null;

  @Column('integer', { name: 'upload_end', nullable: true })
  uploadEnd: number | null;

  /** The `formats` row (publisher, version, usual media type); NULL when no plugin named a format. */
  @Column('smallint', { name: 'format_id', nullable: true })
  formatId: number | null;

  /** The `families` row. */
  @Column('smallint', { name: 'family_id', nullable: true })
  familyId: number | null;

  /** True when a plugin replayed the game (status `indexed`), false when the file is only stored. */
  @Column('boolean')
  indexed: boolean;

  /** The SHA-256 of the bytes (32 bytes; the API writes it in hex). */
  @Column('bytea')
  sha256: Buffer;

  @Column('text', { nullable: true })
  filename: string | null;

  /** NULL when it is the format's usual media type (`formats.media_type`). */
  @Column('text', { name: 'media_type', nullable: true })
  mediaType: string | null;

  @Column('text', { name: 'status_reason', nullable: true })
  statusReason: string | null;

  @Column('text', { nullable: true })
  header: string | null;

  @Column('text', { nullable: true })
  body: string | null;

  /** The bytes of a file of at most 256 bytes. */
  @Column('bytea', { nullable: true })
  raw: Buffer | null;
}
