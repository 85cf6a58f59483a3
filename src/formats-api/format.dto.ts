import { ApiProperty } from '@nestjs/swagger';
import { FAMILIES } from '../formats/plugin.js';
import type { Family } from '../formats/plugin.js';

export class FormatDto {
  publisher: string;
  version: string;
  @ApiProperty({ enum: FAMILIES, enumName: 'Family' })
  family: Family;
  title: string;
  mediaTypes: string[];
  /** File name endings, with the dot. */
  extensions: string[];
  @ApiProperty({ type: String, nullable: true, description: 'Where the format schema can be fetched, when it has one.' })
  schemaUrl: string | null;
}

export class FormatIndexDto {
  @ApiProperty({ type: [FormatDto] })
  formats: FormatDto[];
  /** Schemas shared by several formats, such as the base schema every XML upload is checked against. */
  sharedSchemaUrls: string[];
}
