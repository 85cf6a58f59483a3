import type { UploadedFile } from '../../plugin.js';

/** How much of the file detection looks at: the first statement or key is always near the start. */
const SNIFF_BYTES = 4096;

/**
 * A BARS file starts (after blank lines and `#` comments) with a `go =` or `area_monitor =`
 * assignment, or is a JSON object whose first key is "go" or "area_monitor". Nothing else is claimed.
 */
export function looksLikeBars(file: UploadedFile): boolean {
  try {
    const head = file.bytes.subarray(0, SNIFF_BYTES).toString('utf8').replace(/^\uFEFF/, '');
    const start = head.replace(/^(?:\s*#[^\n\r]*)*\s*/, '');
    if (/^(?:go|area_monitor)\s*=(?:\s*#[^\n\r]*)*\s*\[/.test(start)) return true;
    return /^\{\s*"(?:go|area_monitor)"\s*:/.test(start);
  } catch {
    return false;
  }
}
