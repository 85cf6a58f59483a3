import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AnalysisPool } from '../analysis/analysis-pool.js';
import { mayActOn, ownerScope } from '../accounts/access.js';
import type { Caller } from '../accounts/caller.js';
import { ProblemException } from '../common/problem-codes.js';
import { matchesEtag } from '../common/conditional-requests.js';
import { FormatError } from '../core/errors.js';
import { InjectReads } from '../database/read-replicas.js';
import type { Reads } from '../database/read-replicas.js';
import { FormatReader } from '../formats/format-reader.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { RegeneratedFile, UploadedFile } from '../formats/plugin.js';
import { encodeCursor, gameFilters, resolveSearch } from '../catalog/cursor.js';
import { fewTextGames } from '../indexes/texts/text-query.js';
import type { GameDto, GamePageDto, UploadedGameDto } from '../catalog/dto/game.dto.js';
import { IdentityService } from '../identity/identity.service.js';
import type { ReindexPageDto, ReindexQuery } from './dto/reindex.dto.js';
import type { GameId } from '../http/game-id.pipe.js';
import type { ReplayDto } from './dto/replay.dto.js';
import type { BoardPictureQuery } from './dto/board-picture.query.js';
import { DEFAULT_SIZE, RENDER_VERSION, renderBoard } from '../render/index.js';
import { drawsText } from '../render/png.js';
import type { SearchGamesQuery } from '../catalog/dto/search-games.query.js';
import type { UploadGameQuery } from './dto/upload-game.query.js';
import { toGameDto, toGameSummaryDto, viewOfNewGame } from '../catalog/game.mapper.js';
import type { RawGame } from '../catalog/game-view.js';
import { GamesSearchRepository } from './games-search.repository.js';
import { GamesViewRepository } from './games-view.repository.js';
import { GamesWriteRepository } from './games-write.repository.js';
import { PictureCache } from './picture-cache.js';
import { AppConfig } from '../common/config.js';
import { sha256Hex, uploadFilename } from '../http/upload-body.js';
import type { ReceivedFile } from '../http/upload-body.js';

const DEFAULT_PAGE_SIZE = 20;
const DEFAULT_REINDEX_BATCH = 100;

/** The archive's use cases; reading formats is the plugins' job, SQL the repositories'. */

/** The filters of GET /games kept by an index that INDEXES may leave out: without it they would find nothing, and say so (409). */
const FILTER_INDEXES = { text: 'texts', rankMin: 'ranks', rankMax: 'ranks', ratingMin: 'ranks', ratingMax: 'ranks' } as const;

@Injectable()
export class GamesService implements OnApplicationBootstrap {
  constructor(
    private readonly writes: GamesWriteRepository,
    private readonly views: GamesViewRepository,
    private readonly searches: GamesSearchRepository,
    // Reads on a replica when there is one (DATABASE_REPLICA_URLS): the routes that only read.
    @InjectReads(GamesViewRepository) private readonly viewReads: Reads<GamesViewRepository>,
    @InjectReads(GamesSearchRepository) private readonly searchReads: Reads<GamesSearchRepository>,
    @Inject(FormatReader) private readonly reader: FormatReader,
    @Inject(AnalysisPool) private readonly analysis: AnalysisPool,
    private readonly identities: IdentityService,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.pictures = new PictureCache(config.PICTURE_CACHE_MB * 1024 * 1024);
  }

  /** Pictures drawn lately, by ETag: the same picture asked for again, or by many at once, is drawn once. */
  private readonly pictures: PictureCache;

  /** Says once, at start, when the machine has no font to write the PNG pictures' text with (they are drawn either way). */
  onApplicationBootstrap(): void {
    drawsText()
      .then((draws) => {
        if (!draws) new Logger('Pictures').warn('no system font found: PNG board pictures are drawn without their coordinates and captions (install one, e.g. fonts-dejavu-core)');
      })
      .catch(() => undefined);
  }

  /**
   * Stores an upload: 201 for new bytes, 200 with the stored game for bytes seen before. An upload
   * racing a delete of the same bytes ends as if the delete came first (stored anew) or last.
   */
  async upload(file: ReceivedFile, query: UploadGameQuery, owner: string | null): Promise<{ game: UploadedGameDto; created: boolean }> {
    const { game, created } = await this.store(file, query, owner);
    const sameAs = (await this.identities.sameAs([game.id])).get(game.id) ?? [];
    return { game: { ...game, sameAs }, created };
  }

  private async store(file: ReceivedFile, query: UploadGameQuery, owner: string | null): Promise<{ game: GameDto; created: boolean }> {
    const filename = uploadFilename(query, file);
    const sha256 = sha256Hex(file.bytes);
    const known = await this.existing(sha256);
    if (known) return { game: known, created: false };

    const upload = { bytes: file.bytes, mediaType: file.mediaType, filename: filename ?? undefined };
    const record = await this.analysis.read(upload, query.format, { withReplay: false, lane: 'write' }).catch((error: unknown) => {
      if (error instanceof FormatError && error.code === 'upload.collection') {
        throw new ProblemException(422, 'upload.collection', `${error.message}: POST it to /uploads, which keeps the file whole and stores each of its games`);
      }
      throw error;
    });
    const mediaType = this.reader.mediaTypeFor(file.mediaType, record);
    for (;;) {
      const stored = await this.writes.insert({ file: upload, sha256, mediaType, filename, record, owner });
      if (stored.created) {
        const game = toGameDto(viewOfNewGame(stored.id, stored.uploadedAt, sha256, upload, mediaType, filename, record, owner));
        return { game, created: true };
      }
      // Stored by a racing upload: answer with that game, unless a delete took it meanwhile, then store again.
      const twin = await this.existing(sha256);
      if (twin) return { game: twin, created: false };
    }
  }

  private async existing(sha256: string): Promise<GameDto | undefined> {
    const id = await this.writes.findIdBySha256(sha256);
    const view = id === undefined ? undefined : await this.views.findById(String(id));
    return view ? toGameDto(view) : undefined;
  }

  /** A game as `GET /games/{id}` shows it, read on a replica (a game it does not have yet is looked for on the primary). */
  async get(id: GameId): Promise<GameDto> {
    const view = await this.viewReads.read((views) => views.findById(id), (found) => found === undefined);
    if (!view) throw notFound(id);
    return toGameDto(view);
  }

  /** A game's bytes, read on a replica (a game it does not have yet is looked for on the primary). */
  async raw(id: GameId): Promise<RawGame> {
    const raw = await this.viewReads.read((views) => views.findRaw(id), (found) => found === undefined);
    if (!raw) throw notFound(id);
    return raw;
  }

  async regenerated(id: GameId): Promise<RegeneratedFile> {
    const raw = await this.indexedRaw(id, 'there is nothing to regenerate');
    const regenerated = await this.analysis.regenerate(storedFile(raw), raw.publisher, raw.version);
    if (!regenerated) throw notIndexed(`game ${id} is stored but not indexed: there is nothing to regenerate`);
    return regenerated;
  }

  /** The game written in another format of its family, with its caches regenerated (422 when it does not fit). */
  async exported(id: GameId, format: string): Promise<RegeneratedFile> {
    const raw = await this.indexedRaw(id, 'no format plugin read it, so it cannot be converted');
    return this.analysis.convert(storedFile(raw), raw.publisher, raw.version, format);
  }

  /**
   * The replay, made on request from the stored bytes by the plugin that indexed them (the archive
   * keeps no copy: it is many times the file's size). A game today's plugin no longer reads is
   * answered like one never indexed, naming why; POST /games/{id}/reindex brings the index in line.
   */
  async replay(id: GameId): Promise<ReplayDto> {
    const raw = await this.indexedRaw(id, 'it has no replay');
    const record = await this.replayed(id, raw);
    const plies = record.analysis!.replay;
    return {
      gameId: Number(id),
      plies: plies.map((ply) => ({ ...ply, captured: [...ply.captured], score: [...ply.score] })),
      texts: (record.analysis!.texts ?? []).map(({ ply, text }) => ({ ply, text })),
    };
  }

  /**
   * The board after a ply as SVG, drawn from a replay made on request (as {@link replay} does). The
   * ETag names the bytes, the plugin that read them, the drawing code and the options, so it is known
   * before replaying: `picture` is null when `ifNoneMatch` already names it (304). A PNG is the same SVG drawn as pixels,
   * on an analysis thread.
   */
  async boardPicture(id: GameId, query: BoardPictureQuery, ifNoneMatch?: string): Promise<{ etag: string; picture: string | Buffer | null }> {
    const raw = await this.indexedRaw(id, 'there is no position to draw');
    const [left, top, width, height] = query.area?.split(',').map(Number) ?? [];
    const area = query.area === undefined ? null : { left, top, width, height };
    const options = { size: query.size ?? DEFAULT_SIZE, coordinates: query.coordinates ?? true, orientation: query.orientation ?? null, area };
    const format = query.format ?? 'svg';
    // The format is part of the tag: a cache holding the SVG must not take it for the PNG.
    const tag = [raw.sha256, raw.publisher, raw.version, RENDER_VERSION, query.ply ?? 'final', options.size, options.coordinates, options.orientation ?? 'usual', format, ...(area ? [`area ${left},${top},${width},${height}`] : [])].join('\n');
    const etag = `"board-${createHash('sha256').update(tag).digest('hex').slice(0, 32)}"`;
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) return { etag, picture: null };
    return { etag, picture: await this.pictures.get(etag, () => this.drawBoard(id, raw, query, options, format)) };
  }

  /** A board picture drawn anew (see {@link boardPicture}). */
  private async drawBoard(
    id: GameId,
    raw: RawGame & { publisher: string; version: string },
    query: BoardPictureQuery,
    options: Parameters<typeof renderBoard>[3],
    format: 'svg' | 'png',
  ): Promise<string | Buffer> {
    const record = await this.replayed(id, raw);
    const analysis = record.analysis!;
    const ply = query.ply ?? analysis.replay.length;
    if (ply > analysis.replay.length) {
      throw new ProblemException(400, 'request.invalid', `ply must be between 0 and ${analysis.replay.length}: game ${id} has ${analysis.replay.length} plies`);
    }
    const names = analysis.players.map((p) => p.name ?? p.color ?? `seat ${p.seat}`).join(' vs ');
    const title = `Game ${id}${names ? ` (${names})` : ''}, ${record.family}: position after ply ${ply} of ${analysis.replay.length}`;
    const svg = renderBoard(record.family!, analysis, ply, options, title);
    if (svg === null) throw notIndexed(`game ${id}: ${raw.publisher} ${raw.version} does not give the position after ply ${ply}: re-index it`);
    return format === 'png' ? this.analysis.png(svg) : svg;
  }

  /** A game's bytes, when a plugin indexed it; 409 saying `why` it matters otherwise. */
  private async indexedRaw(id: GameId, why: string): Promise<RawGame & { publisher: string; version: string }> {
    const raw = await this.raw(id);
    if (raw.status !== 'indexed' || raw.publisher === null || raw.version === null) throw notIndexed(`game ${id} is stored but not indexed: ${why}`);
    return { ...raw, publisher: raw.publisher, version: raw.version };
  }

  /** A stored, indexed game read again by the plugin that indexed it (409 when it no longer reads or replays). */
  private async replayed(id: GameId, raw: RawGame): Promise<ReadResult> {
    let record: ReadResult;
    try {
      record = await this.analysis.read(storedFile(raw), `${raw.publisher}/${raw.version}`);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      throw notIndexed(`game ${id} was indexed, but ${raw.publisher} ${raw.version} cannot replay its bytes today (${error.message}): re-index it`);
    }
    if (!record.analysis?.replay || record.family === null) {
      throw notIndexed(`game ${id} was indexed, but ${raw.publisher} ${raw.version} no longer replays it: re-index it`);
    }
    return record;
  }

  async search(query: SearchGamesQuery): Promise<GamePageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const { filters, after } = resolveSearch(query);
    const needed = Object.entries(FILTER_INDEXES).filter(([filter, index]) => filters[filter as keyof typeof FILTER_INDEXES] !== undefined && !this.writes.isOn(index));
    if (needed.length > 0) {
      const [filter, index] = needed[0];
      throw new ProblemException(409, 'search.not_indexed', `${filter} searches the ${index} index, which is off on this archive (INDEXES): it finds nothing here`);
    }
    const hits = await this.searchReads.read(async (searches) => {
      // A text query matched by few games: those games first, from the GIN index, then the page among them.
      const textGames = filters.text === undefined ? undefined : await fewTextGames(searches, filters.text);
      return searches.search({ ...gameFilters(filters), textGames, pastId: after?.id, pastDate: after?.day, pastUploadedAt: after?.uploadedAt }, limit + 1);
    });
    const page = hits.slice(0, limit);
    const last = page[page.length - 1];
    const ids = page.map((hit) => hit.game.id);
    const [standings, texts] = await Promise.all([
      this.identities.standings(ids),
      filters.text === undefined || ids.length === 0 ? undefined : this.searchReads.read((searches) => searches.hitsOf(ids, filters.text!)),
    ]);
    return {
      items: page.map((hit) => ({
        ...toGameSummaryDto(hit.game),
        ...(standings.get(hit.game.id) ?? { copyOf: null, copies: 0 }),
        ...(texts === undefined ? {} : { hits: texts.get(hit.game.id) ?? [] }),
      })),
      next: hits.length > limit ? encodeCursor(filters, { id: last.game.id, day: last.game.analysis?.facts.datePlayed ?? undefined, uploadedAt: last.uploadedKey }) : null,
    };
  }

  /**
   * Reads a stored game's bytes again with today's plugins and replaces what was made of them (a
   * file kept before its format was understood gets indexed; an engine fix reaches old games). The
   * bytes never change. A file today's plugins refuse is left as it was (the FormatError says why).
   * With `indexes`, only those indexes are rebuilt from the new reading.
   */
  async reindex(id: GameId, caller: Caller, format?: string, indexes?: readonly string[]): Promise<GameDto> {
    // On the primary throughout: the answer shows what was just written.
    const raw = await this.views.findRaw(id);
    if (!raw) throw notFound(id);
    mayActOn(caller, 'games:reindex', raw.owner, `game ${id}`);
    const record = await this.analysis.read(storedFile(raw), format, { withReplay: false });
    const mediaType = this.reader.mediaTypeFor(raw.mediaType, record);
    if (!(await this.writes.replaceReading(id, record, mediaType, indexes))) throw notFound(id);
    const view = await this.views.findById(id);
    if (!view) throw notFound(id);
    return toGameDto(view);
  }

  /** Re-indexes the next batch of games matching the filters, in ascending id order after `after`. */
  async reindexBatch(query: ReindexQuery, caller: Caller): Promise<ReindexPageDto> {
    const limit = query.limit ?? DEFAULT_REINDEX_BATCH;
    const { after, limit: _limit, indexes, ...asked } = query;
    // A club's token re-indexes the club's games only.
    const filters = { ...asked, owner: ownerScope(caller, 'games:reindex', asked.owner) };
    // Named indexes are checked before any game is read: an unknown one is refused even when no game matches.
    if (indexes !== undefined) this.writes.checkIndexes(indexList(indexes)!);
    const ids = await this.searches.idsAfter(gameFilters(filters), after ?? 0, limit + 1);
    const batch = ids.slice(0, limit);
    const page: ReindexPageDto = { reindexed: 0, indexed: 0, refused: [], next: ids.length > limit ? batch[batch.length - 1] : null };
    for (const id of batch) {
      try {
        const game = await this.reindex(String(id), caller, undefined, indexList(indexes));
        page.reindexed++;
        if (game.status === 'indexed') page.indexed++;
      } catch (error) {
        if (error instanceof FormatError) page.refused.push({ id, code: error.code, detail: error.message });
        else if (!(error instanceof ProblemException && error.code === 'game.not_found')) throw error;
      }
    }
    return page;
  }

  async delete(id: GameId, caller: Caller): Promise<void> {
    const owner = await this.writes.ownerOf(id);
    if (owner === undefined) throw notFound(id);
    mayActOn(caller, 'games:delete', owner, `game ${id}`);
    if (!(await this.writes.delete(id))) throw notFound(id);
  }
}

/** `?indexes=positions,patterns` as a list; undefined when absent (every index). */
export function indexList(indexes: string | undefined): string[] | undefined {
  return indexes === undefined ? undefined : [...new Set(indexes.split(','))];
}

/** A stored game's bytes as the plugins read them. */
export function storedFile(raw: RawGame): UploadedFile {
  return { bytes: raw.raw, mediaType: raw.mediaType, filename: raw.filename ?? undefined };
}

function notFound(id: GameId): ProblemException {
  return new ProblemException(404, 'game.not_found', `there is no game ${id}`);
}

function notIndexed(detail: string): ProblemException {
  return new ProblemException(409, 'game.not_indexed', detail);
}
