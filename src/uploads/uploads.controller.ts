import { Controller, Get, Headers, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Requires } from '../accounts/requires.decorator.js';
import { CurrentCaller } from '../accounts/current-caller.decorator.js';
import type { Caller } from '../accounts/caller.js';
import { ownerFor } from '../accounts/access.js';
import { matchesEtag } from '../common/conditional-requests.js';
import { AppConfig } from '../common/config.js';
import { DOWNLOAD_HEADER_DOCS, markAsDownload, servedMediaType } from '../common/download-headers.js';
import { ProblemDetailsDto } from '../common/problem-details.dto.js';
import { UploadGameQuery } from '../games/dto/upload-game.query.js';
import { GameIdPipe } from '../http/game-id.pipe.js';
import type { GameId } from '../http/game-id.pipe.js';
import { receiveUpload } from '../http/upload-body.js';
import { UploadDto } from './dto/upload.dto.js';
import { UploadsService } from './uploads.service.js';

const binary = { type: 'string', format: 'binary' } as const;
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const header = (description: string) => ({ description, required: true, schema: { type: 'string' } });
const LOCATION = { Location: header('The path of the upload, `/uploads/{id}`.') };
const UploadIdParam = () => ApiParam({ name: 'id', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The upload id.' });

@ApiTags('uploads')
@ApiExtraModels(ProblemDetailsDto)
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly uploads: UploadsService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  @Post()
  @Requires('games:write', 'collection.upload')
  @ApiOperation({
    operationId: 'uploadFile',
    summary: 'Upload a file of one or many games',
    description:
      'Like POST /games, for files that may hold several games (an SGF collection, a PDN database): the file is kept ' +
      'whole and each game becomes a game of its own, whose bytes are its range of the file. A game the archive already ' +
      'has is listed as a duplicate of it. In a collection, a game its format cannot read is kept without an index; ' +
      'in a file of one game, it refuses the upload. The same file uploaded again answers 200 and changes nothing.',
    requestBody: {
      required: true,
      content: {
        'application/octet-stream': { schema: binary },
        'text/plain': { schema: binary },
        'multipart/form-data': { schema: { type: 'object', required: ['file'], additionalProperties: false, properties: { file: binary } } },
      },
    },
  })
  @ApiResponse({ status: 201, type: UploadDto, description: 'Kept, with its games; `Location` names the upload.', headers: LOCATION })
  @ApiResponse({ status: 200, type: UploadDto, description: 'This file was uploaded before: the kept upload.', headers: LOCATION })
  @ApiResponse({ status: 400, description: 'Bad query or multipart form.', content: problem })
  @ApiResponse({ status: 413, description: 'Larger than MAX_UPLOAD_BYTES.', content: problem })
  @ApiResponse({ status: 415, description: 'Binary content no format reads.', content: problem })
  @ApiResponse({ status: 422, description: 'No game could be found, more games than MAX_GAMES_PER_FILE, or the one game is unreadable.', content: problem })
  async upload(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Query() query: UploadGameQuery, @CurrentCaller() caller: Caller): Promise<UploadDto> {
    const file = await receiveUpload(request, response, this.config.MAX_UPLOAD_BYTES, query.filename);
    const { upload, created } = await this.uploads.upload(file, query, ownerFor(caller));
    response.status(created ? 201 : 200).location(`/uploads/${upload.id}`);
    return upload;
  }

  @Get(':id')
  @UploadIdParam()
  @ApiOperation({ operationId: 'getUpload', summary: 'An uploaded file and the games it holds, in file order' })
  @ApiOkResponse({ type: UploadDto })
  @ApiResponse({ status: 400, description: 'The id is not decimal digits naming 1 to 2^63-1.', content: problem })
  @ApiNotFoundResponse({ content: problem, description: 'No such upload.' })
  get(@Param('id', GameIdPipe) id: GameId): Promise<UploadDto> {
    return this.uploads.get(id);
  }

  @Get(':id/raw')
  @UploadIdParam()
  @ApiOperation({ operationId: 'downloadUpload', summary: 'The whole uploaded file, unchanged' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy the client has: 304 when it matches.' })
  @ApiOkResponse({
    description:
      'Exactly the uploaded bytes, with the uploaded media type (the upload\'s `mediaType`), except a type a browser would run or ' +
      'show as a page (HTML, XHTML, SVG, JavaScript and other scripts, multipart, or no valid media type): such bytes are served as ' +
      '`text/plain; charset=utf-8` when they are UTF-8, else as `application/octet-stream`.',
    content: { '*/*': { schema: binary } },
    headers: { 'Content-Disposition': header('`attachment` with the file name.'), ETag: header('The SHA-256 of the bytes, quoted.'), ...DOWNLOAD_HEADER_DOCS },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag.', headers: { ETag: header('The SHA-256 of the bytes, quoted.') } })
  @ApiResponse({ status: 400, description: 'The id is not decimal digits naming 1 to 2^63-1.', content: problem })
  @ApiNotFoundResponse({ content: problem, description: 'No such upload.' })
  async raw(@Param('id', GameIdPipe) id: GameId, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res() response: Response): Promise<void> {
    const upload = await this.uploads.raw(id);
    const etag = `"${upload.sha256}"`;
    response.setHeader('ETag', etag);
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
      response.status(304).end();
      return;
    }
    response.attachment(upload.filename ?? `upload-${id}`);
    markAsDownload(response);
    response.setHeader('Content-Type', servedMediaType(upload.mediaType, upload.raw));
    response.status(200).end(upload.raw);
  }
}
