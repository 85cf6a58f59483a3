import { escapeValue } from '../formats/syntaxes/sgf/values.js';

/**
 * The explorer as a dictionary (GET/POST /positions/tree): the moves played from a position, the
 * moves played after each of those, and so on, written as one game record with variations — SGF
 * for Go (GM[1]) and Dots (GM[40]), PDN for Russian draughts. Here are the tree and its writing;
 * the service fills it from the explorer's own search.
 */

/** A move of the tree: as the explorer gives it (in the queried board's orientation), and what its games did. */
export interface TreeNode {
  /** SGF letters for Go and Dots (`''` a pass), PDN squares for draughts (`c3-d4`, `c3:e5:g3`). */
  readonly move: string;
  /** The games that played it from the parent's position. */
  readonly games: number;
  /** Those games by result, as the explorer counts them. */
  readonly results: Readonly<Record<string, number>>;
  /** The first and last year one of them was played, where recorded. */
  readonly firstYear: number | null;
  readonly lastYear: number | null;
  readonly children: TreeNode[];
}

/** What the tree starts from and what was asked, for its root. */
export interface TreeRoot {
  readonly family: 'go' | 'dots' | 'checkers';
  readonly width: number;
  readonly height: number;
  /** Go and Dots: the setup of the position (AB, AW); empty for the empty board. */
  readonly setup: { readonly black: readonly string[]; readonly white: readonly string[] };
  /** Draughts: the FEN of the position, or null for the start. */
  readonly fen: string | null;
  /** The moves leading to the position from the start (a game's own line), before the tree; in the same notation as the tree. */
  readonly line: readonly string[];
  /** Who moves first in `line` (or at the position when `line` is empty): 0 black (Go, Dots) / white (draughts), 1 the other. */
  readonly firstMover: 0 | 1;
  /** The move number of the first move of `line` (draughts; 1 from the start). */
  readonly firstMoveNumber: number;
  /** The root's comment: what was asked. */
  readonly comment: string;
  /** The comment at the queried position (games reaching it). */
  readonly positionComment: string;
  readonly children: TreeNode[];
}

export const TREE_MEDIA_TYPES = { go: 'application/x-go-sgf', dots: 'application/x-go-sgf', checkers: 'application/x-pdn' } as const;

/** Whole numbers with thousands separators: 1,234. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A node's comment: `1,234 games · black won 52% · white won 46% · drawn 1% · 1998–2024`. Results
 * are the explorer's words (a winner's colour, `draw`, `unknown`); shares of all the games, rounded.
 */
export function nodeComment(games: number, results: Readonly<Record<string, number>>, firstYear: number | null, lastYear: number | null): string {
  const parts = [games === 1 ? '1 game' : `${count(games)} games`];
  const order = Object.entries(results).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  for (const [result, n] of order) {
    const share = `${Math.round((100 * n) / games)}%`;
    parts.push(result === 'draw' ? `drawn ${share}` : result === 'unknown' ? `no result ${share}` : `${result} won ${share}`);
  }
  if (firstYear !== null && lastYear !== null) parts.push(firstYear === lastYear ? `${firstYear}` : `${firstYear}–${lastYear}`);
  return parts.join(' · ');
}

/** How many nodes the tree holds, its root's moves and theirs. */
export function nodeCount(nodes: readonly TreeNode[]): number {
  let n = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    n++;
    stack.push(...node.children);
  }
  return n;
}

/** The tree written in its family's format. */
export function writeTree(root: TreeRoot): string {
  return root.family === 'checkers' ? writePdn(root) : writeSgf(root);
}

const text = (value: string) => `[${escapeValue(value)}]`;

/** One SGF game tree: a root with the board, the line to the position, then the moves as variations. */
function writeSgf(root: TreeRoot): string {
  const colour = (ply: number) => ((root.firstMover + ply) % 2 === 0 ? 'B' : 'W');
  const size = root.width === root.height ? `${root.width}` : `${root.width}:${root.height}`;
  let out = `(;GM[${root.family === 'go' ? 1 : 40}]FF[4]CA[UTF-8]AP[Tabula]SZ[${size}]`;
  if (root.setup.black.length > 0) out += `AB${root.setup.black.map((p) => `[${p}]`).join('')}`;
  if (root.setup.white.length > 0) out += `AW${root.setup.white.map((p) => `[${p}]`).join('')}`;
  if (root.line.length === 0 && (root.setup.black.length > 0 || root.setup.white.length > 0)) out += `PL[${colour(0)}]`;
  out += `C${text(root.line.length === 0 ? `${root.comment}\n\n${root.positionComment}` : root.comment)}`;
  root.line.forEach((move, i) => {
    out += `\n;${colour(i)}[${move}]`;
    if (i === root.line.length - 1) out += `C${text(root.positionComment)}`;
  });
  // Depth-first with an explicit stack: a deep tree must not overflow the call stack.
  type Step = { readonly node: TreeNode; readonly ply: number; readonly alone: boolean } | { readonly close: true };
  const steps: Step[] = [];
  const pushChildren = (children: readonly TreeNode[], ply: number) => {
    const alone = children.length === 1;
    for (let i = children.length - 1; i >= 0; i--) {
      if (!alone) steps.push({ close: true });
      steps.push({ node: children[i], ply, alone });
    }
  };
  pushChildren(root.children, root.line.length);
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('close' in step) {
      out += ')';
      continue;
    }
    const { node, ply, alone } = step;
    out += `${alone ? '\n' : '\n('};${colour(ply)}[${node.move}]C${text(nodeComment(node.games, node.results, node.firstYear, node.lastYear))}`;
    pushChildren(node.children, ply + 1);
  }
  return `${out})\n`;
}

/** A PDN comment's text: `}` would end it. */
const pdnComment = (value: string) => `{${value.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'))}}`;

/** One PDN game: the setup, the line to the position, then the moves with their alternatives in `( … )`. */
function writePdn(root: TreeRoot): string {
  const tags: [string, string][] = [
    ['Event', 'Tabula opening tree'],
    ['GameType', '25'],
    ['Result', '*'],
  ];
  if (root.fen !== null) tags.push(['SetUp', '1'], ['FEN', root.fen]);
  const header = tags.map(([name, value]) => `[${name} "${value.replace(/["\\]/g, (c) => `\\${c}`)}"]`).join('\n');
  // A ply counted from the line's first move: its number, and whether white (the first mover 0) makes it.
  const numbered = (ply: number, force: boolean) => {
    const sequence = root.firstMover + ply;
    const number = root.firstMoveNumber + Math.floor(sequence / 2);
    return sequence % 2 === 0 ? `${number}. ` : force ? `${number}... ` : '';
  };
  const words: string[] = [pdnComment(root.line.length === 0 ? `${root.comment} ${root.positionComment}` : root.comment)];
  root.line.forEach((move, i) => {
    words.push(`${numbered(i, i === 0)}${move}`);
    if (i === root.line.length - 1) words.push(pdnComment(root.positionComment));
  });
  // A node's moves: the first, its comment, its alternatives each in ( … ), then the first's own moves.
  // Every move is followed by its comment, so each black move is numbered `n...`.
  type Step = { readonly nodes: readonly TreeNode[]; readonly ply: number; readonly force: boolean } | { readonly word: string };
  const steps: Step[] = [{ nodes: root.children, ply: root.line.length, force: true }];
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('word' in step) {
      words.push(step.word);
      continue;
    }
    const { nodes, ply, force } = step;
    if (nodes.length === 0) continue;
    const [first, ...others] = nodes;
    words.push(`${numbered(ply, force)}${first.move}`, pdnComment(nodeComment(first.games, first.results, first.firstYear, first.lastYear)));
    // Pushed in reverse: the alternatives come out first, then the main move's continuation.
    steps.push({ nodes: first.children, ply: ply + 1, force: true });
    for (let i = others.length - 1; i >= 0; i--) {
      const other = others[i];
      steps.push({ word: ')' });
      steps.push({ nodes: other.children, ply: ply + 1, force: true });
      steps.push({ word: pdnComment(nodeComment(other.games, other.results, other.firstYear, other.lastYear)) });
      steps.push({ word: `(${numbered(ply, true)}${other.move}` });
    }
  }
  words.push('*');
  return `${header}\n\n${wrap(words)}\n`;
}

/** Words on lines of at most 80 characters (a longer word on its own line). */
function wrap(words: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
