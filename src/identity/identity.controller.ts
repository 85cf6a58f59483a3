import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GameIdParam, GameIdPipe } from '../http/game-id.pipe.js';
import type { GameId } from '../http/game-id.pipe.js';
import { RelativesDto, RelativesQuery } from './dto/relatives.dto.js';
import { IdentityService } from './identity.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

@ApiTags('games')
@Controller('games')
export class IdentityController {
  constructor(private readonly identities: IdentityService) {}

  @Get(':id/relatives')
  @GameIdParam()
  @ApiOperation({
    operationId: 'getGameRelatives',
    summary: 'The other files of this game: the same game in any format, turned or with colours swapped, a broken-off copy, or a longer file it is the beginning of',
  })
  @ApiOkResponse({ type: RelativesDto })
  @ApiNotFoundResponse({ content: problem, description: 'No such game (`game.not_found`).' })
  @ApiConflictResponse({ content: problem, description: 'The game has no identity (`identity.not_indexed`): its family gives none, or re-index it.' })
  relatives(@Param('id', GameIdPipe) id: GameId, @Query() query: RelativesQuery): Promise<RelativesDto> {
    return this.identities.relatives(id, query);
  }
}
