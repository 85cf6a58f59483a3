import { applyDecorators, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeyGuard } from '../common/api-key.guard.js';
import { AppConfig } from '../common/config.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { GameDto, GamePageDto } from './dto/game.dto.js';
import { ReplayDto } from './dto/replay.dto.js';
import { SearchGamesQuery } from './dto/search-games.query.js';
import { UploadGameQuery } from './dto/upload-game.query.js';
import { GameIdPipe } from './game-id.pipe.js';
import type { GameId } from './game-id.pipe.js';
import { GamesService } from './games.service.js';
import { receiveUpload } from './upload-body.js';

const binary = { type: 'string', format: 'binary' } as const;
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

/** The `{id}` of every game route: decimal digits of a positive 64-bit integer; anything else is a 400. */
const GameIdParam = () =>
  applyDecorators(
    ApiParam({ name: 'id', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The game id.' }),
    ApiResponse({ status: 400, description: 'The id is not decimal digits naming 1 to 2^63-1.', content: problem }),
  );

@ApiTags('games')
@ApiExtraModels(ProblemDetailsDto)
@Controller('games')
export class GamesController {
  constructor(
    private readonly games: GamesService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  @Post()
  @UseGuards(ApiKeyGuard)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'uploadGame',
    summary: 'Upload a game file',
    description:
      'The raw bytes as the body (any content type), or multipart/form-data with the field `file`. ' +
      'The same bytes uploaded again answer 200 with the game already stored.',
    requestBody: {
      required: true,
      content: {
        'application/octet-stream': { schema: binary },
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], properties: { file: binary } },
        },
      },
    },
  })
  @ApiResponse({ status: 201, type: GameDto, description: 'Stored; `Location` names the new game.' })
  @ApiResponse({ status: 200, type: GameDto, description: 'These bytes were stored before: the existing game.' })
  @ApiResponse({ status: 400, description: 'Bad query or multipart form.', content: problem })
  @ApiResponse({ status: 413, description: 'Larger than MAX_UPLOAD_BYTES.', content: problem })
  @ApiResponse({ status: 415, description: 'Binary content no format reads.', content: problem })
  @ApiResponse({ status: 422, description: 'Unreadable game file: what is wrong and where.', content: problem })
  @ApiUnauthorizedResponse({ description: 'API key missing or wrong (when API_KEYS is set).', content: problem })
  async upload(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query() query: UploadGameQuery,
  ): Promise<GameDto> {
    const file = await receiveUpload(request, response, this.config.MAX_UPLOAD_BYTES, query.filename);
    const { game, created } = await this.games.upload(file, query);
    response.status(created ? 201 : 200).location(`/games/${game.id}`);
    return game;
  }

  @Get()
  @ApiOperation({ operationId: 'searchGames', summary: 'Search the archive, newest first' })
  @ApiOkResponse({ type: GamePageDto })
  @ApiResponse({ status: 400, description: 'Unknown parameter, bad value or bad cursor.', content: problem })
  search(@Query() query: SearchGamesQuery): Promise<GamePageDto> {
    return this.games.search(query);
  }

  @Get(':id')
  @GameIdParam()
  @ApiOperation({ operationId: 'getGame', summary: 'A game with its index entries and verdict' })
  @ApiOkResponse({ type: GameDto })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  get(@Param('id', GameIdPipe) id: GameId): Promise<GameDto> {
    return this.games.get(id);
  }

  @Get(':id/raw')
  @GameIdParam()
  @ApiOperation({ operationId: 'downloadGame', summary: 'The uploaded bytes, unchanged' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'Exactly the uploaded bytes, with the uploaded media type; ETag is the SHA-256.', schema: binary })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag.' })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  async raw(
    @Param('id', GameIdPipe) id: GameId,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const game = await this.games.raw(id);
    const etag = `"${game.sha256}"`;
    response.setHeader('ETag', etag);
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
      response.status(304).end();
      return;
    }
    response.attachment(game.filename ?? `game-${id}`);
    // Exactly the media type given at upload: express's type() would append a charset.
    response.setHeader('Content-Type', game.mediaType);
    response.status(200).end(game.raw);
  }

  @Get(':id/regenerated')
  @GameIdParam()
  @ApiOperation({
    operationId: 'regenerateGame',
    summary: 'The record re-written in its own format with every cached result regenerated by replay',
  })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The regenerated file.', schema: binary })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiConflictResponse({ content: problem, description: 'The game is stored but not indexed.' })
  async regenerated(@Param('id', GameIdPipe) id: GameId, @Res() response: Response): Promise<void> {
    const file = await this.games.regenerated(id);
    response.attachment(file.filename);
    response.type(file.mediaType).status(200).end(typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content);
  }

  @Get(':id/replay')
  @GameIdParam()
  @ApiOperation({ operationId: 'replayGame', summary: 'The replay, ply by ply' })
  @ApiOkResponse({ type: ReplayDto })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiConflictResponse({ content: problem, description: 'The game is stored but not indexed.' })
  replay(@Param('id', GameIdPipe) id: GameId): Promise<ReplayDto> {
    return this.games.replay(id);
  }

  @Delete(':id')
  @HttpCode(204)
  @UseGuards(ApiKeyGuard)
  @ApiBearerAuth()
  @GameIdParam()
  @ApiOperation({ operationId: 'deleteGame', summary: 'Delete a game and its index entries' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiUnauthorizedResponse({ description: 'API key missing or wrong (when API_KEYS is set).', content: problem })
  delete(@Param('id', GameIdPipe) id: GameId): Promise<void> {
    return this.games.delete(id);
  }
}

function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

