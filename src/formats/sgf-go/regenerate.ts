import { SgfGameTree, SgfNode, escapeValue, simpleText } from '../sgf/index.js';
import type { SgfGoGame } from './game.js';

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
  const out: string[] = ['('];
  // Iterative: "(" / ")" markers and nodes on one stack, so deep trees need no recursion.
  const stack: (SgfNode | '(' | ')')[] = [tree.root];
  let nodes = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === '(' || item === ')') {
      out.push(item);
      continue;
    }
    out.push(item === tree.root ? rootNode(item, game) : node(item, game.width));
    const children = item.children;
    if (children.length === 1) {
      stack.push(children[0]);
    } else {
      for (let i = children.length - 1; i >= 0; i--) stack.push(')', children[i], '(');
    }
    if (++nodes % 16 === 0) out.push('\n');
  }
  out.push(')\n');
  return out.join('');
}

function rootNode(root: SgfNode, game: SgfGoGame): string {
  const parts = [';FF[4]CA[UTF-8]GM[1]'];
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
