import { applyDecorators, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DOWNLOAD_HEADER_DOCS } from '../../common/download-headers.js';
import { ProblemDetailsDto } from '../../common/problem-details.dto.js';
import { ExportGamesQuery } from '../dto/export-games.query.js';
import { ExportSelectionDto, MAX_EXPORT_IDS } from '../dto/export-selection.dto.js';
import { ExportService } from './export.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const binary = { type: 'string', format: 'binary' } as const;

/** What both export routes answer: the forms `Accept` chooses from (with `headers` besides Content-Disposition), and the errors. */
const ExportAnswers = (headers: Record<string, unknown> = {}) =>
  applyDecorators(
  ApiOkResponse({
    description:
      'Chosen by `Accept` (quality values count; none or `*/*`: NDJSON). ' +
      '`application/x-ndjson`: a line per game, the JSON `GET /games/{id}` answers; an id naming no game is the line `{"id": …, "missing": true}`; ' +
      'when `limit` cut the export short, the last line is `{"next": "<cursor>"}`. ' +
      '`application/zip`, `application/x-tar`: each game\'s stored bytes (as `GET /games/{id}/raw` serves them), named ' +
      '`<id>-<file name>.<extension of its format>` (no path separator, `..` or control character), then `manifest.ndjson`: ' +
      'a line per entry (`id`, `name`, `sha256`, `size`, `mediaType`, `filename`, `publisher`, `version`, `family`, `status`, `players`), ' +
      'the missing ids, and `{"next"}` as in NDJSON. ' +
      '`application/x-go-sgf` (Go, Dots), `application/x-pdn` (checkers): one collection file of the family named by `family`: ' +
      'each game in its stored bytes when they are that format in UTF-8, else converted as `GET /games/{id}/export` converts it; ' +
      'games that cannot be written (another family, kept without an index, a conversion refused, a missing id) are left out and ' +
      'named in a note after the last game (a PDN comment; plain text outside any SGF game tree). ' +
      'The body is streamed; a transfer that breaks off (connection reset, unterminated chunked body) is incomplete.',
    content: {
      'application/x-ndjson': { schema: { type: 'string' } },
      'application/zip': { schema: binary },
      'application/x-tar': { schema: binary },
      'application/x-go-sgf': { schema: binary },
      'application/x-pdn': { schema: binary },
    },
    headers: {
      'Content-Disposition': { description: '`attachment` with `games.<ndjson|zip|tar|sgf|pdn>`.', required: true, schema: { type: 'string' } },
      ...DOWNLOAD_HEADER_DOCS,
      ...headers,
    },
  }),
  ApiResponse({ status: 406, description: '`Accept` names none of the forms, or the family has no collection of the type asked for.', content: problem }),
  );

/** Bulk exports; read-only, public like every read. Registered before the games controller, whose `/games/{id}` would take `/games/export`. */
@ApiTags('games')
@ApiExtraModels(ProblemDetailsDto)
@Controller('games')
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  @Get('export')
  @ApiOperation({
    operationId: 'exportGames',
    summary: 'Every game a search finds, in one download',
    description:
      'Takes the filters, `sort` and `cursor` of `GET /games` (a cursor of either route continues the same search). Without ' +
      '`limit`, every matching game; with it, at most `limit` games, counted when the export starts, and when more match, ' +
      '`Link: </games/export?cursor=…&limit=…>; rel="next"` plus the `{"next"}` line (NDJSON, manifest) say where to go on: ' +
      'the next export starts exactly after this one\'s last game. A collection (`application/x-go-sgf`, `application/x-pdn`) needs `family`.',
  })
  @ApiResponse({ status: 400, description: 'Unknown parameter, bad value or bad cursor; a collection without `family`.', content: problem })
  @ExportAnswers({ Link: { description: 'Only when `limit` cut the export short: `<…>; rel="next"`, the export that goes on.', required: false, schema: { type: 'string' } } })
  search(@Query() query: ExportGamesQuery, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.exports.search(query, request, response);
  }

  @Post('export')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'exportSelectedGames',
    summary: 'The games named by id, in one download',
    description:
      `The body names up to ${MAX_EXPORT_IDS} ids; games are written in that order, each once. An id naming no game does not ` +
      'fail the export: NDJSON and the manifest list it as missing, a collection\'s note names it. The forms are those of ' +
      '`GET /games/export`; `family` is needed for a collection and allowed only there. A read like the others: public unless PUBLIC_READS=false.',
  })
  @ApiBody({ type: ExportSelectionDto })
  @ApiResponse({ status: 400, description: 'The body is not JSON, or not `{ "ids": [1 to 10,000 positive integers], "family"? }`; a collection without `family`.', content: problem })
  @ExportAnswers()
  selection(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.exports.selection(request, response);
  }
}
