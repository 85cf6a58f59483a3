import { GoFansVersion, versionTraits } from './schemas.js';
import { escapeXml } from '../../../core/xml-text.js';

/*
 * Writes a GoFans document from plain values, in the layout of the format's examples: the XML
 * declaration, then `<Game>` with Publisher, Version and Header on one line, `<Body>` on the next.
 * Points and Removes are written as given (a caller that needs them right regenerates them with
 * `regenerateGoFans`, which splices the replay's values in).
 */

export interface GoFansDraftMove {
  readonly playerId: number | string;
  readonly color?: 'black' | 'white';
  readonly point: { readonly x: number; readonly y: number } | null;
  /** 1.2/2.2 only: further moves after this one (first = main line, others = variations). */
  readonly next?: readonly GoFansDraftMove[];
}

export interface GoFansDraft {
  readonly boardSize?: number;
  readonly komi?: string;
  readonly players: readonly { readonly id: number | string; readonly name: string; readonly points: string }[];
  /** Further header elements, written after `<players>` in this order, with their attributes. */
  readonly headerFields?: readonly (readonly [string, string] | readonly [string, string, Readonly<Record<string, string>>])[];
}

function header(draft: GoFansDraft): string {
  const parts = ['<Header>'];
  if (draft.boardSize !== undefined) parts.push(`<boardSize>${draft.boardSize}</boardSize>`);
  if (draft.komi !== undefined) parts.push(`<komi>${draft.komi}</komi>`);
  parts.push('<players>');
  for (const p of draft.players) parts.push(`<player id="${p.id}" name="${escapeXml(p.name)}" points="${p.points}"/>`);
  parts.push('</players>');
  for (const [name, value, attributes] of draft.headerFields ?? []) {
    const written = Object.entries(attributes ?? {})
      .map(([key, v]) => ` ${key}="${escapeXml(v)}"`)
      .join('');
    parts.push(`<${name}${written}>${escapeXml(value, false)}</${name}>`);
  }
  parts.push('</Header>');
  return parts.join('');
}

function startTag(move: GoFansDraftMove): string {
  let tag = `<move playerId="${move.playerId}"`;
  if (move.color) tag += ` color="${move.color}"`;
  if (move.point) tag += ` x="${move.point.x}" y="${move.point.y}"`;
  return tag;
}

/**
 * A GoFans document of `version`: for 1.1/2.1 `moves` is the flat list (their `next` is ignored);
 * for 1.2/2.2 the first moves of the tree, each move's `next` nested inside it. Iterative, so a
 * tree thousands of moves deep is written without recursion.
 */
export function writeGoFans(version: GoFansVersion, draft: GoFansDraft, moves: readonly GoFansDraftMove[]): string {
  const out: string[] = [];
  if (!versionTraits(version).nested) {
    for (const m of moves) out.push(`${startTag(m)}/>`);
  } else {
    const stack: (GoFansDraftMove | string)[] = [...moves].reverse();
    while (stack.length > 0) {
      const item = stack.pop()!;
      if (typeof item === 'string') {
        out.push(item);
        continue;
      }
      const next = item.next ?? [];
      if (next.length === 0) {
        out.push(`${startTag(item)}/>`);
        continue;
      }
      out.push(`${startTag(item)}>`);
      stack.push('</move>');
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Game><Publisher>GoFans</Publisher><Version>${version}</Version>${header(draft)}\n<Body>${out.join('')}</Body></Game>\n`;
}

export function writeGoFans11(draft: GoFansDraft, moves: readonly GoFansDraftMove[]): string {
  return writeGoFans('1.1', draft, moves);
}

export function writeGoFans12(draft: GoFansDraft, roots: readonly GoFansDraftMove[]): string {
  return writeGoFans('1.2', draft, roots);
}
