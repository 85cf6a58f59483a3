import { applyDecorators, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { readJsonBody } from '../http/json-body.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { ExplorerDto, PositionGamesPageDto } from './dto/position-answers.dto.js';
import { BoardPositionBody, GamePositionQuery } from './dto/position-query.dto.js';
import { PositionsService } from './positions.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const BY_GAME_PROBLEMS = [
  ApiResponse({ status: 400, description: 'A missing or bad parameter, or a bad cursor.', content: problem }),
  ApiResponse({ status: 404, description: 'No such game (`game.not_found`).', content: problem }),
  ApiResponse({ status: 409, description: 'The game has no positions in the index (`position.not_indexed`): re-index it.', content: problem }),
  ApiResponse({ status: 422, description: 'A ply past the last position of the game (`position.ply_out_of_range`).', content: problem }),
];
const BY_BOARD_PROBLEMS = [
  ApiResponse({ status: 400, description: 'A board that is no position of its family (`position.invalid`), a family without position search (`position.family`), a bad filter or cursor.', content: problem }),
];
/** A position written out is a few hundred bytes of SGF or FEN and some filters. */
const MAX_BODY_BYTES = 64 * 1024;
const boardOf = (request: Request) => readJsonBody(request, BoardPositionBody, MAX_BODY_BYTES);


@ApiTags('positions')
@ApiExtraModels(ProblemDetailsDto)
@Controller('positions')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get('games')
  @ApiOperation({ operationId: 'gamesThroughPosition', summary: "The games that reach a game's position after a ply, newest first" })
  @ApiOkResponse({ type: PositionGamesPageDto })
  @applyDecorators(...BY_GAME_PROBLEMS)
  gamesOfGame(@Query() query: GamePositionQuery): Promise<PositionGamesPageDto> {
    return this.positions.gamesOfGame(query);
  }

  @Post('games')
  @HttpCode(200)
  @ApiOperation({ operationId: 'gamesThroughBoard', summary: 'The games that reach a position written out (SGF setup, FEN), newest first' })
  @ApiOkResponse({ type: PositionGamesPageDto })
  @ApiBody({ type: BoardPositionBody })
  @applyDecorators(...BY_BOARD_PROBLEMS)
  async gamesOfBoard(@Req() request: Request): Promise<PositionGamesPageDto> {
    return this.positions.gamesOfBoard(await boardOf(request));
  }

  @Get('explorer')
  @ApiOperation({ operationId: 'explorePosition', summary: "What was played next from a game's position after a ply, and how those games ended" })
  @ApiOkResponse({ type: ExplorerDto })
  @applyDecorators(...BY_GAME_PROBLEMS)
  explorerOfGame(@Query() query: GamePositionQuery): Promise<ExplorerDto> {
    return this.positions.explorerOfGame(query);
  }

  @Post('explorer')
  @HttpCode(200)
  @ApiOperation({ operationId: 'exploreBoard', summary: 'What was played next from a position written out, and how those games ended' })
  @ApiOkResponse({ type: ExplorerDto })
  @ApiBody({ type: BoardPositionBody })
  @applyDecorators(...BY_BOARD_PROBLEMS)
  async explorerOfBoard(@Req() request: Request): Promise<ExplorerDto> {
    return this.positions.explorerOfBoard(await boardOf(request));
  }
}
