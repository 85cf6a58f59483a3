import type { GameSlice } from '../../plugin.js';
import { Lexer } from './lexer.js';

/** Where each game of a PDN text lies, as character offsets (end exclusive), in file order. */
export interface GameSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Game boundaries, without parsing the games: a game runs from its first token (a comment, tag or
 * move text) to its terminator outside variations, or to the last token before the next tag section,
 * or to the end of the text. Text that holds only comments is no game. Comments and tag values are
 * skipped as wholes, so a "[" or ")" inside them does not count. An unclosed comment is an error.
 */
export function gameSpans(text: string): GameSpan[] {
  const lexer = new Lexer(text);
  const spans: GameSpan[] = [];
  let start = -1;
  let end = -1;
  let substantial = false;
  let inMoves = false;
  let depth = 0;
  const close = (): void => {
    if (start >= 0 && substantial) spans.push({ start, end });
    start = -1;
    substantial = false;
    inMoves = false;
    depth = 0;
  };
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.kind === 'tag' && inMoves) close();
    if (start < 0) start = token.offset;
    end = token.end;
    if (token.kind === 'comment') continue;
    substantial = true;
    if (token.kind === 'tag') continue;
    inMoves = true;
    if (token.kind === 'open') depth++;
    else if (token.kind === 'close') depth = Math.max(0, depth - 1);
    else if (token.kind === 'result' && depth === 0) close();
  }
  close();
  return spans;
}

/** The spans as byte ranges of the UTF-8 file the text was decoded from (`bom`: the file starts with one). */
export function byteSlices(text: string, spans: readonly GameSpan[], bom: boolean): GameSlice[] {
  const slices: GameSlice[] = [];
  let chars = 0;
  let bytes = bom ? 3 : 0;
  const advance = (to: number): number => {
    bytes += Buffer.byteLength(text.slice(chars, to), 'utf8');
    chars = to;
    return bytes;
  };
  for (const span of spans) slices.push({ start: advance(span.start), end: advance(span.end) });
  return slices;
}
