import { FormatError } from '../../../core/errors.js';
import { DEFAULT_LIMITS, ReadLimits } from '../../../core/limits.js';
import { decodeUtf8, locate } from '../../text/decode.js';
import { buildGoFansGame, GoFansGame } from './model.js';
import { GoFansReplay, replayGoFans } from './replay.js';
import { GOFANS_SCHEMAS, GoFansVersion, STANDARD_SCHEMA } from './schemas.js';
import { checkGoFansBounds } from './move-scan.js';
import { validateWithSchema } from './validation.js';
import { XmlElement, collapseXmlSpace, parseXmlTree } from './xml-tree.js';

/*
 * The format's recommended import, step by step: (1) the upload exists — the archive's job;
 * (2) Standard.xsd; (3) Publisher and Version; (4) the publisher/version XSD; (5) the game data.
 */

/** A file that passed Standard.xsd: the GoFans table columns, and where the root element is. */
export interface StandardDocument {
  readonly text: string;
  readonly root: XmlElement;
  readonly publisher: string;
  readonly version: string;
  readonly header: string;
  readonly body: string;
}

/**
 * Steps 2–3 of the format's recommended import: Standard.xsd, then Publisher and Version.
 * DTDs are refused before any parser sees the text (entity expansion, external entities); a GoFans
 * file past the plies or variation-depth bound is refused by a cheap scan before any validator runs.
 */
export async function readStandardDocument(bytes: Buffer, limits: ReadLimits): Promise<StandardDocument> {
  const text = decodeUtf8(bytes);
  const declaration = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (declaration) {
    throw FormatError.at(`document type and entity declarations are not accepted (<!${declaration[1]} found)`, locate(text, declaration.index));
  }
  checkGoFansBounds(text, limits);
  await validateWithSchema(text, STANDARD_SCHEMA);
  return standardDocument(text);
}

/** The GoFans table columns of a text that passed Standard.xsd (the schema guarantees the four children). */
export function standardDocument(text: string): StandardDocument {
  const root = parseXmlTree(text);
  const [publisher, version, header, body] = root.children;
  return {
    text,
    root,
    publisher: collapseXmlSpace(publisher.text),
    version: collapseXmlSpace(version.text),
    header: text.slice(header.start, header.end),
    body: text.slice(body.start, body.end),
  };
}

/** A GoFans document that passed its version's XSD, understood and replayed. */
export interface ReadGoFans {
  readonly document: StandardDocument;
  readonly game: GoFansGame;
  readonly replay: GoFansReplay;
}

/**
 * Step 5, for a document that already passed both schemas (the XSDs guarantee the shape read here).
 * The bounds are checked on the tree before the game is replayed.
 */
export function interpretGoFans(document: StandardDocument, version: GoFansVersion, limits: ReadLimits = DEFAULT_LIMITS): ReadGoFans {
  const game = buildGoFansGame(document.text, document.root, version, limits);
  return { document, game, replay: replayGoFans(game) };
}

export async function readGoFans(document: StandardDocument, version: GoFansVersion, limits: ReadLimits): Promise<ReadGoFans> {
  await validateWithSchema(document.text, GOFANS_SCHEMAS[version]);
  return interpretGoFans(document, version, limits);
}

