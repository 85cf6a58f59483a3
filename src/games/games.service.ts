import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../common/config.js';
import { FormatReader } from '../formats/format-reader.js';
import type { RegeneratedFile } from '../formats/plugin.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { GameDto, GamePageDto } from './dto/game.dto.js';
import type { ReplayDto } from './dto/replay.dto.js';
import type { SearchGamesQuery } from './dto/search-games.query.js';
import type { UploadGameQuery } from './dto/upload-game.query.js';
import { toGameDto, toGameSummaryDto, viewOfNewGame } from './game.mapper.js';
import type { RawGame } from './game-view.js';
import { GamesRepository } from './games.repository.js';
import type { ReceivedFile } from './upload-body.js';

const DEFAULT_PAGE_SIZE = 20;

/** The archive's use cases; reading formats is the plugins' job, SQL the repository's. */
@Injectable()
export class GamesService {
  constructor(
    private readonly games: GamesRepository,
    @Inject(FormatReader) private readonly reader: FormatReader,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async upload(file: ReceivedFile, query: UploadGameQuery): Promise<{ game: GameDto; created: boolean }> {
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    const known = await this.games.findIdBySha256(sha256);
    if (known !== undefined) return { game: await this.get(known), created: false };

    const filename = query.filename ?? file.filename ?? null;
    const upload = { bytes: file.bytes, mediaType: file.mediaType, filename: filename ?? undefined };
    const record = await this.reader.read(upload, { format: query.format, timeBudgetMs: this.config.ANALYSIS_BUDGET_MS });
    const mediaType = this.reader.mediaTypeFor(file.mediaType, record);
    const stored = await this.games.insert({ file: upload, sha256, mediaType, filename, record });
    if (!stored.created) return { game: await this.get(stored.id), created: false };
    const game = toGameDto(viewOfNewGame(stored.id, stored.uploadedAt, sha256, upload, mediaType, filename, record));
    return { game, created: true };
  }

  async get(id: number): Promise<GameDto> {
    const view = await this.games.findById(id);
    if (!view) throw notFound(id);
    return toGameDto(view);
  }

  async raw(id: number): Promise<RawGame> {
    const raw = await this.games.findRaw(id);
    if (!raw) throw notFound(id);
    return raw;
  }

  async regenerated(id: number): Promise<RegeneratedFile> {
    const raw = await this.raw(id);
    const regenerated =
      raw.status === 'indexed' && raw.publisher !== null && raw.version !== null
        ? await this.reader.regenerate(
            { bytes: raw.raw, mediaType: raw.mediaType, filename: raw.filename ?? undefined },
            raw.publisher,
            raw.version,
            this.config.ANALYSIS_BUDGET_MS,
          )
        : undefined;
    if (!regenerated) throw new ConflictException(`game ${id} is stored but not indexed: there is nothing to regenerate`);
    return regenerated;
  }

  async replay(id: number): Promise<ReplayDto> {
    const plies = await this.games.findReplay(id);
    if (plies === undefined) throw notFound(id);
    if (plies === null) throw new ConflictException(`game ${id} is stored but not indexed: it has no replay`);
    return { gameId: id, plies: plies.map((ply) => ({ ...ply, captured: [...ply.captured], score: [...ply.score] })) };
  }

  async search(query: SearchGamesQuery): Promise<GamePageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.games.search(
      {
        player: query.player,
        publisher: query.publisher,
        version: query.version,
        family: query.family,
        consistent: query.consistent,
        uploadedFrom: query.uploadedFrom === undefined ? undefined : new Date(query.uploadedFrom),
        uploadedTo: query.uploadedTo === undefined ? undefined : new Date(query.uploadedTo),
        beforeId: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      },
      limit + 1,
    );
    const page = rows.slice(0, limit);
    return {
      items: page.map(toGameSummaryDto),
      next: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null,
    };
  }

  async delete(id: number): Promise<void> {
    if (!(await this.games.delete(id))) throw notFound(id);
  }
}

function notFound(id: number): NotFoundException {
  return new NotFoundException(`there is no game ${id}`);
}
