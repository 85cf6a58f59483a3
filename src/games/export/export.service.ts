import { Inject, Injectable } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { AnalysisPool } from '../../analysis/analysis-pool.js';
import { AppConfig } from '../../common/config.js';
import { markAsDownload } from '../../common/download-headers.js';
import { ProblemException } from '../../common/problem-codes.js';
import { FormatError } from '../../core/errors.js';
import { InjectReads } from '../../database/read-replicas.js';
import type { Reads } from '../../database/read-replicas.js';
import { FormatReader } from '../../formats/format-reader.js';
import type { FormatDescriptor } from '../../formats/plugin.js';
import { peekRootProperty } from '../../formats/syntaxes/sgf/index.js';
import { encodeCursor, gameFilters, resolveSearch } from '../../catalog/cursor.js';
import type { SearchFilters, SearchPosition } from '../../catalog/cursor.js';
import type { ExportGamesQuery } from '../dto/export-games.query.js';
import { ExportSelectionDto } from '../dto/export-selection.dto.js';
import { gameJsonPieces } from '../../catalog/game.mapper.js';
import { sortsByDay, walksUploadTime } from '../../catalog/game-view.js';
import type { GameViewWithJsonText } from '../../catalog/game-view.js';
import { GamesExportRepository } from '../games-export.repository.js';
import type { ExportedFile, ExportKey } from '../games-export.repository.js';
import { GamesViewRepository } from '../games-view.repository.js';
import { storedFile } from '../games.service.js';
import { entryName, manifestEntry } from './entry-names.js';
import { collectionFormat, negotiate } from './export-kinds.js';
import type { ExportKind } from './export-kinds.js';
import { gathered, sendGenerated } from '../../http/generated-text.js';
import { inOrder, ManifestSpool, sendArchive, tarWriter, zipWriter } from './export-streams.js';
import type { ExportItem } from './export-streams.js';
import { readJsonBody } from '../../http/json-body.js';

/**
 * Games listed per query while walking a search: each query costs a round trip and a plan whatever
 * its size, so batches of 2,000 export about a tenth faster than batches of 500, for a few MB held.
 */
const BATCH = 2000;
/** Bytes of game files read per query at most (a single larger game is read alone). */
const GROUP_BYTES = 4 * 1024 * 1024;
/** The largest `POST /games/export` body: 10,000 ids written out fit many times over. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Times a conversion is tried again while every analysis thread is busy. */
const BUSY_RETRIES = 5;
/** Left-out games a collection's closing note names one by one; past these it counts them. */
const MAX_NOTES = 1000;

/** An id an export is to write, with its size; no size: no such game. */
interface Slot {
  readonly id: number;
  readonly size?: number;
}

/** What a collection gets for one game: its bytes, or why it is left out. */
type Piece = { readonly bytes: Buffer } | { readonly id: number; readonly note: string } | { readonly failure: unknown };

/**
 * Bulk exports: every game of a search (`GET /games/export`) or of a list of ids (`POST`), streamed
 * as NDJSON, a zip or tar of the stored files with a manifest, or one family's collection file
 * (SGF, PDN). Games are listed in batches (keyset pagination) and read in groups bounded in bytes,
 * each only once the client has taken the previous ones: memory stays flat whatever the count.
 */
@Injectable()
export class ExportService {
  constructor(
    // On a replica when there is one (DATABASE_REPLICA_URLS); games it does not have yet are looked for on the primary.
    @InjectReads(GamesExportRepository) private readonly games: Reads<GamesExportRepository>,
    @InjectReads(GamesViewRepository) private readonly views: Reads<GamesViewRepository>,
    @Inject(FormatReader) private readonly reader: FormatReader,
    @Inject(AnalysisPool) private readonly analysis: AnalysisPool,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async search(query: ExportGamesQuery, request: Request, response: Response): Promise<void> {
    const kind = negotiate(request);
    const { filters, after } = resolveSearch(query);
    const collection = kind.form === 'collection' ? collectionFormat(this.reader, kind, filters.family) : undefined;
    const end = query.limit === undefined ? undefined : await this.endOf(filters, after, query.limit);
    if (end?.next !== undefined) response.setHeader('Link', `</games/export?cursor=${end.next}&limit=${query.limit}>; rel="next"`);
    await this.send(kind, collection, this.found(filters, after, end?.last), { next: end?.next, vanished: false }, response);
  }

  async selection(request: Request, response: Response): Promise<void> {
    const kind = negotiate(request);
    const body = await readJsonBody(request, ExportSelectionDto, MAX_BODY_BYTES);
    if (kind.form !== 'collection' && body.family !== undefined) {
      throw new ProblemException(400, 'request.invalid', `family applies to collections (application/x-go-sgf, application/x-pdn) only, not to ${kind.mediaType}`);
    }
    const collection = kind.form === 'collection' ? collectionFormat(this.reader, kind, body.family) : undefined;
    await this.send(kind, collection, this.selected(body.ids), { vanished: true }, response);
  }

  /**
   * Where an export of `limit` games ends, fixed before it starts: the last game's keys, and the
   * cursor to go on with, when more games match. Games uploaded meanwhile within the range are
   * written too; the next export starts exactly past the last game.
   */
  private async endOf(filters: SearchFilters, after: SearchPosition | undefined, limit: number): Promise<{ last: ExportKey; next: string } | undefined> {
    const keys = await this.games.read((games) => games.exportKeys(positioned(filters, after), 2, limit - 1));
    return keys.length < 2 ? undefined : { last: keys[0], next: encodeCursor(filters, positionOf(keys[0])) };
  }

  /** The matching games in the search's order, a batch at a time, up to and with `last`. */
  private async *found(filters: SearchFilters, after: SearchPosition | undefined, last: ExportKey | undefined): AsyncGenerator<Slot[]> {
    let past = after;
    for (;;) {
      const keys = await this.games.read((games) => games.exportKeys(positioned(filters, past), BATCH));
      const within = last === undefined ? keys : keys.filter((key) => !beyond(key, last, filters));
      if (within.length > 0) yield within;
      if (keys.length < BATCH || within.length < keys.length) return;
      past = positionOf(keys[keys.length - 1]);
    }
  }

  /** The games asked for, in the order asked (repeats once), with the ids naming none. */
  private async *selected(ids: readonly number[]): AsyncGenerator<Slot[]> {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += BATCH) {
      const chunk = unique.slice(start, start + BATCH);
      const sizes = await this.games.read((games) => games.sizesOf(chunk), (found) => found.size < chunk.length);
      yield chunk.map((id) => ({ id, size: sizes.get(id) }));
    }
  }

  /**
   * Reads the games of the slots in groups of at most GROUP_BYTES of files, one group ahead, and
   * yields each group's items in order. A game deleted since it was listed is left out of a
   * search's export, and named missing in a selection's (`vanished`).
   */
  private async *load<T extends { id: number }>(slots: AsyncIterable<Slot[]>, read: (ids: number[]) => Promise<T[]>, vanished: boolean): AsyncGenerator<ExportItem<T>[]> {
    // One group is read ahead while the one before is written: a database server works on it
    // meanwhile. No more than one group is held beyond what the client has not taken yet.
    const start = (group: Slot[]) => {
      const present = group.filter((slot) => slot.size !== undefined).map((slot) => slot.id);
      const games = present.length > 0 ? read(present) : Promise.resolve([]);
      // Observed at once: should the export end before this group is written, its failure is nobody's.
      games.catch(() => undefined);
      return { group, games };
    };
    const itemsOf = async ({ group, games }: { group: Slot[]; games: Promise<T[]> }): Promise<ExportItem<T>[]> => {
      const byId = new Map((await games).map((game) => [game.id, game]));
      const items: ExportItem<T>[] = [];
      for (const slot of group) {
        const game = byId.get(slot.id);
        if (game) items.push({ game });
        else if (slot.size === undefined || vanished) items.push({ missing: slot.id });
      }
      return items;
    };
    let ahead: { group: Slot[]; games: Promise<T[]> } | undefined;
    for await (const batch of slots) {
      for (const group of bySize(batch)) {
        const next = start(group);
        if (ahead) yield await itemsOf(ahead);
        ahead = next;
      }
    }
    if (ahead) yield await itemsOf(ahead);
  }

  private async send(
    kind: ExportKind,
    collection: FormatDescriptor | undefined,
    slots: AsyncIterable<Slot[]>,
    options: { next?: string; vanished: boolean },
    response: Response,
  ): Promise<void> {
    response.attachment(kind.filename);
    response.setHeader('Content-Type', kind.mediaType);
    // Stored bytes inside (in a zip, a tar or a collection): a download, never a page.
    markAsDownload(response);
    response.status(200);
    const files = () => this.load(slots, (ids) => this.games.read((games) => games.filesOf(ids), (found) => found.length < ids.length), options.vanished);
    try {
      if (kind.form === 'ndjson') {
        await sendGenerated(gathered(this.lines(this.load(slots, (ids) => this.views.read((views) => views.viewsWithJsonTextOf(ids), (found) => found.length < ids.length), options.vanished), options.next)), response);
      } else if (kind.form === 'collection') {
        await sendGenerated(this.collection(each(files()), collection!), response);
      } else {
        await this.archive(kind, each(files()), options.next, response);
      }
    } catch (error) {
      // A client that went away ends the export; nothing to answer or log. Which error says so
      // depends on which stream noticed first, so a response already gone counts as the client's going.
      const code = (error as { code?: string; name?: string })?.code;
      const gone = response.destroyed || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ERR_STREAM_DESTROYED' || (error as Error)?.name === 'AbortError';
      if (gone) return;
      throw error;
    }
  }

  /** NDJSON: each game as `GET /games/{id}` answers it, a line each; `{"id", "missing": true}` for an id naming none; `{"next"}` last when `limit` cut the export short. */
  private async *lines(groups: AsyncIterable<ExportItem<GameViewWithJsonText>[]>, next: string | undefined): AsyncGenerator<Iterable<string>> {
    // Each line is written as it is gathered: a group's lines made all at once would double the
    // strings alive, and the garbage collector's work with them.
    for await (const items of groups) yield lineByLine(items);
    if (next !== undefined) yield [`${JSON.stringify({ next })}\n`];
  }

  /** A zip or tar of the stored files, then `manifest.ndjson`: a line per entry (or missing id), and `{"next"}` when `limit` cut the export short. */
  private async archive(kind: ExportKind, items: AsyncIterable<ExportItem<ExportedFile>>, next: string | undefined, response: Response): Promise<void> {
    const archive = kind.mediaType === 'application/zip' ? zipWriter() : tarWriter();
    const manifest = await ManifestSpool.open();
    try {
      await sendArchive(archive, response, async (signal) => {
        for await (const item of items) {
          if ('missing' in item) {
            await manifest.line({ id: item.missing, missing: true }, signal);
            continue;
          }
          const file = item.game;
          const name = entryName(file, file.publisher === null || file.version === null ? undefined : this.reader.find(file.publisher, file.version)?.format);
          await archive.add(name, file.raw, file.uploadedAt, signal);
          await manifest.line(manifestEntry(file, name), signal);
        }
        if (next !== undefined) await manifest.line({ next }, signal);
        await archive.add('manifest.ndjson', await manifest.content(), new Date(), signal);
      });
    } finally {
      await manifest.remove();
    }
  }

  /**
   * One family's collection file: the games one after the other, as many conversions at once as
   * there are analysis threads; a closing note (outside every game) names the games left out.
   */
  private async *collection(items: AsyncIterable<ExportItem<ExportedFile>>, format: FormatDescriptor): AsyncGenerator<Buffer | string> {
    const pdn = format.extensions.includes('.pdn');
    const notes: string[] = [];
    let unnamed = 0;
    for await (const piece of inOrder(items, (item) => this.piece(item, format), this.config.ANALYSIS_THREADS)) {
      if ('failure' in piece) throw piece.failure;
      if ('note' in piece) {
        if (notes.length < MAX_NOTES) notes.push(`game ${piece.id}: ${piece.note}`);
        else unnamed++;
        continue;
      }
      yield piece.bytes;
      yield pdn ? '\n\n' : '\n';
    }
    if (notes.length === 0) return;
    if (unnamed > 0) notes.push(`and ${unnamed} more`);
    const text = `Left out of this collection, which holds ${format.publisher} ${format.version} games only:\n${notes.join('\n')}\n`;
    // Outside every game: a PDN comment; for SGF, plain text without the characters that open a game tree or a value.
    yield pdn ? `{${text.replace(/[{}]/g, ' ')}}\n` : text.replace(/[()[\];\\]/g, ' ');
  }

  /** A game's bytes in the collection's format: as stored when they are that format in UTF-8, else converted. */
  private async piece(item: ExportItem<ExportedFile>, format: FormatDescriptor): Promise<Piece> {
    if ('missing' in item) return { id: item.missing, note: 'there is no such game' };
    const file = item.game;
    if (file.family !== format.family) return { id: file.id, note: file.family === null ? 'the archive does not know its game' : `it is a ${file.family} game` };
    const verbatim = verbatimBytes(file, format);
    if (verbatim) return { bytes: verbatim };
    if (file.status !== 'indexed' || file.publisher === null || file.version === null) {
      return { id: file.id, note: 'it is stored without an index, so nothing converts it' };
    }
    try {
      const converted = await this.convert(file, `${format.publisher}/${format.version}`);
      return { bytes: typeof converted.content === 'string' ? Buffer.from(converted.content, 'utf8') : converted.content };
    } catch (error) {
      if (error instanceof FormatError || error instanceof ProblemException) return { id: file.id, note: `it could not be converted (${error.message})` };
      return { failure: error };
    }
  }

  /** The existing conversion, on the analysis threads; waits and tries again while they are all busy. */
  private async convert(file: ExportedFile, target: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.analysis.convert(storedFile(file), file.publisher!, file.version!, target);
      } catch (error) {
        if (!(error instanceof ProblemException && error.code === 'analysis.busy') || attempt >= BUSY_RETRIES) throw error;
        await sleep((error.retryAfterSeconds ?? 1) * 1000);
      }
    }
  }
}

/** The NDJSON line of each item, in pieces made when they are asked for. */
function* lineByLine(items: readonly ExportItem<GameViewWithJsonText>[]): Generator<string> {
  for (const item of items) {
    if ('missing' in item) yield JSON.stringify({ id: item.missing, missing: true });
    else yield* gameJsonPieces(item.game);
    yield '\n';
  }
}

/** The items of groups one by one. */
async function* each<T>(groups: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const group of groups) yield* group;
}

/** The filters in the repository's form, continuing past a position. */
function positioned(filters: SearchFilters, past: SearchPosition | undefined) {
  return { ...gameFilters(filters), pastId: past?.id, pastDate: past?.day, pastUploadedAt: past?.uploadedAt };
}

function positionOf(key: ExportKey): SearchPosition {
  return { id: key.id, day: key.day ?? undefined, uploadedAt: key.uploadedKey ?? undefined };
}

/** Whether a game lies past `last` in the search's order (the keys compare as the SQL orders them). */
function beyond(key: ExportKey, last: ExportKey, filters: SearchFilters): boolean {
  const ascending = filters.sort === 'uploaded' || filters.sort === 'played';
  const first = sortsByDay(filters.sort) ? [key.day ?? '', last.day ?? ''] : walksUploadTime(filters) ? [key.uploadedKey ?? '', last.uploadedKey ?? ''] : ['', ''];
  const order = first[0] !== first[1] ? (first[0] < first[1] ? -1 : 1) : Math.sign(key.id - last.id);
  return ascending ? order > 0 : order < 0;
}

/** Consecutive slots whose games add up to GROUP_BYTES at most (one larger game alone). */
function* bySize(slots: readonly Slot[]): Generator<Slot[]> {
  let group: Slot[] = [];
  let bytes = 0;
  for (const slot of slots) {
    const size = slot.size ?? 0;
    if (group.length > 0 && bytes + size > GROUP_BYTES) {
      yield group;
      group = [];
      bytes = 0;
    }
    group.push(slot);
    bytes += size;
  }
  if (group.length > 0) yield group;
}

/**
 * A stored file that goes into the collection unchanged: already in its format, valid UTF-8 (a
 * byte-order mark dropped), and for SGF naming no other charset (`CA`) — an SGF collection is read
 * with one charset, and a game in GB2312 or Shift_JIS could not be split from one in UTF-8.
 */
function verbatimBytes(file: ExportedFile, format: FormatDescriptor): Buffer | undefined {
  if (file.publisher !== format.publisher || file.version !== format.version) return undefined;
  const raw = file.raw;
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  if (!isUtf8(bytes)) return undefined;
  if (format.extensions.includes('.sgf')) {
    const charset = peekRootProperty(bytes, 'CA');
    if (charset !== null && !/^\s*(utf-?8|us-ascii|ascii)\s*$/i.test(charset)) return undefined;
  }
  return bytes;
}
