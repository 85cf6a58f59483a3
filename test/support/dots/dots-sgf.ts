import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { parseSgf } from '../../../src/formats/syntaxes/sgf/index.js';
import { mainLine } from '../../../src/formats/plugins/sgf-dots/model.js';
import { readDotsGame } from '../../../src/formats/plugins/sgf-dots/read.js';

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

/**
 * The main line of the first game, read with the archive's own SGF reader (`src/formats/sgf`,
 * `src/formats/sgf-dots`). A root without `GM` is read as Dots; a root without `SZ` gives a field
 * of NaN x NaN and no moves (kropla's `trivial.sgf` is `(;)`).
 */
export function parseDotsSgf(text: string): DotsSgfGame {
  const collection = parseSgf(Buffer.from(text, 'utf8'), DEFAULT_LIMITS);
  const tree = collection.trees[0];
  if (tree === undefined) throw new Error('not an SGF game: no game tree');
  const gm = tree.root.properties.find((p) => p.id === 'GM')?.values[0]?.text;
  if (gm !== undefined && gm.trim() !== '40') throw new Error(`not a Dots SGF: GM[${gm}]`);
  if (!tree.root.properties.some((p) => p.id === 'SZ')) {
    const root = Object.fromEntries(tree.root.properties.map((p) => [p.id, p.values[0]?.text ?? '']));
    return { width: NaN, height: NaN, setup: [], moves: [], root };
  }
  const game = readDotsGame(collection, tree.root, true);
  const setup: SgfDot[] = [];
  const moves: SgfMove[] = [];
  const colour = (seat: number): 0 | 1 => (seat === 0 ? 0 : 1);
  for (const node of mainLine(game.rootNode)) {
    for (const dot of node.setup) setup.push({ colour: colour(dot.seat), row: dot.cell.row, col: dot.cell.col });
    for (const move of node.moves) {
      if (move.dot === null) continue; // an empty move places no dot
      const chains = move.chains.map((chain) => chain.map((c): [number, number] => [c.row, c.col]));
      moves.push({ colour: colour(move.seat), row: move.dot.row, col: move.dot.col, chains });
    }
  }
  return { width: game.width, height: game.height, setup, moves, root: game.root };
}
