import { Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Requires } from '../accounts/requires.decorator.js';
import { CurrentCaller } from '../accounts/current-caller.decorator.js';
import type { Caller } from '../accounts/caller.js';
import { ReindexPageDto, ReindexQuery } from './dto/reindex.dto.js';
import { GamesService } from './games.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

@ApiTags('games')
@Controller('reindex')
export class ReindexController {
  constructor(private readonly games: GamesService) {}

  @Post()
  @HttpCode(200)
  @Requires('games:reindex', 'games.reindex')
  @ApiOperation({
    operationId: 'reindexGames',
    summary: "Read the next batch of matching games again with today's plugins",
    description:
      'Takes the search filters; walks the matching games by ascending id, `limit` at a time, re-reading each as ' +
      '`POST /games/{id}/reindex` does. Call again with `after` set to `next` (and the same filters) until `next` is null. ' +
      "Games today's plugins refuse are listed and left as they were.",
  })
  @ApiOkResponse({ type: ReindexPageDto })
  @ApiResponse({ status: 503, description: 'The database does not answer, or the analysis queue is full: call again with the same `after`.', content: problem })
  reindex(@Query() query: ReindexQuery, @CurrentCaller() caller: Caller): Promise<ReindexPageDto> {
    return this.games.reindexBatch(query, caller);
  }
}
