import { SourceCharset, utf8View } from './text/encoding.js';
import { FormatError } from '../core/errors.js';
import { checkIndexedTexts } from '../core/limits.js';
import type { IndexedText, ReadLimits } from '../core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameAnalysis, GameRecord, GameSlice, PositionTrack, ReadOptions, RegeneratedFile, ReplayPart, UploadedFile } from './plugin.js';
import { trackOfLine } from './families/lines.js';
import { locateTextSpans } from './text/spans.js';
import type { TextSpans } from './text/spans.js';
import { checkUploadBasics, describeUnrecognised } from './upload-checks.js';

/** The games of one file: their byte ranges, and the format to read them with (absent: detect). */
export interface FileGames {
  readonly format?: string;
  readonly slices: readonly GameSlice[];
}

export interface ReadRequest {
  /** `publisher/version` named by the uploader; overrides detection. */
  readonly format?: string;
  readonly timeBudgetMs: number;
  readonly limits: ReadLimits;
  /** False when the reading is only stored: plugins may leave `analysis.replay` empty (see ReadOptions). */
  readonly withReplay?: boolean;
  /**
   * True when the bytes are one game found by {@link FormatReader.split}: a collection is not looked
   * for again (that would scan every game a second time).
   */
  readonly oneGame?: boolean;
  /**
   * For a game to be stored: the parts of its replay to make (what the archive's indexes on take),
   * from the main line its plugin hands over (`FormatPlugin.line`). Absent or empty: none.
   */
  readonly parts?: ReadonlySet<ReplayPart>;
}

/**
 * A plugin's record, with the encoding the upload was written in (plugins see UTF-8 only) and
 * where its header and body texts lie in the uploaded bytes (kept as ranges instead of copies).
 */
export interface ReadResult extends GameRecord {
  readonly charset: SourceCharset;
  readonly spans: TextSpans;
  /** The parts of the replay asked for (`parts`), made by the family's replay of the game's main line; null where it has none. */
  readonly positions?: PositionTrack | null;
}

/**
 * Types that say nothing about a game file: octet-stream, and form-urlencoded, which curl and HTML
 * forms send for any body unless told otherwise.
 */
const UNINFORMATIVE_MEDIA_TYPES = new Set(['', 'application/octet-stream', 'application/x-www-form-urlencoded']);

interface Registered {
  readonly plugin: FormatPlugin;
  readonly format: FormatDescriptor;
}

/**
 * Routes an upload to the plugin that reads it: the archive's single entry into the formats layer.
 */
export class FormatReader {
  private readonly byKey = new Map<string, Registered>();

  constructor(readonly plugins: readonly FormatPlugin[]) {
    for (const plugin of plugins) {
      for (const format of plugin.formats) {
        const key = formatKey(format.publisher, format.version);
        if (this.byKey.has(key)) throw new Error(`two plugins declare ${key}`);
        this.byKey.set(key, { plugin, format });
      }
    }
  }

  get formats(): FormatDescriptor[] {
    return [...this.byKey.values()].map((entry) => entry.format);
  }

  find(publisher: string, version: string): Registered | undefined {
    return this.byKey.get(formatKey(publisher, version));
  }

  /**
   * Detects the format (or takes the named one) and lets its plugin read the file. UTF-16 text is
   * handed to plugins as UTF-8; everything else as uploaded.
   */
  async read(upload: UploadedFile, request: ReadRequest): Promise<ReadResult> {
    const { bytes, charset } = utf8View(upload.bytes);
    const file = { ...upload, bytes };
    checkUploadBasics(bytes);
    const options = { timeBudgetMs: request.timeBudgetMs, limits: request.limits, withReplay: request.withReplay };
    // Spans only where plugins read the bytes as uploaded: UTF-16 text is re-encoded for them.
    const withSpans = (record: GameRecord): ReadResult => ({
      ...record,
      charset,
      spans: charset === 'utf-8' ? locateTextSpans(upload.bytes, record.header, record.body) : { header: null, body: null },
    });
    const chosen = request.format !== undefined ? this.named(request.format) : this.claimant(file);
    if (chosen) {
      const plugin = chosen.plugin;
      const games = request.oneGame ? 1 : (plugin.split?.(file, { ...options, format: chosen.format }).length ?? 1);
      if (games > 1) throw new FormatError(`the file holds ${games} games, and this reads one game a file`, [], 422, 'upload.collection');
      const record = await plugin.read(file, { ...options, format: chosen.format });
      if (record.analysis) checkIndexedTexts(indexedTexts(record.analysis));
      const read = withSpans(record);
      if (request.parts === undefined || request.parts.size === 0 || !record.analysis) return read;
      return { ...read, positions: await positionsOf(plugin, file, { ...options, format: chosen.format }, request.parts) };
    }
    const notIndexedReason = describeUnrecognised(bytes);
    return withSpans({ publisher: null, version: null, header: null, body: null, family: null, notIndexedReason });
  }

  /**
   * Where the games of a file lie: the slices of the plugin that reads it (several for an SGF
   * collection or a PDN database) and the `publisher/version` to read each slice with; the whole
   * file as one slice, with no format, when no plugin claims it or its plugin keeps one game a file.
   */
  split(upload: UploadedFile, request: ReadRequest): FileGames {
    const whole: FileGames = { format: request.format, slices: [{ start: 0, end: upload.bytes.length }] };
    const { bytes, charset } = utf8View(upload.bytes);
    // Offsets are into the uploaded bytes: a re-encoded (UTF-16) file is one game.
    if (charset !== 'utf-8') return whole;
    const file = { ...upload, bytes };
    checkUploadBasics(bytes);
    const options = { timeBudgetMs: request.timeBudgetMs, limits: request.limits };
    const chosen = request.format !== undefined ? this.named(request.format) : this.claimant(file);
    if (chosen?.plugin.split === undefined) return whole;
    const slices = chosen.plugin.split(file, { ...options, format: chosen.format });
    // Each slice is read by the same plugin: named, or its only format; a plugin of several detects each.
    const format = chosen.format ?? (chosen.plugin.formats.length === 1 ? chosen.plugin.formats[0] : undefined);
    return { format: format && `${format.publisher}/${format.version}`, slices };
  }

  /**
   * The one plugin that claims a file, undefined when none does; several is the uploader's to settle.
   * Only a file no plugin's `detect` claims is offered to the plugins' `detectFallback`, so a plain
   * shape (a VK code of digits) never takes a file another format reads.
   */
  private claimant(file: UploadedFile): { plugin: FormatPlugin; format?: FormatDescriptor } | undefined {
    let claimants = this.plugins.filter((plugin) => plugin.detect(file));
    if (claimants.length === 0) claimants = this.plugins.filter((plugin) => plugin.detectFallback?.(file) === true);
    if (claimants.length > 1) {
      const names = claimants.map((p) => p.id).join(', ');
      throw new FormatError(`the file looks like several formats (${names}): name one with ?format=publisher/version`, [], 422, 'format.ambiguous');
    }
    return claimants.length === 1 ? { plugin: claimants[0] } : undefined;
  }

  /**
   * The media type to keep with an upload and serve it with: the uploader's, unless it says nothing
   * about the file and a plugin recognised the format, which then names the type.
   */
  mediaTypeFor(declared: string, record: ReadResult): string {
    const essence = declared.split(';')[0].trim().toLowerCase();
    if (!UNINFORMATIVE_MEDIA_TYPES.has(essence)) return declared;
    const known = record.publisher !== null && record.version !== null ? this.find(record.publisher, record.version) : undefined;
    const named = known?.format.mediaTypes[0];
    if (named === undefined) return 'application/octet-stream';
    // Say which charset the text is in, or browsers guess another one.
    return named.startsWith('text/') && !named.includes(';') ? `${named}; charset=${record.charset}` : named;
  }

  async regenerate(upload: UploadedFile, publisher: string, version: string, request: Omit<ReadRequest, 'format'>): Promise<RegeneratedFile | undefined> {
    const entry = this.find(publisher, version);
    if (!entry) return undefined;
    const file = { ...upload, bytes: utf8View(upload.bytes).bytes };
    return entry.plugin.regenerate(file, { format: entry.format, timeBudgetMs: request.timeBudgetMs, limits: request.limits });
  }

  /**
   * A stored game written in another format of its family (`target`: `publisher/version`), through
   * the family's plain model: the source plugin reads it in, the target's writes it out with its
   * caches regenerated. 400 for a format the archive does not know; 422 `export.unsupported` across
   * families or where a plugin has no conversion; the target's 422 `export.does_not_fit` when the
   * game does not fit its format.
   */
  async convert(upload: UploadedFile, from: { publisher: string; version: string }, target: string, request: Omit<ReadRequest, 'format'>): Promise<RegeneratedFile> {
    const to = this.named(target);
    const source = this.find(from.publisher, from.version);
    const name = (format: FormatDescriptor) => `${format.publisher} ${format.version}`;
    if (!source) throw new FormatError(`no plugin reads ${from.publisher} ${from.version} any more: nothing to convert from`, [], 422, 'export.unsupported');
    if (source.format.family !== to.format.family) {
      throw new FormatError(`${name(source.format)} is a ${source.format.family} format and ${name(to.format)} a ${to.format.family} one: a game converts only within its family`, [], 422, 'export.unsupported');
    }
    if (!source.plugin.toInterchange || !to.plugin.fromInterchange) {
      const missing = !source.plugin.toInterchange ? `${name(source.format)} cannot be converted from` : `${name(to.format)} cannot be written from another format`;
      throw new FormatError(`${missing} yet`, [], 422, 'export.unsupported');
    }
    const file = { ...upload, bytes: utf8View(upload.bytes).bytes };
    const options = { timeBudgetMs: request.timeBudgetMs, limits: request.limits };
    const game = await source.plugin.toInterchange(file, { ...options, format: source.format });
    return to.plugin.fromInterchange(game, { ...options, format: to.format });
  }

  private named(name: string): Registered {
    const slash = name.lastIndexOf('/');
    const entry = slash > 0 ? this.find(name.slice(0, slash), name.slice(slash + 1)) : undefined;
    if (!entry) {
      const known = [...this.byKey.keys()].join(', ') || 'none';
      throw new FormatError(`unknown format "${name}": expected publisher/version, one of ${known}`, [], 400, 'format.unknown');
    }
    return entry;
  }
}

/**
 * The parts asked for of a game the plugin read: its family's replay of the main line the plugin
 * hands over. A game without one (the plugin keeps none, or refuses it) has none: it is stored and
 * searched as before, only not by position, identity or pattern.
 */
async function positionsOf(plugin: FormatPlugin, file: UploadedFile, options: ReadOptions, parts: ReadonlySet<ReplayPart>): Promise<PositionTrack | null> {
  try {
    const line = await plugin.line?.(file, options);
    return line ? trackOfLine(line, parts) : null;
  } catch (error) {
    if (error instanceof FormatError) return null;
    throw error;
  }
}

function formatKey(publisher: string, version: string): string {
  return `${publisher.toLowerCase()}/${version.toLowerCase()}`;
}

/** What of an analysis goes into searched columns, named as a problem's detail names it. */
function indexedTexts(analysis: GameAnalysis): IndexedText[] {
  const texts: IndexedText[] = [
    { field: 'the event', value: analysis.facts.event },
    { field: 'the rules', value: analysis.facts.rules },
  ];
  for (const player of analysis.players) {
    const who = `player ${player.seat + 1}'s`;
    texts.push({ field: `${who} name`, value: player.name }, { field: `${who} id`, value: player.externalId }, { field: `${who} rating`, value: player.rating });
  }
  return texts;
}
