import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Requires } from '../accounts/requires.decorator.js';
import { CurrentCaller } from '../accounts/current-caller.decorator.js';
import type { Caller } from '../accounts/caller.js';
import { ownerFor } from '../accounts/access.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { GameIdPipe } from '../http/game-id.pipe.js';
import type { GameId } from '../http/game-id.pipe.js';
import { ImportDto, ImportQuery, ImportResultDto } from './dto/import.dto.js';
import { ImportsService } from './imports.service.js';

const binary = { type: 'string', format: 'binary' } as const;
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const ImportIdParam = () => ApiParam({ name: 'id', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The import id.' });
const BAD_ID = { status: 400, description: 'The id is not decimal digits naming 1 to 2^63-1.', content: problem } as const;

@ApiTags('imports')
@ApiExtraModels(ProblemDetailsDto, ImportResultDto)
@Controller('imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @Requires('games:write', 'import.create')
  @ApiOperation({
    operationId: 'importFiles',
    summary: 'Import many files at once, in the background',
    description:
      'Takes a zip, a tar (or gzipped tar), a multipart request of many `file` parts, or any other single file (e.g. one ' +
      'SGF or PDN collection). The body is written to disk as it arrives (at most MAX_IMPORT_BYTES), its files counted, ' +
      'and the answer comes at once: 202 with `Location: /imports/{id}`. Each file is then stored as POST /uploads ' +
      'stores it (collections split into games, a file or game the archive has is a duplicate), in archive order; ' +
      'directories are skipped. A zip or tar whose files would unpack past MAX_IMPORT_EXPANDED_BYTES, or hold more than ' +
      'MAX_IMPORT_ENTRIES files, is refused with 422 before anything is stored. A file is refused on its own (its ' +
      'results line says why) when its path leaves the archive (`..`, absolute), when it is a link or a device, larger ' +
      'than MAX_UPLOAD_BYTES, an archive itself, or unreadable as POST /uploads would refuse it. An import survives a ' +
      'restart of the archive: it goes on after its last finished file.',
    requestBody: {
      required: true,
      content: {
        'application/zip': { schema: binary },
        'application/x-tar': { schema: binary },
        'application/gzip': { schema: binary },
        'application/octet-stream': { schema: binary },
        'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'array', items: binary } } } },
      },
    },
  })
  @ApiResponse({ status: 202, type: ImportDto, description: 'Taken; `Location` names the import, whose progress GET /imports/{id} tells.', headers: { Location: { description: 'The path of the import, `/imports/{id}`.', required: true, schema: { type: 'string' } } } })
  @ApiResponse({ status: 400, description: 'Bad query or multipart form.', content: problem })
  @ApiResponse({ status: 413, description: 'Larger than MAX_IMPORT_BYTES (or a multipart part larger than MAX_UPLOAD_BYTES).', content: problem })
  @ApiResponse({ status: 422, description: 'A damaged archive; files past MAX_IMPORT_ENTRIES or unpacking past MAX_IMPORT_EXPANDED_BYTES.', content: problem })
  create(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Query() query: ImportQuery, @CurrentCaller() caller: Caller): Promise<ImportDto> {
    return this.imports.create(request, response, query, ownerFor(caller));
  }

  @Get(':id')
  @ImportIdParam()
  @ApiOperation({ operationId: 'getImport', summary: 'How far an import has come' })
  @ApiOkResponse({ type: ImportDto })
  @ApiResponse(BAD_ID)
  @ApiNotFoundResponse({ content: problem, description: 'No such import.' })
  get(@Param('id', GameIdPipe) id: GameId): Promise<ImportDto> {
    return this.imports.get(id);
  }

  @Get(':id/results')
  @ImportIdParam()
  @ApiOperation({
    operationId: 'getImportResults',
    summary: 'What became of each file of an import so far',
    description: 'One JSON line per finished file, in import order; streamed. Call again for the files finished since.',
  })
  // The body is text of many JSON lines, not one ImportResultDto: said so, generators read it as text
  // (openapi-python-client otherwise parses the whole stream as a single object and fails).
  @ApiOkResponse({ description: 'A line per finished file, each an `ImportResultDto`: `position`, `path`, `outcome`, `gameIds`, `uploadId`, `problem`.', content: { 'application/x-ndjson': { schema: { type: 'string' } } } })
  @ApiResponse(BAD_ID)
  @ApiNotFoundResponse({ content: problem, description: 'No such import.' })
  results(@Param('id', GameIdPipe) id: GameId, @Res() response: Response): Promise<void> {
    return this.imports.results(id, response);
  }
}
