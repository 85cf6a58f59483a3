/**
 * Reads the main line of a Dots SGF game (`GM[40]`, as written by zagram.org, the Kropki app,
 * szkrab.net.pl and playdots.ru): field size, setup dots (`AB`/`AW`, e.g. a cross start) and moves.
 * Coordinates: `a`-`z` = 0-25, `A`-`Z` = 26-51, first letter the column. A move may carry the
 * chains it closed after a dot: `W[hj.gihjijjikhkgjfighhgi]` (several chains: more dots).
 */
export interface SgfDot {
  /** 0 for Black (`B`), 1 for White (`W`). */
  readonly colour: 0 | 1;
  readonly row: number;
  readonly col: number;
}

export interface SgfMove extends SgfDot {
  /** The chains written after the move, each as 0-based [row, col] points; empty when none. */
  readonly chains: readonly (readonly (readonly [number, number])[])[];
}

export interface DotsSgfGame {
  readonly width: number;
  readonly height: number;
  readonly setup: readonly SgfDot[];
  readonly moves: readonly SgfMove[];
  /** Root properties as written (first value), e.g. `RU`, `AP`, `RE`. */
  readonly root: Readonly<Record<string, string>>;
}

type Node = { id: string; values: string[] }[];

export function coordinate(char: string): number {
  const c = char.charCodeAt(0);
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 65 && c <= 90) return c - 65 + 26;
  throw new Error(`bad SGF Dots coordinate ${JSON.stringify(char)}`);
}

/**
 * Nodes of the main line: the first variation at every branch. Reading in text order, the main
 * line is every node before the first ')' (a branch's first variation comes first).
 */
function mainLine(text: string): Node[] {
  const nodes: Node[] = [];
  let i = text.indexOf('(');
  if (i < 0) throw new Error('not an SGF game: no "("');
  let current: Node | null = null;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '[') {
      const end = closingBracket(text, i);
      if (current !== null && current.length > 0) current[current.length - 1].values.push(unescape(text.slice(i + 1, end)));
      i = end + 1;
      continue;
    }
    if (ch === ')') break;
    if (ch === ';') {
      current = [];
      nodes.push(current);
    } else if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (j < text.length && /[A-Za-z]/.test(text[j])) j++;
      if (current !== null) current.push({ id: text.slice(i, j).replace(/[a-z]/g, ''), values: [] });
      i = j;
      continue;
    }
    i++;
  }
  return nodes;
}

function closingBracket(text: string, open: number): number {
  for (let k = open + 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === ']') return k;
  }
  throw new Error(`unterminated SGF value at offset ${open}`);
}

function unescape(value: string): string {
  return value.replace(/\\(.)/gs, '$1');
}

function point(value: string): [number, number] {
  return [coordinate(value[1]), coordinate(value[0])];
}

export function parseDotsSgf(text: string): DotsSgfGame {
  const nodes = mainLine(text);
  const root: Record<string, string> = {};
  for (const prop of nodes[0] ?? []) if (!(prop.id in root)) root[prop.id] = prop.values[0] ?? '';
  if (root.GM !== undefined && root.GM !== '40') throw new Error(`not a Dots SGF: GM[${root.GM}]`);
  const size = (root.SZ ?? '').split(':').map(Number);
  const width = size[0];
  const height = size.length > 1 ? size[1] : size[0];
  const setup: SgfDot[] = [];
  const moves: SgfMove[] = [];
  for (const node of nodes) {
    for (const prop of node) {
      if (prop.id === 'AB' || prop.id === 'AW') {
        const colour = prop.id === 'AB' ? 0 : 1;
        for (const value of prop.values) {
          const [row, col] = point(value);
          setup.push({ colour, row, col });
        }
      } else if (prop.id === 'B' || prop.id === 'W') {
        const colour = prop.id === 'B' ? 0 : 1;
        // playdots.ru writes several dots in one property (`W[qh][qi]`): one move each.
        for (const value of prop.values) {
          if (value.length < 2) continue; // a pass or an empty move
          const [head, ...rest] = value.split('.');
          const [row, col] = point(head);
          const chains = rest
            .filter((chain) => chain.length >= 2)
            .map((chain) => {
              const cells: [number, number][] = [];
              for (let k = 0; k + 1 < chain.length; k += 2) cells.push(point(chain.slice(k, k + 2)));
              return cells;
            });
          moves.push({ colour, row, col, chains });
        }
      }
    }
  }
  return { width, height, setup, moves, root };
}
