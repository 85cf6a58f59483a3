import { FormatError } from '../../../core/errors.js';
import type { GoInterchangeGame } from '../../families/go/index.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { interchangeLine } from '../../families/lines.js';
import { analyseGoFans } from './analysis.js';
import { gofansFromInterchange, gofansToInterchange, readHeaderFields } from './interchange.js';
import { StandardDocument, readGoFans, readStandardDocument } from './import-procedure.js';
import { regenerateGoFans } from './regenerate.js';
import { GOFANS_PUBLISHER, GOFANS_SCHEMAS, GOFANS_VERSIONS, GoFansVersion, STANDARD_SCHEMA, isGoFansVersion } from './schemas.js';

const MEDIA_TYPE = 'application/xml';

const TITLES: Record<GoFansVersion, string> = {
  '1.1': 'GoFans 1.1: Go game, flat move list',
  '1.2': 'GoFans 1.2: Go game tree (nested moves, variations)',
  '2.1': 'GoFans 2.1: Go game, flat move list with Removes',
  '2.2': 'GoFans 2.2: Go game tree with Removes',
};

export const GOFANS_FORMATS: readonly FormatDescriptor[] = GOFANS_VERSIONS.map((version) => ({
  publisher: GOFANS_PUBLISHER,
  version,
  family: 'go',
  title: TITLES[version],
  mediaTypes: [MEDIA_TYPE, 'text/xml'],
  extensions: ['.xml'],
  schema: { mediaType: GOFANS_SCHEMAS[version].mediaType, text: GOFANS_SCHEMAS[version].text },
}));

function schemaVersion(document: StandardDocument): GoFansVersion | null {
  return document.publisher === GOFANS_PUBLISHER && isGoFansVersion(document.version) ? document.version : null;
}

function checkNamedFormat(document: StandardDocument, options: ReadOptions): void {
  const named = options.format;
  if (named && (named.publisher !== document.publisher || named.version !== document.version)) {
    throw new FormatError(
      `the upload was named ${named.publisher}/${named.version} but the file declares ${document.publisher}/${document.version}`,
    );
  }
}

/**
 * The archive's XML entry point: every XML upload is checked against Standard.xsd; GoFans files
 * then against their version's XSD and replayed with the Go rules engine; XML of other
 * publishers/versions is stored with its Publisher/Version/Header/Body but not indexed.
 */
export const gofansXmlPlugin: FormatPlugin = {
  id: 'gofans-xml',
  formats: GOFANS_FORMATS,
  sharedSchemas: [STANDARD_SCHEMA],

  detect(file: UploadedFile): boolean {
    return looksLikeGameDocument(file.bytes);
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const document = await readStandardDocument(file.bytes, options.limits);
    checkNamedFormat(document, options);
    const columns = { publisher: document.publisher, version: document.version, header: document.header, body: document.body };
    const version = schemaVersion(document);
    if (version === null) {
      return {
        ...columns,
        family: null,
        notIndexedReason: `the archive has no schema for publisher "${document.publisher}" version "${document.version}": the file passed Standard.xsd and is stored verbatim, not indexed`,
      };
    }
    const { game, replay } = await readGoFans(document, version, options.limits);
    const { ratings } = readHeaderFields({ document, game });
    return { ...columns, family: 'go', analysis: analyseGoFans(game, replay, options.withReplay !== false, ratings) };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const document = await readStandardDocument(file.bytes, options.limits);
    checkNamedFormat(document, options);
    const version = schemaVersion(document);
    if (version === null) throw new FormatError(`the archive cannot regenerate ${document.publisher}/${document.version}: it has no schema for it`);
    const { game, replay } = await readGoFans(document, version, options.limits);
    const regenerated = regenerateGoFans(document.text, game, replay);
    return {
      publisher: GOFANS_PUBLISHER,
      version: regenerated.version,
      mediaType: MEDIA_TYPE,
      filename: `${baseName(file.filename)}.regenerated.xml`,
      content: regenerated.content,
    };
  },

  /** The main line: the game's plain model (read again from the bytes). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    return interchangeLine(await gofansXmlPlugin.toInterchange!(file, options));
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<GoInterchangeGame> {
    const document = await readStandardDocument(file.bytes, options.limits);
    checkNamedFormat(document, options);
    const version = schemaVersion(document);
    if (version === null) {
      throw new FormatError(`the archive cannot convert ${document.publisher}/${document.version}: it has no schema for it`, [], 422, 'export.unsupported');
    }
    return gofansToInterchange(await readGoFans(document, version, options.limits));
  },

  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    const { publisher, version } = options.format;
    if (game.family !== 'go' || publisher !== GOFANS_PUBLISHER || !isGoFansVersion(version)) {
      throw new FormatError(`the GoFans plugin cannot write a ${game.family} game as ${publisher}/${version}`, [], 422, 'export.unsupported');
    }
    const written = gofansFromInterchange(game as GoInterchangeGame, version, options.limits);
    return { publisher: GOFANS_PUBLISHER, version: written.version, mediaType: MEDIA_TYPE, filename: `game.${version}.xml`, content: written.content };
  },
};

const GAME_ROOT = Buffer.from('<Game');

/**
 * XML whose root element is `<Game>` (the root Standard.xsd requires): after an optional UTF-8 BOM,
 * blanks, the XML declaration, processing instructions and comments. Other XML (an SVG, a
 * different game format) is not claimed, so the archive stores it as XML nobody reads. Never throws.
 */
export function looksLikeGameDocument(bytes: Uint8Array): boolean {
  if (!looksLikeXml(bytes)) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let i = buffer.indexOf(0x3c);
  for (;;) {
    if (buffer[i + 1] === 0x3f /* ? */ || (buffer[i + 1] === 0x21 && buffer[i + 2] === 0x2d && buffer[i + 3] === 0x2d)) {
      const close = buffer[i + 1] === 0x3f ? buffer.indexOf('?>', i + 2) : buffer.indexOf('-->', i + 4);
      if (close < 0) return false;
      i = buffer.indexOf(0x3c, close);
      if (i < 0) return false;
      continue;
    }
    const after = buffer[i + GAME_ROOT.length];
    return buffer.subarray(i, i + GAME_ROOT.length).equals(GAME_ROOT) && (after === undefined || after === 0x3e || after === 0x2f || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d);
  }
}

/** Text whose first non-blank character (after an optional UTF-8 BOM) is `<`; never throws. */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i < bytes.length && bytes[i] === 0x3c;
}

function baseName(filename: string | undefined): string {
  const name = (filename ?? '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return name.length > 0 ? name : 'game';
}
