import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { SgfNode, parseSgf, splitSgf } from '../../../../src/formats/syntaxes/sgf/index.js';
import { filesUnder } from '../../../support/files.js';
import { FOX_GAMES, describeWithRealdata } from '../../../support/realdata.js';

const require = createRequire(import.meta.url);
// An independent SGF parser to compare with (a test dependency).
const sabaki = require('@sabaki/sgf') as { parse(text: string): SabakiNode[] };
interface SabakiNode {
  data: Record<string, string[]>;
  children: SabakiNode[];
}

// The project's copies of real files, the games written for the tests in the Fox client's shape, and
// the Fox games themselves, which may be read (from TABULA_REALDATA) but not copied.
const FIXTURES = 'test/fixtures/';
const folders = ['realdata/go/gnugo_regression_games', 'realdata/dots/bartek-d-kropla', 'realdata/dots/oppai-rs', 'realdata/dots/KvanTTT-Dots-Game-AI', 'written/fox-like'];
const files = folders.flatMap((folder) => filesUnder(FIXTURES + folder, '.sgf'));

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

/** Files whose trees differ from @sabaki/sgf's, and the nodes read; split() is checked on the way. */
function compareWithSabaki(paths: string[]): { differ: string[]; nodes: number } {
  const differ: string[] = [];
  let nodes = 0;
  for (const path of paths) {
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
  return { differ, nodes };
}

// Nodes read, rounded down: 148,276 in the project's files, 25,201 in the Fox games.
const NODES_SHIPPED = 148_000;
const NODES_FOX = 25_000;
const SAME_AS_SABAKI = 'reads every file to the same trees, properties and values as @sabaki/sgf (given the text in the charset chosen here)';

describe('the SGF syntax module on the real files of the project', () => {
  it('finds them: 673 GNU Go games, 67 Dots SGF files, 3 games written in the Fox client\'s shape', () => {
    expect(filesUnder(FIXTURES + 'realdata/go/gnugo_regression_games', '.sgf').length).toBe(673);
    expect(filesUnder(FIXTURES + 'written/fox-like', '.sgf').length).toBe(3);
    expect(files.length).toBe(673 + 67 + 3);
  });

  it(SAME_AS_SABAKI, () => {
    const { differ, nodes } = compareWithSabaki(files);
    expect(differ).toEqual([]);
    expect(nodes).toBeGreaterThan(NODES_SHIPPED);
  });
});

describeWithRealdata('the SGF syntax module on the Fox games (shared real data)', FOX_GAMES, (folder) => {
  const fox = filesUnder(folder, '.sgf');

  it('finds the 130 Fox games', () => {
    expect(fox.length).toBe(130);
  });

  it(SAME_AS_SABAKI, () => {
    const { differ, nodes } = compareWithSabaki(fox);
    expect(differ).toEqual([]);
    expect(nodes).toBeGreaterThan(NODES_FOX);
  });
});
