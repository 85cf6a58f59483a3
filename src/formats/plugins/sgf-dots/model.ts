import type { Cell } from '../../../rules/dots/index.js';

/**
 * A Dots SGF game as the plugin understands it, built from the SGF syntax tree by `reader.ts`:
 * seat 0 is Black (`B`, `AB`, `PB`), seat 1 White.
 */
export interface SgfDotsMove {
  readonly seat: number;
  /** The value as written, without brackets. */
  readonly value: string;
  /** The dot placed, or null for an empty value (`B[]`: a finishing move). */
  readonly dot: Cell | null;
  /** The chains the file writes after the dot. */
  readonly chains: readonly (readonly Cell[])[];
  /** Where the value's text starts and ends in the file (0-based, the brackets excluded). */
  readonly start: number;
  readonly end: number;
}

export interface SgfSetupDot {
  readonly seat: number;
  readonly cell: Cell;
}

/** zagram's `TB`/`TW` after the last move: the territory chains of Black (seat 0) and White. */
export interface SgfTerritory {
  readonly seat: number;
  readonly chains: readonly (readonly Cell[])[];
}

export interface SgfDotsNode {
  readonly setup: readonly SgfSetupDot[];
  readonly moves: readonly SgfDotsMove[];
  readonly territory: readonly SgfTerritory[];
  /** The next node of the line, then the first node of each variation, in file order. */
  readonly children: readonly SgfDotsNode[];
}

export interface SgfDotsGame {
  readonly width: number;
  readonly height: number;
  /** Root properties as written (first value of each). */
  readonly root: Readonly<Record<string, string>>;
  readonly rootNode: SgfDotsNode;
}

/** The nodes of the main line: the root, then always the first child. */
export function mainLine(root: SgfDotsNode): SgfDotsNode[] {
  const nodes: SgfDotsNode[] = [];
  for (let n: SgfDotsNode | undefined = root; n !== undefined; n = n.children[0]) nodes.push(n);
  return nodes;
}

/** A line of play other than the main line: its nodes from the root, and how many lead to its branch. */
export interface SideLine {
  readonly nodes: readonly SgfDotsNode[];
  /** Nodes before the one where the line leaves the line it branches from (shared with that line). */
  readonly shared: number;
}

/**
 * Every line other than the main line, in file order: one per variation, followed through first
 * children to its end. Iterative, as a game may nest thousands of variations.
 */
export function sideLines(root: SgfDotsNode): SideLine[] {
  const lines: SideLine[] = [];
  const stack: { path: SgfDotsNode[]; branch: number }[] = [];
  // Variations hanging from path[from..]: the deepest one comes first in the file, so it goes on
  // the stack last; of one node's variations the first goes on last.
  const pushBranches = (path: readonly SgfDotsNode[], from: number): void => {
    for (let depth = from; depth < path.length; depth++) {
      const node = path[depth];
      for (let k = node.children.length - 1; k >= 1; k--) stack.push({ path: [...path.slice(0, depth + 1), node.children[k]], branch: depth + 1 });
    }
  };
  pushBranches(mainLine(root), 0);
  while (stack.length > 0) {
    const { path, branch } = stack.pop()!;
    for (let n = path[path.length - 1].children[0]; n !== undefined; n = n.children[0]) path.push(n);
    lines.push({ nodes: path, shared: branch });
    pushBranches(path, branch);
  }
  return lines;
}
