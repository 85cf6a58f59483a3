import { SgfGameTree, SgfNode, escapeValue, simpleText } from '../../syntaxes/sgf/index.js';
import type { SgfGoGame } from './model.js';

/** Root properties the regenerated file writes itself, in this order, ahead of the others. */
const WRITTEN_FIRST = ['FF', 'CA', 'GM'];

/**
 * The game tree written back as SGF FF[4] in UTF-8, every node and variation kept: the root says
 * `FF[4]`, `CA[UTF-8]` and `GM[1]`; `KM` is written as points (Fox's `KM[650]` → `KM[6.5]`);
 * identifiers are upper-case (FF[3]'s `AddBlack` → `AB`); a `tt` pass on boards up to 19x19 is `[]`;
 * every other property is copied with its values, re-escaped. Go SGF caches nothing the replay
 * regenerates (no score or captures are written), so this is the file in its normal form.
 */
export function writeSgfGo(game: SgfGoGame): string {
  const tree: SgfGameTree = game.tree;
  return writeSgfTree<SgfNode>(tree.root, (item) => item.children, (item) => (item === tree.root ? rootNode(item, game) : node(item, game.width)));
}

const OPEN = Symbol('(');
const CLOSE = Symbol(')');

/**
 * Writes one game tree: each node's text (`;` and its properties), the first child continuing the
 * sequence, every further child a variation in parentheses. Iterative: `(` / `)` markers and nodes
 * on one stack, so deep trees need no recursion; a line break after every 16 nodes.
 */
export function writeSgfTree<N>(root: N, children: (node: N) => readonly N[], text: (node: N) => string): string {
  const out: string[] = ['('];
  const stack: (N | typeof OPEN | typeof CLOSE)[] = [root];
  let nodes = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === OPEN || item === CLOSE) {
      out.push(item === OPEN ? '(' : ')');
      continue;
    }
    out.push(text(item as N));
    const next = children(item as N);
    if (next.length === 1) {
      stack.push(next[0]);
    } else {
      for (let i = next.length - 1; i >= 0; i--) stack.push(CLOSE, next[i], OPEN);
    }
    if (++nodes % 16 === 0) out.push('\n');
  }
  out.push(')\n');
  return out.join('');
}

/** How every regenerated Go SGF starts its root node. */
export const SGF_GO_ROOT = ';FF[4]CA[UTF-8]GM[1]';

function rootNode(root: SgfNode, game: SgfGoGame): string {
  const parts = [SGF_GO_ROOT];
  for (const property of root.properties) {
    if (WRITTEN_FIRST.includes(property.id)) continue;
    if (property.id === 'KM' && game.komi !== null) {
      parts.push(`KM[${game.komi.value}]`);
      continue;
    }
    parts.push(property.id + property.values.map((v) => `[${escapeValue(v.text)}]`).join(''));
  }
  return parts.join('') + '\n';
}

function node(sgfNode: SgfNode, size: number): string {
  const parts = [';'];
  for (const property of sgfNode.properties) {
    const values = property.values.map((v) => {
      const text = (property.id === 'B' || property.id === 'W') && size <= 19 && simpleText(v.text) === 'tt' ? '' : v.text;
      return `[${escapeValue(text)}]`;
    });
    parts.push(property.id + values.join(''));
  }
  return parts.join('');
}
