import { applyDecorators, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { readJsonBody } from '../http/json-body.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { ExplorerDto, PositionGamesPageDto, PositionHistoryDto } from './dto/position-answers.dto.js';
import { BoardPositionBody, ExplorerBoardBody, ExplorerGameQuery, GamePositionQuery } from './dto/position-query.dto.js';
import { PositionsService } from './positions.service.js';
import type { WrittenTree } from './positions.service.js';
import { BoardTreeBody, PositionTreeQuery } from './dto/position-tree.query.js';
import { markAsDownload } from '../common/download-headers.js';

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
const TREE_ANSWER =
  'One game record with variations: every move played from the position in at least `minGames` games (of the filters), to `depth` plies, ' +
  "in the queried board's orientation; each move's comment holds its games, results and years. Go and Dots: SGF (GM[1], GM[40]); draughts: PDN.";
const TREE_CONTENT = { 'application/x-go-sgf': { schema: { type: 'string' } }, 'application/x-pdn': { schema: { type: 'string' } } };
const TREE_PROBLEMS = ApiResponse({
  status: 422,
  description: 'A ply past the last position of the game (`position.ply_out_of_range`); a tree past 100,000 nodes (`tree.too_large`: raise minGames, lower depth, add filters); a game that does not start from its family\'s start (`tree.unknown_start`: send the position written out).',
  content: problem,
});

/** A tree as a download in its format's media type. */
function sendTree(response: Response, tree: WrittenTree): void {
  response.attachment(tree.filename);
  markAsDownload(response);
  response.type(`${tree.mediaType}; charset=utf-8`).status(200).end(Buffer.from(tree.content, 'utf8'));
}


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
  explorerOfGame(@Query() query: ExplorerGameQuery): Promise<ExplorerDto> {
    return this.positions.explorerOfGame(query);
  }

  @Post('explorer')
  @HttpCode(200)
  @ApiOperation({ operationId: 'exploreBoard', summary: 'What was played next from a position written out, and how those games ended' })
  @ApiOkResponse({ type: ExplorerDto })
  @ApiBody({ type: ExplorerBoardBody })
  @applyDecorators(...BY_BOARD_PROBLEMS)
  async explorerOfBoard(@Req() request: Request): Promise<ExplorerDto> {
    return this.positions.explorerOfBoard(await readJsonBody(request, ExplorerBoardBody, MAX_BODY_BYTES));
  }

  @Get('history')
  @ApiOperation({ operationId: 'positionHistory', summary: "The games reaching a game's position after a ply, by the year they were played" })
  @ApiOkResponse({ type: PositionHistoryDto })
  @applyDecorators(...BY_GAME_PROBLEMS)
  historyOfGame(@Query() query: GamePositionQuery): Promise<PositionHistoryDto> {
    return this.positions.historyOfGame(query);
  }

  @Post('history')
  @HttpCode(200)
  @ApiOperation({ operationId: 'boardHistory', summary: 'The games reaching a position written out (SGF setup, FEN), by the year they were played' })
  @ApiOkResponse({ type: PositionHistoryDto })
  @ApiBody({ type: BoardPositionBody })
  @applyDecorators(...BY_BOARD_PROBLEMS)
  async historyOfBoard(@Req() request: Request): Promise<PositionHistoryDto> {
    return this.positions.historyOfBoard(await boardOf(request));
  }

  @Get('tree')
  @ApiOperation({ operationId: 'positionTree', summary: "The explorer as a game tree from a game's position after a ply: SGF (Go, Dots) or PDN (draughts)" })
  @ApiOkResponse({ description: TREE_ANSWER, content: TREE_CONTENT })
  @applyDecorators(...BY_GAME_PROBLEMS, TREE_PROBLEMS)
  async treeOfGame(@Query() query: PositionTreeQuery, @Res() response: Response): Promise<void> {
    sendTree(response, await this.positions.treeOfGame(query));
  }

  @Post('tree')
  @HttpCode(200)
  @ApiOperation({ operationId: 'boardTree', summary: 'The explorer as a game tree from a position written out (SGF setup, FEN): SGF (Go, Dots) or PDN (draughts)' })
  @ApiOkResponse({ description: TREE_ANSWER, content: TREE_CONTENT })
  @ApiBody({ type: BoardTreeBody })
  @applyDecorators(...BY_BOARD_PROBLEMS, TREE_PROBLEMS)
  async treeOfBoard(@Req() request: Request, @Res() response: Response): Promise<void> {
    sendTree(response, await this.positions.treeOfBoard(await readJsonBody(request, BoardTreeBody, MAX_BODY_BYTES)));
  }
}
