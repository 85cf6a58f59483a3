/**
 * Reads the main line of an SGF game (FF[4]): the root sequence, then always the first variation.
 * Enough for converting GNU Go's regression games; not a general SGF library.
 */
export interface SgfMove {
  readonly color: 'black' | 'white';
  /** null for a pass (`B[]`, or `B[tt]` on boards up to 19x19). */
  readonly point: { readonly x: number; readonly y: number } | null;
}

export interface SgfMainLine {
  readonly size: number;
  /** Property values of the root node (the first node), first value of each. */
  readonly root: Readonly<Record<string, string>>;
  /** Whether any node of the main line sets up stones (AB, AW, AE). */
  readonly hasSetup: boolean;
  readonly moves: readonly SgfMove[];
}

export function readSgfMainLine(text: string): SgfMainLine {
  const nodes: Record<string, string[]>[] = [];
  let i = text.indexOf('(');
  if (i < 0) throw new Error('no game tree');
  let identifier = '';
  let property = '';
  let node: Record<string, string[]> | null = null;
  // The first ')' outside a value ends the main line: it closes the first variation at its deepest.
  for (i = i + 1; i < text.length; i++) {
    const c = text[i];
    if (c === ')') break;
    if (c === ';') {
      node = {};
      nodes.push(node);
      identifier = '';
      property = '';
    } else if (c === '[') {
      // A value right after another one (AB[aa][bb]) belongs to the same property.
      if (identifier !== '') property = identifier;
      identifier = '';
      let value = '';
      for (i = i + 1; i < text.length && text[i] !== ']'; i++) {
        if (text[i] === '\\') i++;
        value += text[i];
      }
      if (node && property) (node[property] ??= []).push(value);
    } else if (c >= 'A' && c <= 'Z') {
      identifier += c; // FF[3] lower-case letters inside identifiers are dropped
    }
  }
  const root = Object.fromEntries(Object.entries(nodes[0] ?? {}).map(([k, v]) => [k, v[0]]));
  const sizeText = root.SZ ?? '19';
  const size = Number(sizeText.split(':')[0]);
  if (!Number.isInteger(size) || (sizeText.includes(':') && sizeText.split(':')[1] !== sizeText.split(':')[0])) {
    throw new Error(`board size ${sizeText} is not a square board`);
  }
  const hasSetup = nodes.some((n) => n.AB !== undefined || n.AW !== undefined || n.AE !== undefined);
  const moves: SgfMove[] = [];
  for (const n of nodes) {
    for (const [key, color] of [['B', 'black'], ['W', 'white']] as const) {
      const value = n[key]?.[0];
      if (value === undefined) continue;
      moves.push({ color, point: toPoint(value.trim(), size) });
    }
  }
  return { size, root, hasSetup, moves };
}

function toPoint(value: string, size: number): SgfMove['point'] {
  if (value === '' || (value === 'tt' && size <= 19)) return null;
  return { x: value.charCodeAt(0) - 97, y: value.charCodeAt(1) - 97 };
}
