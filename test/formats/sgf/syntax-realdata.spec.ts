import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_LIMITS } from '../../../src/formats/limits.js';
import { SgfNode, parseSgf, splitSgf } from '../../../src/formats/sgf/index.js';
import { filesUnder } from '../../support/files.js';

const require = createRequire(import.meta.url);
// An independent SGF parser to compare with (a test dependency).
const sabaki = require('@sabaki/sgf') as { parse(text: string): SabakiNode[] };
interface SabakiNode {
  data: Record<string, string[]>;
  children: SabakiNode[];
}

// The project's copies of the real files, and the Fox games, which may be read but not copied.
const FIXTURES = 'test/fixtures/realdata/';
const SHARED = '/work/shared/realdata/';
const folders = ['go/gnugo_regression_games', 'dots/bartek-d-kropla', 'dots/oppai-rs', 'dots/KvanTTT-Dots-Game-AI'].map((folder) => FIXTURES + folder);
const files = [...folders, SHARED + 'go/fox-deepzengo'].flatMap((folder) => filesUnder(folder, '.sgf'));

/** Every node of a tree in depth-first order, as id → values with CR dropped (the other parser drops it). */
function flatten(root: SgfNode): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const data = new Map<string, string[]>();
    for (const p of node.properties) data.set(p.id, [...(data.get(p.id) ?? []), ...p.values.map((v) => v.text.replace(/\r/g, ''))]);
    out.push(JSON.stringify([...data].sort(([a], [b]) => a.localeCompare(b))) + `/${node.children.length}`);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

function flattenSabaki(root: SabakiNode): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(JSON.stringify(Object.entries(node.data).sort(([a], [b]) => a.localeCompare(b))) + `/${node.children.length}`);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

describe('the SGF syntax module on real files', () => {
  it('finds the corpus: 673 GNU Go games, 130 Fox games and the Dots SGF files', () => {
    expect(filesUnder(FIXTURES + 'go/gnugo_regression_games', '.sgf').length).toBe(673);
    expect(filesUnder(SHARED + 'go/fox-deepzengo', '.sgf').length).toBe(130);
    expect(files.length).toBeGreaterThan(803);
  });

  it('reads every file to the same trees, properties and values as @sabaki/sgf (given the text in the charset chosen here)', () => {
    const differ: string[] = [];
    let nodes = 0;
    for (const path of files) {
      const bytes = readFileSync(path);
      const collection = parseSgf(bytes, DEFAULT_LIMITS);
      // It stops at text before the first tree (GNU Go's ego2.sgf and ego3.sgf start with a note): from the first tree on.
      const text = new TextDecoder(collection.charset.encoding).decode(bytes.subarray(collection.trees[0].start));
      const theirs = sabaki.parse(text);
      const ours = collection.trees.map((tree) => flatten(tree.root));
      nodes += collection.trees.reduce((sum, tree) => sum + tree.nodes, 0);
      const mine = JSON.stringify(ours);
      const other = JSON.stringify(theirs.map(flattenSabaki));
      if (mine !== other) differ.push(path);
      // split() finds the same trees, each a "(…)" slice of the bytes.
      const ranges = splitSgf(bytes, DEFAULT_LIMITS);
      expect(ranges).toEqual(collection.trees.map((t) => ({ start: t.start, end: t.end })));
      for (const r of ranges) {
        expect(bytes[r.start]).toBe(0x28);
        expect(bytes[r.end - 1]).toBe(0x29);
      }
    }
    expect(differ).toEqual([]);
    expect(nodes).toBeGreaterThan(100_000);
  });
});
