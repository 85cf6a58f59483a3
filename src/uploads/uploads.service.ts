import { IdentityService } from '../identity/identity.service.js';
import { Inject, Injectable } from '@nestjs/common';
import { AnalysisPool } from '../analysis/analysis-pool.js';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { FormatError } from '../core/errors.js';
import type { Query } from '../database/sql.js';
import { FormatReader } from '../formats/format-reader.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { GameId } from '../http/game-id.pipe.js';
import { GamesWriteRepository } from '../games/games-write.repository.js';
import type { UploadGameQuery } from '../games/dto/upload-game.query.js';
import { sha256Hex, uploadFilename } from '../http/upload-body.js';
import type { ReceivedFile } from '../http/upload-body.js';
import type { UploadDto } from './dto/upload.dto.js';
import { UploadsRepository } from './uploads.repository.js';
import type { NewUploadGame, UploadView, WithinUpload, WithinUploads } from './uploads.repository.js';

/** Storing a file is a write: its analyses go first (src/analysis/analysis-pool.ts). */
const WRITE = { lane: 'write' } as const;

/**
 * Games of a collection read in one analysis task (about a second of Go games): one message each way
 * for the lot, so the thread seldom waits for this thread, busy writing the file before, to hand it
 * the next batch. A batch past the limits is read again game by game.
 */
const READ_BATCH = 2500;

/**
 * Files kept whole with the games they hold: an SGF collection or a PDN database becomes one game
 * per record, each with its byte range of the file as its bytes. Plugin work (finding the games,
 * reading each) runs on the analysis threads, as for single games.
 */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly games: GamesWriteRepository,
    @Inject(FormatReader) private readonly reader: FormatReader,
    @Inject(AnalysisPool) private readonly analysis: AnalysisPool,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly identities: IdentityService,
  ) {}

  /**
   * 201 for a new file, 200 with the kept one for bytes seen before (nothing changes then).
   * `within` runs in the transaction that stores a new file (not for a file kept before).
   */
  async upload(file: ReceivedFile, query: UploadGameQuery, owner: string | null, within?: WithinUpload): Promise<{ upload: UploadDto; created: boolean }> {
    const checked = await this.check(file, query, owner);
    if ('kept' in checked) return { upload: checked.kept, created: false };
    return this.store(checked, await this.read(checked), within);
  }

  /**
   * The first step of storing a file, the only one before the write that asks the database: the kept
   * file when the archive has these bytes. Bulk imports check a file, then read its games while the
   * file before is being written.
   */
  async check(file: ReceivedFile, query: UploadGameQuery, owner: string | null): Promise<{ kept: UploadDto } | CheckedUpload> {
    const filename = uploadFilename(query, file);
    const sha256 = sha256Hex(file.bytes);
    const known = await this.existing(sha256);
    return known ? { kept: known } : { file, filename, sha256, format: query.format, owner };
  }

  /**
   * Writes the file and its games in one transaction (see {@link check} and {@link read}); a file
   * stored meanwhile by another upload is answered as kept.
   */
  async store(checked: CheckedUpload, { format: found, games }: ReadUpload, within?: WithinUpload): Promise<{ upload: UploadDto; created: boolean }> {
    const { file, filename, sha256 } = checked;
    const format = formatOf(found, games);
    for (;;) {
      const id = await this.uploads.insert({ bytes: file.bytes, sha256, mediaType: file.mediaType, filename, ...format, owner: checked.owner, games }, within);
  const kept = id === undefined ? await this.existing(sha256) : await this.get(String(id));
      if (kept) return { upload: kept, created: id !== undefined };
    }
  }

  /**
   * Writes several checked and read files in one transaction (a folder of single-game files, a group
   * at a time), answering only which were kept: the id of each file kept, undefined for one kept
   * meanwhile or earlier in the list (its caller reads it as kept). `within` runs in the transaction.
   */
  async storeMany(files: readonly { readonly checked: CheckedUpload; readonly read: ReadUpload }[], within?: WithinUploads): Promise<(number | undefined)[]> {
    return this.uploads.insertMany(
      files.map(({ checked: { file, filename, sha256, owner }, read: { format: found, games } }) => ({ bytes: file.bytes, sha256, mediaType: file.mediaType, filename, ...formatOf(found, games), owner, games })),
      within,
    );
  }

  /** The kept files holding these bytes, by SHA-256: id, games' ids and count; on `query` (the transaction of {@link storeMany}'s `within`). */
  keptFiles(sha256s: readonly string[], query: Query): Promise<Map<string, { id: number; gameIds: number[]; games: number }>> {
    return this.uploads.findKept(sha256s, query);
  }

  async get(id: GameId): Promise<UploadDto> {
    const view = await this.uploads.findById(id);
    if (!view) throw new ProblemException(404, 'upload.not_found', `there is no upload ${id}`);
    return this.withSameAs(toUploadDto(view));
  }

  /** The upload's games with the other games holding the same game. */
  private async withSameAs(upload: UploadDto): Promise<UploadDto> {
    const ids = upload.games.flatMap((game) => (game.gameId === null ? [] : [game.gameId]));
    const same = await this.identities.sameAs(ids);
    return { ...upload, games: upload.games.map((game) => ({ ...game, sameAs: game.gameId === null ? [] : (same.get(game.gameId) ?? []) })) };
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
    return id === undefined ? undefined : this.uploads.findById(String(id)).then((view) => (view ? this.withSameAs(toUploadDto(view)) : undefined));
  }

  /**
   * Finds the games of a checked file and reads them, READ_BATCH games to an analysis task, as many
   * tasks at once as there are analysis threads; no database work, so it can run while another file
   * is written. A game the archive has is read too, and found a duplicate when written. In a file of
   * one game a reading error refuses the upload (as POST /games does), unless the archive has that
   * game; in a collection the game is kept without an index, its reason naming the error and where.
   */
  async read(checked: CheckedUpload): Promise<ReadUpload> {
    const { file, filename } = checked;
    const whole = { bytes: file.bytes, mediaType: file.mediaType, filename: filename ?? undefined };
    const found = await this.analysis.split(whole, checked.format, WRITE);
    const { slices, format } = found;
    this.checkCount(slices.length);
    const hashes = slices.map(({ start, end }) => sha256Hex(file.bytes.subarray(start, end)));
    const games: NewUploadGame[] = new Array(slices.length);
    const gameFile = (index: number) => ({ bytes: file.bytes.subarray(slices[index].start, slices[index].end), mediaType: file.mediaType, filename: filename ?? undefined });
    const keep = (index: number, record: ReadResult) => {
      const { start, end } = slices[index];
      games[index] = { start, end, game: { file: gameFile(index), sha256: hashes[index], mediaType: this.reader.mediaTypeFor(file.mediaType, record), filename, record } };
    };
    if (slices.length === 1) {
      try {
        keep(0, await this.analysis.read(gameFile(0), format, { ...WRITE, withReplay: false }));
      } catch (error) {
        const twin = error instanceof FormatError ? (await this.games.idsBySha256(hashes)).get(hashes[0]) : undefined;
        if (twin === undefined) throw error;
        games[0] = { ...slices[0], duplicateOf: twin };
      }
      return { format, games };
    }
    let next = 0;
    const work = async () => {
      while (next < slices.length) {
        const first = next;
        const batch = Array.from({ length: Math.min(READ_BATCH, slices.length - first) }, (_, at) => first + at);
        next += batch.length;
        const readings = await this.analysis.readMany(batch.map(gameFile), format, WRITE);
        readings.forEach((reading, at) => {
          const index = batch[at];
          const { start, end } = slices[index];
          keep(index, reading instanceof FormatError ? unreadable(`game ${index + 1} of the file (bytes ${start}–${end}) could not be read: ${reading.message}`) : reading);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.config.ANALYSIS_THREADS, Math.ceil(slices.length / READ_BATCH)) }, work));
    return { format, games };
  }
}

/** A file checked before its games are read (see {@link UploadsService.check}). */
export interface CheckedUpload {
  readonly file: ReceivedFile;
  readonly filename: string | null;
  readonly sha256: string;
  /** The format named by the uploader, if any. */
  readonly format: string | undefined;
  /** The account publishing the file (src/accounts); null for none. */
  readonly owner: string | null;
}

/** A checked file's games, read (see {@link UploadsService.read}). */
export interface ReadUpload {
  /** The format that found the games, if one was named for them. */
  readonly format: string | undefined;
  readonly games: NewUploadGame[];
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
    owner: view.owner,
    uploadedAt: view.uploadedAt.toISOString(),
    games: view.games.map((game) => ({ ...game, sameAs: [] })),
  };
}
