import { FormatError } from './errors.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, RegeneratedFile, UploadedFile } from './plugin.js';
import { checkUploadBasics, describeUnrecognised } from './upload-checks.js';

export interface ReadRequest {
  /** `publisher/version` named by the uploader; overrides detection. */
  readonly format?: string;
  readonly timeBudgetMs: number;
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

  async read(file: UploadedFile, request: ReadRequest): Promise<GameRecord> {
    checkUploadBasics(file.bytes);
    if (request.format !== undefined) {
      const { plugin, format } = this.named(request.format);
      return plugin.read(file, { format, timeBudgetMs: request.timeBudgetMs });
    }
    const claimants = this.plugins.filter((plugin) => plugin.detect(file));
    if (claimants.length > 1) {
      throw new FormatError(`the file looks like several formats (${claimants.map((p) => p.id).join(', ')}): name one with ?format=publisher/version`);
    }
    if (claimants.length === 1) return claimants[0].read(file, { timeBudgetMs: request.timeBudgetMs });
    return { publisher: null, version: null, header: null, body: null, family: null, notIndexedReason: describeUnrecognised(file.bytes) };
  }

  /**
   * The media type to keep with an upload and serve it with: the uploader's, unless it says nothing
   * about the file and a plugin recognised the format, which then names the type.
   */
  mediaTypeFor(declared: string, record: GameRecord): string {
    const essence = declared.split(';')[0].trim().toLowerCase();
    if (!UNINFORMATIVE_MEDIA_TYPES.has(essence)) return declared;
    const known = record.publisher !== null && record.version !== null ? this.find(record.publisher, record.version) : undefined;
    const named = known?.format.mediaTypes[0];
    if (named === undefined) return 'application/octet-stream';
    // Every text format here is UTF-8 (others are refused); say so, or browsers guess another charset.
    return named.startsWith('text/') && !named.includes(';') ? `${named}; charset=utf-8` : named;
  }

  async regenerate(file: UploadedFile, publisher: string, version: string, timeBudgetMs: number): Promise<RegeneratedFile | undefined> {
    const entry = this.find(publisher, version);
    return entry?.plugin.regenerate(file, { format: entry.format, timeBudgetMs });
  }

  private named(name: string): Registered {
    const slash = name.lastIndexOf('/');
    const entry = slash > 0 ? this.find(name.slice(0, slash), name.slice(slash + 1)) : undefined;
    if (!entry) {
      const known = [...this.byKey.keys()].join(', ') || 'none';
      throw new FormatError(`unknown format "${name}": expected publisher/version, one of ${known}`, [], 400);
    }
    return entry;
  }
}

function formatKey(publisher: string, version: string): string {
  return `${publisher.toLowerCase()}/${version.toLowerCase()}`;
}
