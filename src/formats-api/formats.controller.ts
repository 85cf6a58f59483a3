import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { FormatReader } from '../formats/format-reader.js';
import type { FormatSchema } from '../formats/plugin.js';
import { FormatIndexDto } from './format.dto.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

/** The format index: what the archive reads, and the schemas it checks files against. */
@ApiTags('formats')
@ApiExtraModels(ProblemDetailsDto)
@Controller('formats')
export class FormatsController {
  constructor(@Inject(FormatReader) private readonly reader: FormatReader) {}

  @Get()
  @ApiOperation({ operationId: 'listFormats', summary: 'Every publisher/version the archive reads' })
  @ApiOkResponse({ type: FormatIndexDto })
  list(): FormatIndexDto {
    const shared = this.reader.plugins.flatMap((plugin) => plugin.sharedSchemas ?? []);
    return {
      formats: this.reader.formats.map((format) => ({
        publisher: format.publisher,
        version: format.version,
        family: format.family,
        title: format.title,
        mediaTypes: [...format.mediaTypes],
        extensions: [...format.extensions],
        schemaUrl: format.schema ? `/formats/${encodeURIComponent(format.publisher)}/${encodeURIComponent(format.version)}/schema` : null,
      })),
      sharedSchemaUrls: shared.map((schema) => `/formats/schemas/${encodeURIComponent(schema.name)}`),
    };
  }

  @Get('schemas/:name')
  @ApiOperation({ operationId: 'getSharedSchema', summary: 'A schema shared by several formats (e.g. Standard.xsd)' })
  @ApiProduces('application/xml')
  @ApiOkResponse({ description: 'The schema text.', schema: { type: 'string' } })
  @ApiNotFoundResponse({ content: problem, description: 'No such schema.' })
  sharedSchema(@Param('name') name: string, @Res() response: Response): void {
    const schema = this.reader.plugins.flatMap((plugin) => plugin.sharedSchemas ?? []).find((candidate) => candidate.name === name);
    if (!schema) throw new ProblemException(404, 'resource.not_found', `there is no shared schema named "${name}"`);
    send(response, schema);
  }

  @Get(':publisher/:version/schema')
  @ApiOperation({ operationId: 'getFormatSchema', summary: "A format's schema (XSD for XML formats)" })
  @ApiProduces('application/xml')
  @ApiOkResponse({ description: 'The schema text.', schema: { type: 'string' } })
  @ApiNotFoundResponse({ content: problem, description: 'Unknown format, or a format without a schema.' })
  schema(@Param('publisher') publisher: string, @Param('version') version: string, @Res() response: Response): void {
    const schema = this.reader.find(publisher, version)?.format.schema;
    if (!schema) throw new ProblemException(404, 'resource.not_found', `the archive has no schema for ${publisher}/${version}`);
    send(response, schema);
  }
}

function send(response: Response, schema: FormatSchema): void {
  response.type(schema.mediaType).status(200).send(schema.text);
}
