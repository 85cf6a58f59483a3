import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ProblemDetailsDto } from '../../common/problem-details.dto.js';
import { IMPORT_KINDS } from '../import-entries.js';
import type { ImportKind } from '../import-entries.js';
import { IMPORT_OUTCOMES, IMPORT_STATES } from '../imports.repository.js';
import type { ImportOutcome, ImportState } from '../imports.repository.js';

export class ImportQuery {
  /** File name to keep with a raw-body import of one file (a zip's or tar's entries carry their own). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  filename?: string;
}

/** A bulk import and how far it has come. */
export class ImportDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  @ApiProperty({
    enum: IMPORT_STATES,
    enumName: 'ImportState',
    description: '`running`: files are being stored; `done`: every file has its outcome; `failed`: the archive could not be read on (see `problem`).',
  })
  state: ImportState;
  @ApiProperty({ enum: IMPORT_KINDS, enumName: 'ImportKind', description: 'What was sent: a zip, a tar, a gzipped tar, a multipart batch, or one file.' })
  kind: ImportKind;
  @ApiProperty({ type: String, nullable: true })
  filename: string | null;
  /** The account that sent the import, and owns its games; null for none. */
  @ApiProperty({ type: String, nullable: true })
  owner: string | null;
  /** Files in the import (directories are not counted). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesTotal: number;
  /** Files with their outcome. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesDone: number;
  /** New games stored (indexed or kept without an index). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  gamesStored: number;
  /** Games the archive already had (in files seen before, or repeated in the import). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  duplicates: number;
  /** Files refused; their results line carries the problem. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  refused: number;
  @ApiProperty({ type: ProblemDetailsDto, nullable: true, description: 'Why the import failed; null unless `state` is `failed`.' })
  problem: ProblemDetailsDto | null;
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;
}

/** One line of GET /imports/{id}/results: what became of one file. */
export class ImportResultDto {
  /** 0-based place of the file in the import (archive order, directories left out). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  position: number;
  /** The entry's path in the archive, or the part's file name. */
  path: string;
  @ApiProperty({
    enum: IMPORT_OUTCOMES,
    enumName: 'ImportOutcome',
    description:
      '`indexed`: new games, at least one understood and replayed; `stored`: new games, kept without an index; ' +
      '`duplicate`: the archive had the file or every game in it; `refused`: nothing stored, `problem` says why.',
  })
  outcome: ImportOutcome;
  @ApiProperty({ type: 'array', items: { type: 'integer', format: 'int64' }, description: 'The games of the file, in file order (a duplicate names the game the archive had).' })
  gameIds: number[];
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'The kept file, `/uploads/{uploadId}`; null when refused.' })
  uploadId: number | null;
  @ApiProperty({ type: ProblemDetailsDto, nullable: true })
  problem: ProblemDetailsDto | null;
}
