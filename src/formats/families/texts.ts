import { MAX_WRITTEN_TEXTS, MAX_WRITTEN_TEXT_BYTES } from '../plugin.js';
import type { WrittenText } from '../plugin.js';

/**
 * The texts a game hands over for the full-text index (`GameAnalysis.texts`), made the same way for
 * every format: each text trimmed, the empty ones dropped, in the order given, and bounded — at most
 * {@link MAX_WRITTEN_TEXTS} texts and {@link MAX_WRITTEN_TEXT_BYTES} bytes of UTF-8 in all. The text
 * that crosses the byte bound keeps its beginning (cut between characters); everything after it is
 * dropped. `candidates` is read only as far as needed, so a generator over a huge tree stops early.
 */
export function writtenTexts(candidates: Iterable<{ readonly ply: number; readonly text: string | null | undefined }>): WrittenText[] {
  const texts: WrittenText[] = [];
  let bytes = 0;
  for (const { ply, text: written } of candidates) {
    const text = written?.trim() ?? '';
    if (text === '') continue;
    const size = Buffer.byteLength(text, 'utf8');
    if (bytes + size <= MAX_WRITTEN_TEXT_BYTES) {
      texts.push({ ply, text });
      bytes += size;
      if (texts.length >= MAX_WRITTEN_TEXTS || bytes >= MAX_WRITTEN_TEXT_BYTES) break;
      continue;
    }
    const cut = utf8Prefix(text, MAX_WRITTEN_TEXT_BYTES - bytes).trim();
    if (cut !== '') texts.push({ ply, text: cut });
    break;
  }
  return texts;
}

/** The longest beginning of `text` that takes at most `budget` bytes in UTF-8, never splitting a character. */
function utf8Prefix(text: string, budget: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > budget) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
