import type { WrittenText } from '../../plugin.js';
import type { SgfGameTree, SgfNode } from './syntax.js';

/** Game-information properties written in words about the whole game: its comment, name, place, annotator and source. */
const GAME_TEXTS = new Set(['GC', 'GN', 'PC', 'AN', 'SO']);

/**
 * The words a game tree writes, for the full-text index, in file order (the main line first, then
 * each variation where it branches off, depth first): every value of `C` at the ply of its node,
 * and every value of `GC`, `GN`, `PC`, `AN` and `SO` at ply 0. A node's ply is the plies of the
 * nodes from the root down to it and its own — `pliesOf` says how many a node makes, which only the
 * game knows — so a comment on a root without moves is at ply 0, a comment in a variation at the ply
 * its move has counted from the start. Untrimmed, unbounded: the plugin bounds them
 * (`families/texts.ts`), and this is read lazily, only as far as it needs. Iterative, as trees may
 * be deep.
 */
export function* sgfTexts(tree: SgfGameTree, pliesOf: (node: SgfNode) => number): Generator<WrittenText> {
  // The variations still to read, each with the plies before it; a sequence is followed without them.
  const pending: SgfNode[] = [tree.root];
  const before: number[] = [0];
  while (pending.length > 0) {
    let node = pending.pop()!;
    let ply = before.pop()!;
    for (;;) {
      ply += pliesOf(node);
      const properties = node.properties;
      for (let p = 0; p < properties.length; p++) {
        const property = properties[p];
        const at = property.id === 'C' ? ply : GAME_TEXTS.has(property.id) ? 0 : -1;
        if (at < 0) continue;
        for (const value of property.values) yield { ply: at, text: value.text };
      }
      const children = node.children;
      if (children.length === 0) break;
      for (let i = children.length - 1; i >= 1; i--) {
        pending.push(children[i]);
        before.push(ply);
      }
      node = children[0];
    }
  }
}
