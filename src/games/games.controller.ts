import { Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiHeader,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Requires } from '../accounts/requires.decorator.js';
import { CurrentCaller } from '../accounts/current-caller.decorator.js';
import type { Caller } from '../accounts/caller.js';
import { ownerFor } from '../accounts/access.js';
import { matchesEtag } from '../common/conditional-requests.js';
import { AppConfig } from '../common/config.js';
import { DOWNLOAD_HEADER_DOCS, markAsDownload, markAsPicture, servedMediaType } from '../common/download-headers.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import type { RegeneratedFile } from '../formats/plugin.js';
import { FORMAT_PLUGINS } from '../formats/registry.js';
import { GameDto, GamePageDto, UploadedGameDto } from '../catalog/dto/game.dto.js';
import { ReplayDto } from './dto/replay.dto.js';
import { BoardPictureQuery } from './dto/board-picture.query.js';
import { SearchGamesQuery } from '../catalog/dto/search-games.query.js';
import { ExportGameQuery, ReindexGameQuery, UploadGameQuery } from './dto/upload-game.query.js';
import { GameIdParam, GameIdPipe } from '../http/game-id.pipe.js';
import type { GameId } from '../http/game-id.pipe.js';
import { GamesService, indexList } from './games.service.js';
import { receiveUpload } from '../http/upload-body.js';

const binary = { type: 'string', format: 'binary' } as const;
/** The media types game files are uploaded and served with: the built-in formats' (any other type is accepted too). */
const GAME_FILE_TYPES = [...new Set(['application/octet-stream', 'application/xml', 'text/plain', ...FORMAT_PLUGINS.flatMap((plugin) => plugin.formats.flatMap((format) => format.mediaTypes))])];
const gameFile = Object.fromEntries(GAME_FILE_TYPES.map((type) => [type, { schema: binary }]));
const header = (description: string) => ({ description, required: true, schema: { type: 'string' } });
const LOCATION = { Location: header('The path of the game, `/games/{id}`.') };
const DOWNLOAD_HEADERS = { 'Content-Disposition': header('`attachment` with the file name.') };
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

@ApiTags('games')
@ApiExtraModels(ProblemDetailsDto)
@Controller('games')
export class GamesController {
  constructor(
    private readonly games: GamesService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  @Post()
  @Requires('games:write', 'game.upload')
  @ApiOperation({
    operationId: 'uploadGame',
    summary: 'Upload a game file',
    description:
      'The raw bytes as the body (any content type: the ones listed, or any other, are kept with the file), or ' +
      'multipart/form-data with the one field `file` (its file name, UTF-8, is kept). ' +
      'The same bytes uploaded again answer 200 with the game already stored.',
    requestBody: {
      required: true,
      content: {
        ...gameFile,
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], additionalProperties: false, properties: { file: binary } },
          encoding: { file: { contentType: `${GAME_FILE_TYPES.join(', ')}, */*` } },
        },
      },
    },
  })
  @ApiResponse({ status: 201, type: UploadedGameDto, description: 'Stored; `Location` names the new game; `sameAs` the games already stored that hold the same game.', headers: LOCATION })
  @ApiResponse({ status: 200, type: UploadedGameDto, description: 'These bytes were stored before: the existing game.', headers: LOCATION })
  @ApiResponse({ status: 400, description: 'Bad query or multipart form.', content: problem })
  @ApiResponse({ status: 413, description: 'Larger than MAX_UPLOAD_BYTES.', content: problem })
  @ApiResponse({ status: 415, description: 'Binary content no format reads.', content: problem })
  @ApiResponse({ status: 422, description: 'Unreadable game file: what is wrong and where.', content: problem })
  async upload(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query() query: UploadGameQuery,
    @CurrentCaller() caller: Caller,
  ): Promise<UploadedGameDto> {
    const file = await receiveUpload(request, response, this.config.MAX_UPLOAD_BYTES, query.filename);
    const { game, created } = await this.games.upload(file, query, ownerFor(caller));
    response.status(created ? 201 : 200).location(`/games/${game.id}`);
    return game;
  }

  @Get()
  @ApiOperation({ operationId: 'searchGames', summary: 'Search the archive, newest first' })
  @ApiOkResponse({ type: GamePageDto })
  @ApiResponse({ status: 400, description: 'Unknown parameter, bad value or bad cursor.', content: problem })
  @ApiResponse({ status: 409, description: 'A filter whose index is off here (`search.not_indexed`): `text=` without the texts index, rank and rating bounds without the ranks index (INDEXES).', content: problem })
  async search(@Query() query: SearchGamesQuery, @Res({ passthrough: true }) response: Response): Promise<GamePageDto> {
    const page = await this.games.search(query);
    if (page.next !== null) response.setHeader('Link', nextLink(page.next, query.limit));
    return page;
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
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy the client has: 304 when it matches.' })
  @ApiOkResponse({
    description:
      'Exactly the uploaded bytes, with the uploaded media type (or the format\'s, when the upload\'s said nothing), the game\'s `mediaType`; ' +
      'any other type an uploader sent is served as sent, except a type a browser would run or show as a page (HTML, XHTML, SVG, ' +
      'JavaScript and other scripts, multipart, or no valid media type): such bytes are served as `text/plain; charset=utf-8` ' +
      'when they are UTF-8, else as `application/octet-stream` (the game keeps the type it was uploaded with).',
    content: { ...gameFile, '*/*': { schema: binary } },
    headers: {
      ...DOWNLOAD_HEADERS,
      ...DOWNLOAD_HEADER_DOCS,
      ETag: header('The SHA-256 of the bytes, quoted.'),
      'Cache-Control': header('`public, max-age=31536000, immutable`: the bytes of a game never change.'),
    },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag.', headers: { ETag: header('The SHA-256 of the bytes, quoted.') } })
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
    markAsDownload(response);
    // Exactly the media type given at upload (express's type() would append a charset), unless a browser would run it.
    response.setHeader('Content-Type', servedMediaType(game.mediaType, game.raw));
    response.status(200).end(game.raw);
  }

  @Get(':id/regenerated')
  @GameIdParam()
  @ApiOperation({
    operationId: 'regenerateGame',
    summary: 'The record re-written in its own format with every cached result regenerated by replay',
  })
  @ApiOkResponse({ description: 'The regenerated file, in the media type of its format.', content: gameFile, headers: { ...DOWNLOAD_HEADERS, ...DOWNLOAD_HEADER_DOCS } })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiConflictResponse({ content: problem, description: 'The game is stored but not indexed.' })
  async regenerated(@Param('id', GameIdPipe) id: GameId, @Res() response: Response): Promise<void> {
    const file = await this.games.regenerated(id);
    sendFile(response, file);
  }

  @Get(':id/export')
  @GameIdParam()
  @ApiOperation({
    operationId: 'exportGame',
    summary: 'The game written in another format of its family',
    description:
      'Go: GoFans 1.1/1.2/2.1/2.2 and SGF; Dots: VK Dots and SGF GM[40]; checkers: BARS and PDN. Read by the plugin that ' +
      'indexed the game, written by the target format\'s plugin with every cached result regenerated by replay.',
  })
  @ApiOkResponse({ description: 'The converted file, in the media type of the target format.', content: gameFile, headers: { ...DOWNLOAD_HEADERS, ...DOWNLOAD_HEADER_DOCS } })
  @ApiResponse({ status: 400, description: 'No format given, or one the archive does not know.', content: problem })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiConflictResponse({ content: problem, description: 'The game is stored but not indexed.' })
  @ApiResponse({
    status: 422,
    description: '`export.does_not_fit`: the game does not fit the target format (what and why in `detail`); `export.unsupported`: another family, or no conversion between these formats.',
    content: problem,
  })
  async export(@Param('id', GameIdPipe) id: GameId, @Query() query: ExportGameQuery, @Res() response: Response): Promise<void> {
    const file = await this.games.exported(id, query.format);
    sendFile(response, file);
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

  @Get(':id/board.svg')
  @GameIdParam()
  @ApiOperation({
    operationId: 'drawBoard',
    summary: 'The board after a ply, as an SVG or PNG picture',
    description:
      'Go: grid, star points, coordinates, stones, the last move and the captures so far. Dots: the field, dots in the ' +
      "players' colours, closed surrounds, captured dots crossed, enclosed empty points shaded. Russian draughts: men, " +
      'kings, the last move and the pieces it took. Peg solitaire: slots, stones, targets, the last jump. Self-contained ' +
      'SVG whose `<title>` names the game and ply. `format=png` draws the same picture as PNG (same path), for places ' +
      'that show no SVG (chat and forum embeds); its text needs a font on the server, without one it has no coordinates. ' +
      '`area=left,top,width,height` frames a rectangle of points (the `where` of a pattern search\'s game).',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a picture the client has: 304 when it matches.' })
  @ApiOkResponse({
    description: 'The picture.',
    content: { 'image/svg+xml': { schema: { type: 'string' } }, 'image/png': { schema: binary } },
    headers: {
      ETag: header('A strong tag of the game, the ply and the options (the format included: the PNG has a tag of its own).'),
      'Cache-Control': header('`public, max-age=86400`.'),
      'X-Content-Type-Options': header('`nosniff`.'),
      'Content-Security-Policy': header("`default-src 'none'; style-src 'unsafe-inline'`: the picture runs no script and fetches nothing."),
    },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag.', headers: { ETag: header('A strong tag of the game, the ply and the options.') } })
  @ApiResponse({ status: 400, description: 'A bad id, a ply past the end of the game, or a bad size, coordinates, orientation or area.', content: problem })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiConflictResponse({ content: problem, description: 'The game is stored but not indexed.' })
  async boardPicture(
    @Param('id', GameIdPipe) id: GameId,
    @Query() query: BoardPictureQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const { etag, picture } = await this.games.boardPicture(id, query, ifNoneMatch);
    response.setHeader('ETag', etag);
    response.setHeader('Cache-Control', 'public, max-age=86400');
    markAsPicture(response);
    if (picture === null) response.status(304).end();
    else if (typeof picture === 'string') response.setHeader('Content-Type', 'image/svg+xml; charset=utf-8').status(200).end(picture);
    else response.setHeader('Content-Type', 'image/png').status(200).end(picture);
  }

  @Post(':id/reindex')
  @HttpCode(200)
  @Requires('games:reindex', 'game.reindex')
  @GameIdParam()
  @ApiOperation({
    operationId: 'reindexGame',
    summary: "Read a stored game's bytes again with today's plugins",
    description:
      'Replaces what was made of the file (Publisher, Version, Header, Body, status, players, verdict, replay) with a new ' +
      'reading of the same bytes: a file kept before its format was understood gets indexed, and engine fixes reach old ' +
      'games. The bytes never change. A file today\'s plugins refuse is left as it was (422 says why).',
  })
  @ApiOkResponse({ type: GameDto, description: 'The game as read now.' })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  @ApiResponse({ status: 422, description: "Today's plugins refuse the file; the game is left as it was.", content: problem })
  reindex(@Param('id', GameIdPipe) id: GameId, @Query() query: ReindexGameQuery, @CurrentCaller() caller: Caller): Promise<GameDto> {
    return this.games.reindex(id, caller, query.format, indexList(query.indexes));
  }

  @Delete(':id')
  @HttpCode(204)
  @Requires('games:delete', 'game.delete')
  @GameIdParam()
  @ApiOperation({ operationId: 'deleteGame', summary: 'Delete a game and its index entries' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ content: problem, description: 'No such game.' })
  delete(@Param('id', GameIdPipe) id: GameId, @CurrentCaller() caller: Caller): Promise<void> {
    return this.games.delete(id, caller);
  }
}

/**
 * A file the archive wrote (regenerated, converted), as a download in its format's media type: a
 * download of uploaded words, so with the same headers and the same guard on active types as the raw one.
 */
function sendFile(response: Response, file: RegeneratedFile): void {
  const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
  response.attachment(file.filename);
  markAsDownload(response);
  response.type(servedMediaType(file.mediaType, bytes)).status(200).end(bytes);
}

/** RFC 8288 link to the next page: the cursor alone carries the search. */
function nextLink(cursor: string, limit: number | undefined): string {
  return `</games?cursor=${cursor}${limit === undefined ? '' : `&limit=${limit}`}>; rel="next"`;
}


