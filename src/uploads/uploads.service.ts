import { Inject, Injectable } from '@nestjs/common';
import { AnalysisPool } from '../analysis/analysis-pool.js';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { FormatError } from '../formats/errors.js';
import { FormatReader } from '../formats/format-reader.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { GameSlice } from '../formats/plugin.js';
import type { GameId } from '../games/game-id.pipe.js';
import type { UploadGameQuery } from '../games/dto/upload-game.query.js';
import { sha256Hex, uploadFilename } from '../games/upload-body.js';
import type { ReceivedFile } from '../games/upload-body.js';
import type { UploadDto } from './dto/upload.dto.js';
import { UploadsRepository } from './uploads.repository.js';
import type { NewUploadGame, UploadView, WithinUpload } from './uploads.repository.js';

/**
 * Files kept whole with the games they hold: an SGF collection or a PDN database becomes one game
 * per record, each with its byte range of the file as its bytes. Plugin work (finding the games,
 * reading each) runs on the analysis threads, as for single games.
 */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    @Inject(FormatReader) private readonly reader: FormatReader,
    @Inject(AnalysisPool) private readonly analysis: AnalysisPool,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * 201 for a new file, 200 with the kept one for bytes seen before (nothing changes then).
   * `within` runs in the transaction that stores a new file (not for a file kept before).
   */
  async upload(file: ReceivedFile, query: UploadGameQuery, within?: WithinUpload): Promise<{ upload: UploadDto; created: boolean }> {
    const filename = uploadFilename(query, file);
    const sha256 = sha256Hex(file.bytes);
    const known = await this.existing(sha256);
    if (known) return { upload: known, created: false };

    const whole = { bytes: file.bytes, mediaType: file.mediaType, filename: filename ?? undefined };
    const found = await this.analysis.split(whole, query.format);
    this.checkCount(found.slices.length);
    const games = await this.readAll(file, filename, found.slices, found.format);
    const format = formatOf(found.format, games);
    for (;;) {
      const id = await this.uploads.insert({ bytes: file.bytes, sha256, mediaType: file.mediaType, filename, ...format, games }, within);
      const kept = id === undefined ? await this.existing(sha256) : await this.get(String(id));
      if (kept) return { upload: kept, created: id !== undefined };
    }
  }

  async get(id: GameId): Promise<UploadDto> {
    const view = await this.uploads.findById(id);
    if (!view) throw new ProblemException(404, 'upload.not_found', `there is no upload ${id}`);
    return toUploadDto(view);
  }

  async raw(id: GameId): Promise<{ raw: Buffer; sha256: string; mediaType: string; filename: string | null }> {
    const raw = await this.uploads.findRaw(id);
    if (!raw) throw new ProblemException(404, 'upload.not_found', `there is no upload ${id}`);
    return raw;
  }

  /** How many games a file may hold (MAX_GAMES_PER_FILE), checked before any is read. */
  checkCount(games: number): void {
    if (games > this.config.MAX_GAMES_PER_FILE) {
      throw new ProblemException(422, 'upload.too_many_games', `the file holds ${games} games, more than MAX_GAMES_PER_FILE (${this.config.MAX_GAMES_PER_FILE})`);
    }
  }

  private async existing(sha256: string): Promise<UploadDto | undefined> {
    const id = await this.uploads.findIdBySha256(sha256);
    return id === undefined ? undefined : this.uploads.findById(String(id)).then((view) => (view ? toUploadDto(view) : undefined));
  }

  /**
   * Reads every game, as many at once as there are analysis threads. A game the archive already
   * has is not read again. In a file of one game a reading error refuses the upload (as POST /games
   * does); in a collection the game is kept without an index, its reason naming the error and where.
   */
  private async readAll(file: ReceivedFile, filename: string | null, slices: readonly GameSlice[], format: string | undefined): Promise<NewUploadGame[]> {
    const games: NewUploadGame[] = new Array(slices.length);
    const hashes = slices.map(({ start, end }) => sha256Hex(file.bytes.subarray(start, end)));
    const known = await this.uploads.idsBySha256(hashes);
    let next = 0;
    const work = async () => {
      while (next < slices.length) {
        const index = next++;
        const { start, end } = slices[index];
        const bytes = file.bytes.subarray(start, end);
        const sha256 = hashes[index];
        const duplicateOf = known.get(sha256);
        if (duplicateOf !== undefined) {
          games[index] = { start, end, duplicateOf };
          continue;
        }
        const single = { bytes, mediaType: file.mediaType, filename: filename ?? undefined };
        let record: ReadResult;
        try {
          record = await this.analysis.read(single, format, { withReplay: false });
        } catch (error) {
          if (!(error instanceof FormatError) || slices.length === 1) throw error;
          record = unreadable(`game ${index + 1} of the file (bytes ${start}–${end}) could not be read: ${error.message}`);
        }
        const mediaType = this.reader.mediaTypeFor(file.mediaType, record);
        games[index] = { start, end, game: { file: single, sha256, mediaType, filename, record } };
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.config.ANALYSIS_THREADS, slices.length) }, work));
    return games;
  }
}

/** A game of a collection that its plugin could not read: kept, not indexed, with the reason. */
function unreadable(reason: string): ReadResult {
  return { publisher: null, version: null, header: null, body: null, family: null, notIndexedReason: reason, charset: 'utf-8', spans: { header: null, body: null } };
}

/** The format that found the games: the one named for the slices, else the single game's own. */
function formatOf(found: string | undefined, games: readonly NewUploadGame[]): { publisher: string | null; version: string | null } {
  if (found !== undefined) {
    const slash = found.lastIndexOf('/');
    return { publisher: found.slice(0, slash), version: found.slice(slash + 1) };
  }
  const first = games.length === 1 && 'game' in games[0] ? games[0].game.record : undefined;
  return { publisher: first?.publisher ?? null, version: first?.version ?? null };
}

function toUploadDto(view: UploadView): UploadDto {
  return {
    id: view.id,
    sha256: view.sha256,
    size: view.size,
    mediaType: view.mediaType,
    filename: view.filename,
    publisher: view.publisher,
    version: view.version,
    uploadedAt: view.uploadedAt.toISOString(),
    games: view.games.map((game) => ({ ...game })),
  };
}
