import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { readJsonBody } from '../http/json-body.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { PatternGamesPageDto } from './dto/pattern-answers.dto.js';
import { PatternSearchBody } from './dto/pattern-query.dto.js';
import { PatternsService } from './patterns.service.js';
import { DraughtsSearchService, isDraughtsCursor } from './draughts-search.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
/** A pattern is at most 64 rows of 64 cells, with some filters. */
const MAX_BODY_BYTES = 64 * 1024;

@ApiTags('patterns')
@ApiExtraModels(ProblemDetailsDto)
@Controller('patterns')
export class PatternsController {
  constructor(
    private readonly patterns: PatternsService,
    private readonly draughts: DraughtsSearchService,
  ) {}

  @Post('games')
  @HttpCode(200)
  @ApiOperation({ operationId: 'gamesWithPattern', summary: 'The Go or Dots games in which a pattern appears (any symmetry, in a corner, on an edge or anywhere), newest first, and the moves played next around it; draughts games by squares and material' })
  @ApiOkResponse({ type: PatternGamesPageDto })
  @ApiBody({ type: PatternSearchBody })
  @ApiResponse({
    status: 400,
    description:
      'A pattern that is none (`pattern.invalid`: rows of unequal length, other characters; a `sequence` not of the pattern\'s size, with a number twice, a gap, or a number on a `.` or `*` cell; draughts: not 8×8, a piece on a light square, material bounds with lo above hi), without stones (`pattern.no_stones`), larger than the board (`pattern.too_large`), a family without patterns (`pattern.family`), a bad filter or cursor, `plyFrom` after `plyTo`, `strict` without a sequence (`request.invalid`).',
    content: problem,
  })
  async games(@Req() request: Request): Promise<PatternGamesPageDto> {
    const body = await readJsonBody(request, PatternSearchBody, MAX_BODY_BYTES);
    // Draughts is searched by squares and material (src/patterns/draughts-search.ts).
    if (body.family === 'checkers' || isDraughtsCursor(body.cursor)) return this.draughts.games(body);
    return this.patterns.games(body);
  }
}
