import { Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentCaller } from '../accounts/current-caller.decorator.js';
import type { Caller } from '../accounts/caller.js';
import { Requires } from '../accounts/requires.decorator.js';
import { GameIdParam, GameIdPipe } from '../http/game-id.pipe.js';
import type { GameId } from '../http/game-id.pipe.js';
import { readJson, readJsonBody } from '../http/json-body.js';
import { ChangeTagsDto, ChangeTagsPageDto, ChangeTagsQuery, GameTagsDto, TagCountDto, TagCountsQuery } from './dto/tags.dto.js';
import { TagsService } from './tags.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
/** A body of tags: 50 of them at 50 characters of up to 4 bytes, quoted, with room for escapes. */
const MAX_BODY_BYTES = 64 * 1024;
const BAD_TAGS = 'A tag that is not 1 to 50 letters, digits, `-` or `_` (starting with a letter, a digit or `_`), or more than 50 tags (`tag.invalid`, naming the tag and what is wrong); a body that is not JSON (`request.invalid`).';

@ApiTags('tags')
@Controller()
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Put('games/:id/tags')
  @HttpCode(200)
  @Requires('games:write', 'game.tags')
  @GameIdParam()
  @ApiOperation({
    operationId: 'setGameTags',
    summary: "Set a game's tags",
    description:
      'The body is the whole list (a JSON array; `[]` removes every tag). Tags are kept as written in Unicode NFC, ' +
      'case counts, repeats are dropped. The game\'s owner\'s tokens with `games:write` may, and an admin\'s. The file is not changed.',
  })
  @ApiBody({ schema: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 50, description: 'Letters of any script, digits, `-` and `_`; not starting with `-`.' }, example: ['studied', 'joseki'] } })
  @ApiOkResponse({ type: GameTagsDto, description: "The game's tags now." })
  @ApiResponse({ status: 400, description: BAD_TAGS, content: problem })
  @ApiNotFoundResponse({ content: problem, description: 'No such game (`game.not_found`).' })
  async replace(@Param('id', GameIdPipe) id: GameId, @Req() request: Request, @CurrentCaller() caller: Caller): Promise<GameTagsDto> {
    return this.tags.replace(id, await readJson(request, MAX_BODY_BYTES), caller);
  }

  @Post('games/tags')
  @HttpCode(200)
  @Requires('games:write', 'games.tags')
  @ApiOperation({
    operationId: 'changeTags',
    summary: 'Add and remove tags on the next batch of games of a search',
    description:
      'Takes the search filters; walks the matching games the caller may write (a club\'s own, an admin\'s any) by ascending id, ' +
      '`limit` at a time, removing `remove` from each and adding `add`. Call again with `after` set to `next` (the same filters and body) ' +
      'until `next` is null. A game that would pass 50 tags is listed in `full` and left without the tags to add.',
  })
  @ApiBody({ type: ChangeTagsDto })
  @ApiOkResponse({ type: ChangeTagsPageDto })
  @ApiResponse({ status: 400, description: `${BAD_TAGS} A body naming no tag, or a bad filter (\`request.invalid\`).`, content: problem })
  async change(@Query() query: ChangeTagsQuery, @Req() request: Request, @CurrentCaller() caller: Caller): Promise<ChangeTagsPageDto> {
    return this.tags.change(query, await readJsonBody(request, ChangeTagsDto, MAX_BODY_BYTES), caller);
  }

  @Get('tags')
  @ApiOperation({ operationId: 'listTags', summary: 'Tags with their numbers of games, most used first', description: 'Ties go by the tag, by code point.' })
  @ApiOkResponse({ type: [TagCountDto] })
  @ApiResponse({ status: 400, description: 'Unknown parameter or bad value.', content: problem })
  counts(@Query() query: TagCountsQuery): Promise<TagCountDto[]> {
    return this.tags.counts(query);
  }
}
