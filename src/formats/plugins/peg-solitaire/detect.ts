/** Enough bytes to see either header, with room for a BOM and stray line breaks. */
const SNIFF_BYTES = 64;
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Which version a file's header claims, or null when it is no peg board: version 1 starts with
 * `1N~` or `1D~` (line breaks inside count for nothing, as in the program), version 2's first line is
 * `version 2` in any case. Never throws.
 */
export function sniffVersion(bytes: Uint8Array): 1 | 2 | null {
  const head = lenient.decode(bytes.subarray(0, SNIFF_BYTES));
  const v1 = head.replace(/[\r\n]/g, '');
  if (v1.startsWith('1N~') || v1.startsWith('1D~')) return 1;
  const firstLine = head.split(/\r\n|\r|\n/, 1)[0];
  if (firstLine.trim().toLowerCase() === 'version 2') return 2;
  return null;
}
