import type { Request } from 'express';
import { ProblemException } from '../../common/problem-codes.js';
import type { FormatReader } from '../../formats/format-reader.js';
import type { Family, FormatDescriptor } from '../../formats/plugin.js';

/** The forms a bulk export is written in, chosen by the request's `Accept`. */
export interface ExportKind {
  readonly mediaType: string;
  /** The download's name (Content-Disposition). */
  readonly filename: string;
  readonly form: 'ndjson' | 'archive' | 'collection';
}

export const EXPORT_KINDS: readonly ExportKind[] = [
  // First: the answer to a request without Accept, or with */*.
  { mediaType: 'application/x-ndjson', filename: 'games.ndjson', form: 'ndjson' },
  { mediaType: 'application/zip', filename: 'games.zip', form: 'archive' },
  { mediaType: 'application/x-tar', filename: 'games.tar', form: 'archive' },
  { mediaType: 'application/x-go-sgf', filename: 'games.sgf', form: 'collection' },
  { mediaType: 'application/x-pdn', filename: 'games.pdn', form: 'collection' },
];

/** The kind the client accepts best (quality values count); 406 when it accepts none. */
export function negotiate(request: Request): ExportKind {
  const types = EXPORT_KINDS.map((kind) => kind.mediaType);
  const chosen = request.accepts(types);
  const kind = EXPORT_KINDS.find((candidate) => candidate.mediaType === chosen);
  if (!kind) throw new ProblemException(406, 'request.not_acceptable', `an export is written as ${types.join(', ')}: the Accept header names none of them`);
  return kind;
}

/**
 * The format a collection of one family is written in: the family's format that its plugin splits
 * into games (several games a file) and that is served with the chosen media type — SGF for Go
 * (`SGF/FF4-Go`) and Dots (`SGF/FF4-Dots`), PDN for checkers. 400 without a family (a collection
 * holds one game type); 406 when the family has no collection of that type.
 */
export function collectionFormat(reader: FormatReader, kind: ExportKind, family: Family | undefined): FormatDescriptor {
  if (family === undefined) {
    throw new ProblemException(400, 'request.invalid', `a collection (${kind.mediaType}) holds the games of one family: name it with family=`);
  }
  const format = splitFormat(reader, family, kind.mediaType);
  if (!format) {
    const offered = EXPORT_KINDS.filter((other) => other.form === 'collection' && splitFormat(reader, family, other.mediaType) !== undefined);
    const instead = offered.length > 0 ? `; ask for ${offered.map((other) => other.mediaType).join(' or ')}` : '; export them as application/x-ndjson, application/zip or application/x-tar';
    throw new ProblemException(406, 'request.not_acceptable', `${family} games are not written as a ${kind.mediaType} collection${instead}`);
  }
  return format;
}

/** The family's format, served as `mediaType`, whose plugin splits a file into games. */
function splitFormat(reader: FormatReader, family: Family, mediaType: string): FormatDescriptor | undefined {
  return reader.plugins
    .filter((plugin) => plugin.split !== undefined)
    .flatMap((plugin) => plugin.formats)
    .find((candidate) => candidate.family === family && candidate.mediaTypes.includes(mediaType));
}
