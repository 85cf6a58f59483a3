import { TextDecoder } from 'node:util';
import { isUtf8 } from '../../text/decode.js';

/**
 * Which text encoding an SGF file's values are read in, and how the byte scanner must step over
 * its characters. SGF's structure (`(`, `)`, `;`, `[`, `]`, `\`) is ASCII; every encoding read here
 * keeps ASCII bytes for ASCII characters, except that double-byte encodings (Shift_JIS, GBK/GB18030,
 * Big5, EUC-KR as UHC) may use `\` or `]` as the second byte of a character — so the scanner steps
 * over a lead byte and its trail byte together.
 */
export interface SgfCharset {
  /** The WHATWG name of the decoder used (`utf-8`, `windows-1252` for Latin-1, `gbk`, `shift_jis`…). */
  readonly encoding: string;
  /** `CA` of the first game's root as written (trimmed), null when the file has none. */
  readonly declared: string | null;
  /**
   * How the encoding was chosen: `declared` (CA), `utf-8` / `latin-1` (no usable CA: UTF-8 when the
   * whole file is valid UTF-8, Latin-1 otherwise).
   */
  readonly source: 'declared' | 'utf-8' | 'latin-1';
  /** Why a declared CA was not used (unknown to the decoder, or not ASCII-compatible); null otherwise. */
  readonly ignored: string | null;
}

/** Encodings whose bytes below 0x80 are not always ASCII characters: the byte scanner cannot read them. */
const NOT_ASCII_COMPATIBLE = new Set(['utf-16le', 'utf-16be', 'iso-2022-jp', 'replacement']);

/** Lead bytes of double-byte encodings, and the trail bytes that complete a character after one. */
interface DoubleByte {
  isLead(byte: number): boolean;
  isTrail(byte: number): boolean;
}

// GB18030's four-byte sequences are two pairs (lead, 0x30-0x39) to this scanner.
const GB: DoubleByte = { isLead: (b) => b >= 0x81 && b <= 0xfe, isTrail: (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x40 && b <= 0x7e) || (b >= 0x80 && b <= 0xfe) };

const DOUBLE_BYTE: Readonly<Record<string, DoubleByte>> = {
  shift_jis: {
    isLead: (b) => (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc),
    isTrail: (b) => (b >= 0x40 && b <= 0x7e) || (b >= 0x80 && b <= 0xfc),
  },
  gbk: GB,
  gb18030: GB,
  big5: { isLead: (b) => b >= 0x81 && b <= 0xfe, isTrail: (b) => (b >= 0x40 && b <= 0x7e) || (b >= 0xa1 && b <= 0xfe) },
  'euc-kr': { isLead: (b) => b >= 0x81 && b <= 0xfe, isTrail: (b) => b >= 0x41 && b <= 0xfe },
};

/**
 * How many bytes the character starting at `i` takes for the scanner: 2 for a lead byte followed by
 * a trail byte of a double-byte encoding, else 1 (multi-byte UTF-8 and EUC-JP never use ASCII bytes
 * inside a character, so stepping byte by byte is safe for them).
 */
export function characterWidth(charset: SgfCharset, bytes: Uint8Array, i: number): 1 | 2 {
  const table = DOUBLE_BYTE[charset.encoding];
  if (table === undefined || !table.isLead(bytes[i]) || i + 1 >= bytes.length) return 1;
  return table.isTrail(bytes[i + 1]) ? 2 : 1;
}

/** A decoder for a label, or null when the platform has none for it. */
function decoderName(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The encoding of an SGF file: the first game's `CA` when the platform can decode it and it is
 * ASCII-compatible; otherwise UTF-8 when the whole file is valid UTF-8, else Latin-1 (decoded as
 * windows-1252, which WHATWG decoders use for ISO-8859-1 labels).
 */
export function resolveCharset(bytes: Uint8Array, declared: string | null): SgfCharset {
  const label = declared?.trim() || null;
  let ignored: string | null = null;
  if (label !== null) {
    const encoding = decoderName(label);
    if (encoding !== null && !NOT_ASCII_COMPATIBLE.has(encoding)) return { encoding, declared: label, source: 'declared', ignored: null };
    ignored = encoding === null ? `CA[${label}] names no charset this archive can decode` : `CA[${label}] is not ASCII-compatible, so SGF's brackets cannot be found in it`;
  }
  return isUtf8(bytes)
    ? { encoding: 'utf-8', declared: label, source: 'utf-8', ignored }
    : { encoding: 'windows-1252', declared: label, source: 'latin-1', ignored };
}

/** Bytes below 0x80 as text: short runs (most values: points, numbers) char by char, longer ones in one call. */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length === 2) return String.fromCharCode(bytes[start], bytes[start + 1]);
  if (length > 16) return Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString('latin1');
  let text = '';
  for (let k = start; k < end; k++) text += String.fromCharCode(bytes[k]);
  return text;
}

/** Decodes values in one charset: strictly first, so that bytes that are not text in it are counted. */
export class ValueDecoder {
  private readonly strict: TextDecoder;
  private readonly lenient: TextDecoder;
  /** Values that were not valid in the charset and were decoded with replacement characters. */
  invalid = 0;
  /** Byte offset of the first such value, -1 when none. */
  firstInvalidAt = -1;

  constructor(readonly charset: SgfCharset) {
    this.strict = new TextDecoder(charset.encoding, { fatal: true });
    this.lenient = new TextDecoder(charset.encoding);
  }

  decode(bytes: Uint8Array, start: number, end: number, ascii: boolean): string {
    if (ascii) return asciiText(bytes, start, end);
    const slice = bytes.subarray(start, end);
    try {
      return this.strict.decode(slice);
    } catch {
      this.invalid++;
      if (this.firstInvalidAt < 0) this.firstInvalidAt = start;
      return this.lenient.decode(slice);
    }
  }

  /** Text of a range that is not a value (a header, an error's prefix), never throwing. */
  decodeLoosely(bytes: Uint8Array, start: number, end: number): string {
    return this.lenient.decode(bytes.subarray(start, end));
  }
}
