import { IntersectionType, PickType } from '@nestjs/swagger';
import { ReindexIndexes } from './reindex.dto.js';
import { IsDefined, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class UploadGameQuery {
  /** `publisher/version` of the file's format, to skip detection (e.g. `GoFans/2.1`). */
  @IsOptional()
  @Matches(/^[^/]+\/[^/]+$/, { message: 'format must be publisher/version' })
  format?: string;

  /** File name to keep with a raw-body upload (multipart uploads carry their own). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  filename?: string;
}

/** Re-indexing takes the same `format` as an upload. */
export class ReindexGameQuery extends IntersectionType(PickType(UploadGameQuery, ['format'] as const), ReindexIndexes) {}

export class ExportGameQuery {
  /** `publisher/version` to write the game in: a format of its family (see GET /formats), e.g. `SGF/FF4-Go`. */
  @IsDefined({ message: 'format is required: the publisher/version to write the game in' })
  @Matches(/^[^/]+\/[^/]+$/, { message: 'format must be publisher/version' })
  format: string;
}
