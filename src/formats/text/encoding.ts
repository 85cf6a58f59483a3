import { FormatError } from '../../core/errors.js';

/** The text encodings the archive decodes; plugins always see UTF-8. */
export type SourceCharset = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface Utf8View {
  /** The upload as UTF-8: the bytes themselves, or UTF-16 text re-encoded. */
  readonly bytes: Buffer;
  /** What the upload was written in. */
  readonly charset: SourceCharset;
}

const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];
const UTF32LE_BOM = [0xff, 0xfe, 0x00, 0x00];
const UTF32BE_BOM = [0x00, 0x00, 0xfe, 0xff];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/**
 * What plugins read: UTF-16 text with a byte-order mark is decoded and handed on as UTF-8 (the
 * stored bytes stay as uploaded); UTF-32 is refused by name; anything else passes unchanged and
 * is judged by the plugins and the archive's text checks.
 */
export function utf8View(bytes: Buffer): Utf8View {
  if (startsWith(bytes, UTF32LE_BOM) || startsWith(bytes, UTF32BE_BOM)) {
    throw FormatError.at('the file is UTF-32 text (it starts with a UTF-32 byte-order mark): send it as UTF-8 or UTF-16', { offset: 0 }, 415, 'upload.encoding');
  }
  const charset = startsWith(bytes, UTF16LE_BOM) ? 'utf-16le' : startsWith(bytes, UTF16BE_BOM) ? 'utf-16be' : undefined;
  if (charset === undefined) return { bytes, charset: 'utf-8' };
  let text: string;
  try {
    text = new TextDecoder(charset, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const name = charset === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE';
    throw FormatError.at(`the file starts with a ${name} byte-order mark but is not valid ${name} text (odd length or a lone surrogate)`, { offset: 0 }, 422, 'upload.encoding');
  }
  return { bytes: Buffer.from(text, 'utf8'), charset };
}

/** Refuses uploads with nothing in them: no bytes, or only whitespace and byte-order marks. */
export function checkNotEmpty(bytes: Buffer): void {
  if (bytes.length === 0) {
    throw new FormatError('the upload is empty: send the game file as the request body or as the multipart field "file"', [], 422, 'upload.empty');
  }
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    if (b === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) {
      i += 2;
      continue;
    }
    if (b < 0x80) return;
    // Non-ASCII: judge by the decoded text (no-break spaces, ideographic spaces…), once.
    if (bytes.toString('utf8').replace(/\uFEFF/g, '').trim() !== '') return;
    break;
  }
  throw new FormatError('the upload has no content: only whitespace or byte-order marks', [], 422, 'upload.empty');
}
