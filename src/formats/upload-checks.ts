import { XMLValidator } from 'fast-xml-parser';
import { FormatError } from '../core/errors.js';
import { checkNotEmpty } from './text/encoding.js';
import { decodeUtf8, locate } from './text/decode.js';

const DECLARATIONS = [Buffer.from('<!DOCTYPE'), Buffer.from('<!ENTITY')];

/** Refuses what no format may contain, before any plugin reads the bytes. */
export function checkUploadBasics(bytes: Buffer): void {
  checkNotEmpty(bytes);
  for (const declaration of DECLARATIONS) {
    const at = bytes.indexOf(declaration);
    if (at >= 0) {
      // Entity expansion and external entities are how XML files attack readers; no game format needs them.
      const text = bytes.subarray(0, at).toString('utf8');
      throw FormatError.at(
        `document type and entity declarations are not accepted (${declaration.toString()} found)`,
        locate(text, text.length),
        422,
        'format.declaration_forbidden',
      );
    }
  }
}

/**
 * What the archive says of a file no plugin recognises: it is kept verbatim when it is text (and,
 * if it looks like XML, well-formed XML); anything else is refused. Returns why it is not indexed.
 */
export function describeUnrecognised(bytes: Buffer): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw FormatError.at(`the file is binary (a NUL byte at byte offset ${nul}) and no format plugin reads it`, { offset: nul }, 415);
  const text = decodeUtf8(bytes);
  const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.exec(text);
  if (control) {
    throw new FormatError(
      `the file is not a text game file: control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} found`,
      [{ message: 'binary content', ...locate(text, control.index) }],
      415,
    );
  }
  if (/^\s*</.test(text)) {
    const verdict = XMLValidator.validate(text);
    if (verdict !== true) {
      const { code, msg, line, col } = verdict.err;
      if (code === 'InvalidXml' && msg.startsWith("Invalid '[")) {
        // The validator reports unclosed elements at the start; the file ends too early.
        throw FormatError.at('the file is not well-formed XML: it ends before its elements are closed', locate(text, text.length));
      }
      throw new FormatError(`the file is not well-formed XML: ${msg}`, [{ message: msg, line, column: col }]);
    }
    return 'well-formed XML that no format plugin recognises: stored verbatim, not indexed';
  }
  return 'text that no format plugin recognises: stored verbatim, not indexed';
}
