import { createRequire } from 'node:module';

/*
 * Real Go SGF files as independent code reads them (@sabaki/sgf), for tests that check the
 * archive's SGF reading and conversions against it.
 */
const require = createRequire(import.meta.url);
const sabaki = require('@sabaki/sgf') as { parse(text: string): SabakiNode[] };

export interface SabakiNode {
  data: Record<string, string[]>;
  children: SabakiNode[];
}

/** The file's first game tree by @sabaki/sgf, the text read as UTF-8 when it is valid UTF-8, else as Latin-1. */
export function sabakiRoot(bytes: Buffer): SabakiNode {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = bytes.toString('latin1');
  }
  return sabaki.parse(text.slice(text.search(/\(\s*;/)))[0];
}

/** The first value of a property as SimpleText (blanks collapsed), null when absent or empty. */
export function firstValue(data: Record<string, string[]>, id: string): string | null {
  return data[id]?.[0]?.replace(/\s+/g, ' ').trim() || null;
}

/** Each colour's outcome as RE names it, read plainly: `B+…`/`W+…`, NNGS' "White resigns.", 0/Draw. */
export function expectedOutcomes(re: string | null): string[] {
  const t = (re ?? '').trim();
  if (/^B\+/i.test(t) || /^White resigns/i.test(t)) return ['won', 'lost'];
  if (/^W\+/i.test(t) || /^Black resigns/i.test(t)) return ['lost', 'won'];
  if (/^(0|Draw|Jigo)$/i.test(t)) return ['drawn', 'drawn'];
  return ['unfinished', 'unfinished'];
}
