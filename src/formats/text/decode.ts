import { FormatError, SourceLocation } from '../../core/errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes UTF-8 strictly (a leading BOM is dropped). Invalid sequences are an error at the byte
 * offset where they start, so the uploader can find them.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const message = `the file is not valid UTF-8 text (invalid byte 0x${hex(bytes[offset])} at byte offset ${offset})`;
    throw FormatError.at(message, { offset }, 422, 'upload.encoding');
  }
}

/** Whether the bytes decode as UTF-8, without throwing. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** 1-based line and column of a 0-based character offset; CRLF, LF and CR all end a line. */
export function locate(text: string, offset: number): Required<Pick<SourceLocation, 'line' | 'column' | 'offset'>> {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1, offset };
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    try {
      strictUtf8.decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return Math.max(0, bytes.length - 1);
}

function hex(byte: number | undefined): string {
  return (byte ?? 0).toString(16).padStart(2, '0');
}
