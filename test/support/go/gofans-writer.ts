/**
 * Writes GoFans XML as the archive reads the format: a flat 1.1 list, or a 1.2 tree where the first
 * nested move continues the main line. For test fixtures, converters and benchmarks.
 */
export interface GoFansDraftMove {
  readonly playerId: number;
  readonly color?: 'black' | 'white';
  readonly point: { readonly x: number; readonly y: number } | null;
  /** 1.2 only: further moves after this one (first = main line, others = variations). */
  readonly next?: readonly GoFansDraftMove[];
}

export interface GoFansDraft {
  readonly boardSize?: number;
  readonly komi?: string;
  readonly players: readonly { readonly id: number; readonly name: string; readonly points: string }[];
  /** Further header elements, written after `<players>` in this order. */
  readonly headerFields?: readonly [string, string][];
}

export function escapeXml(value: string): string {
  // Control characters are not allowed in XML 1.0 text at all; they are dropped.
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function header(draft: GoFansDraft): string {
  const parts = ['<Header>'];
  if (draft.boardSize !== undefined) parts.push(`<boardSize>${draft.boardSize}</boardSize>`);
  if (draft.komi !== undefined) parts.push(`<komi>${draft.komi}</komi>`);
  parts.push('<players>');
  for (const p of draft.players) parts.push(`<player id="${p.id}" name="${escapeXml(p.name)}" points="${p.points}"/>`);
  parts.push('</players>');
  for (const [name, value] of draft.headerFields ?? []) parts.push(`<${name}>${escapeXml(value)}</${name}>`);
  parts.push('</Header>');
  return parts.join('');
}

function startTag(move: GoFansDraftMove): string {
  let tag = `<move playerId="${move.playerId}"`;
  if (move.color) tag += ` color="${move.color}"`;
  if (move.point) tag += ` x="${move.point.x}" y="${move.point.y}"`;
  return tag;
}

export function writeGoFans11(draft: GoFansDraft, moves: readonly GoFansDraftMove[]): string {
  const body = moves.map((m) => `${startTag(m)}/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Game><Publisher>GoFans</Publisher><Version>1.1</Version>${header(draft)}\n<Body>\n${body}\n</Body></Game>\n`;
}

/** Iterative, so a tree thousands of moves deep is written without recursion. */
export function writeGoFans12(draft: GoFansDraft, roots: readonly GoFansDraftMove[]): string {
  const out: string[] = [];
  const stack: (GoFansDraftMove | string)[] = [...roots].reverse();
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
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Game><Publisher>GoFans</Publisher><Version>1.2</Version>${header(draft)}\n<Body>${out.join('')}</Body></Game>\n`;
}
