import { BLACK, Cell, EMPTY, GoMoveNode, GoPosition, GoSetupPoint, MAX_BOARD_SIZE, MIN_BOARD_SIZE, Stone, WHITE } from '../../../rules/go/index.js';
import { FormatError } from '../../../core/errors.js';
import { GoResult, GoPoint, parseGoResult } from '../../families/go/index.js';
import { ReadLimits, checkBoard, pliesExceeded } from '../../../core/limits.js';
import { NO_ITEMS, withItem } from '../../text/lists.js';
import { SgfCollection, SgfGameTree, SgfNode, SgfProperty, SgfValue, composeParts, firstText, letterIndex, propertyValues, simpleText } from '../../syntaxes/sgf/index.js';
import { Komi, firstDate, parseKomi } from './properties.js';

/** A move (`B`/`W` property) of the game tree, for the rules engine, with where the file writes it. */
export interface SgfGoMove extends GoMoveNode {
  readonly color: 'black' | 'white';
  readonly stone: Stone;
  readonly point: GoPoint | null;
  readonly children: SgfGoMove[];
  readonly setup?: readonly GoSetupPoint[];
  /** Byte offset of the move's value in the file. */
  readonly offset: number;
}

export interface SgfGoGame {
  readonly tree: SgfGameTree;
  readonly width: number;
  readonly height: number;
  /** Root properties as SimpleText (first value of each), for the index. */
  readonly text: (id: string) => string | null;
  readonly komi: Komi | null;
  readonly handicap: number | null;
  readonly result: GoResult | null;
  readonly datePlayed: string | null;
  /** The position the root node sets up (handicap stones…), null when it sets up nothing or the board is not replayable. */
  readonly initial: GoPosition | null;
  readonly setup: { readonly black: readonly GoPoint[]; readonly white: readonly GoPoint[] };
  /** First moves of the tree: the first starts the main line, the others are alternatives to it. */
  readonly roots: SgfGoMove[];
  /** Moves in the whole tree. */
  readonly moves: number;
}

/** Why a Go game cannot be replayed though its file is fine (stored, not indexed); null when it can. */
export function unreplayable(tree: SgfGameTree): string | null {
  const { width, height } = boardSize(tree.root, null);
  if (width !== height) return `the board is ${width}x${height}: the Go rules engine replays square boards only`;
  if (width < MIN_BOARD_SIZE || width > MAX_BOARD_SIZE) return `the board is ${width}x${height}: the Go rules engine replays sides ${MIN_BOARD_SIZE} to ${MAX_BOARD_SIZE}`;
  return null;
}

/** `SZ[n]` or `SZ[w:h]`; 19 when absent. A value that is not a size is a FormatError. */
export function boardSize(root: SgfNode, collection: SgfCollection | null): { width: number; height: number; value: SgfValue | null } {
  const value = propertyValues(root, 'SZ')[0] ?? null;
  if (value === null) return { width: 19, height: 19, value };
  const parts = composeParts(value) ?? [value.text, value.text];
  const [width, height] = parts.map((p) => (/^\s*\d{1,4}\s*$/.test(p) ? Number(p) : NaN));
  if (!(width >= 1 && height >= 1)) {
    const where = collection ? collection.locate(value.start) : {};
    throw FormatError.at(`SGF: SZ[${value.text}] is not a board size (n or columns:rows)`, where);
  }
  return { width, height, value };
}

/**
 * The Go game of one game tree, on a board of any size (`initial` is null where the engine cannot
 * replay it: a board that is not square or not 2..25; {@link unreplayable} says so). Setup
 * points (`AB`, `AW`, `AE`, also as `aa:cc` rectangles) of the root make the initial position; those
 * of a node without a move are carried to the next move of each line below it. A node's moves
 * (`B`, `W`; a node holding both is read as both, in the order written) become plies. A pass is `[]`
 * or, on boards up to 19x19, `[tt]`.
 */
export function buildGame(collection: SgfCollection, tree: SgfGameTree, limits: ReadLimits): SgfGoGame {
  const size = boardSize(tree.root, collection);
  checkBoard(limits, size.width, size.height, size.value ? collection.locate(size.value.start) : {});
  const { width, height } = size;
  const fail = (message: string, offset: number): never => {
    throw FormatError.at(`SGF: ${message}`, collection.locate(offset));
  };
  const point = (text: string): GoPoint | null => {
    if (text.length !== 2) return null;
    const x = letterIndex(text[0]);
    const y = letterIndex(text[1]);
    return x < 0 || y < 0 ? null : { x, y };
  };
  const movePoint = (value: SgfValue, id: string): GoPoint | null => {
    const text = value.text.trim();
    if (text === '' || (text === 'tt' && width <= 19 && height <= 19)) return null;
    return point(text) ?? fail(`${id}[${value.text}] is not a move: two letters a-z/A-Z, or [] for a pass${dotsHint(text)}`, value.start);
  };
  const setupPoints = (node: SgfNode): GoSetupPoint[] => {
    if (!node.properties.some(isSetup)) return NO_SETUP;
    const out: GoSetupPoint[] = [];
    for (const [id, cell] of SETUP_PROPERTIES) {
      for (const value of propertyValues(node, id)) {
        const parts = composeParts(value) ?? [value.text, value.text];
        const [from, to] = parts.map((p) => point(p.trim()));
        if (from === null || to === null) fail(`${id}[${value.text}] is not a point or a rectangle of points`, value.start);
        for (let y = Math.min(from!.y, to!.y); y <= Math.max(from!.y, to!.y); y++) {
          for (let x = Math.min(from!.x, to!.x); x <= Math.max(from!.x, to!.x); x++) {
            if (x >= width || y >= height) fail(`${id}[${value.text}] sets up a point off the ${width}x${height} board`, value.start);
            out.push({ x, y, cell });
          }
        }
      }
    }
    return out;
  };

  const rootSetup = setupPoints(tree.root);
  let initial: GoPosition | null = null;
  if (rootSetup.length > 0 && unreplayable(tree) === null) {
    initial = new GoPosition(width);
    for (const p of rootSetup) initial.setStone(p.x, p.y, p.cell);
  }
  const roots: SgfGoMove[] = [];
  let moves = 0;
  const attach = (parent: BuildingMove | null, move: SgfGoMove): void => {
    if (parent === null) roots.push(move);
    else parent.children = withItem(parent.children, move);
  };
  // Depth-first, iteratively: the move a node's moves hang from (null: the first moves), and setup
  // still waiting for a move. A node with one child goes straight on to it; only where a node has
  // several does each wait its turn here.
  const pending: { node: SgfNode; parent: BuildingMove | null; setup: readonly GoSetupPoint[] }[] = [];
  const pushChildren = (node: SgfNode, parent: BuildingMove | null, setup: readonly GoSetupPoint[]) => {
    for (let i = node.children.length - 1; i >= 0; i--) pending.push({ node: node.children[i], parent, setup });
  };
  if (hasMove(tree.root)) pending.push({ node: tree.root, parent: null, setup: NO_SETUP });
  else pushChildren(tree.root, null, NO_SETUP);
  while (pending.length > 0) {
    let { node, parent, setup: carried } = pending.pop()!;
    for (;;) {
      const own = node === tree.root ? NO_SETUP : setupPoints(node);
      let setup = carried.length > 0 || own.length > 0 ? [...carried, ...own] : carried;
      // A node's moves (`B`, `W`; each property's first value) in the order written, each after the one before.
      for (const property of node.properties) {
        const id = property.id;
        if ((id !== 'B' && id !== 'W') || property.values.length === 0) continue;
        const value = property.values[0];
        if (++moves > limits.maxPlies) throw pliesExceeded(limits, collection.locate(value.start));
        const move: BuildingMove = {
          color: id === 'B' ? 'black' : 'white',
          stone: id === 'B' ? BLACK : WHITE,
          point: movePoint(value, id),
          children: NO_ITEMS,
          offset: value.start,
          setup: setup.length > 0 ? setup : undefined,
        };
        attach(parent, move);
        parent = move;
        setup = NO_SETUP;
      }
      if (node.children.length !== 1) {
        pushChildren(node, parent, setup);
        break;
      }
      node = node.children[0];
      carried = setup;
    }
  }

  const root = tree.root;
  const text = (id: string): string | null => {
    const value = firstText(root, id);
    if (value === null) return null;
    const simple = simpleText(value);
    return simple === '' ? null : simple;
  };
  const komiText = text('KM');
  const resultText = text('RE');
  const dateText = text('DT');
  const handicapText = text('HA');
  const setupOf = (cell: Cell) => rootSetup.filter((p) => p.cell === cell).map(({ x, y }) => ({ x, y }));
  return {
    tree,
    width,
    height,
    text,
    komi: komiText === null ? null : parseKomi(komiText),
    handicap: handicapText !== null && /^\d+$/.test(handicapText) ? Number(handicapText) : null,
    result: resultText === null ? null : parseGoResult(resultText),
    datePlayed: dateText === null ? null : firstDate(dateText),
    initial,
    setup: { black: setupOf(BLACK), white: setupOf(WHITE) },
    roots,
    moves,
  };
}

const SETUP_PROPERTIES = [
  ['AE', EMPTY],
  ['AB', BLACK],
  ['AW', WHITE],
] as const;

const isSetup = (property: SgfProperty): boolean => SETUP_PROPERTIES.some(([id]) => id === property.id);

/** What a node without setup properties sets up (shared: never changed). */
const NO_SETUP: GoSetupPoint[] = [];

/**
 * What to tell the uploader when a move is written as Dots SGF writes one (a point, a dot, the
 * surrounding chain: `ab.abbccbba`): a Dots file without `GM[40]` is Go by SGF's default, and only
 * naming its format reads it as Dots.
 */
function dotsHint(text: string): string {
  return /^[a-zA-Z]{2}\.[a-zA-Z]/.test(text)
    ? ' (a point, a dot and a chain of points is a Dots move with its surround: a Dots game whose root has no GM[40] is read as Go; send it with format=SGF/FF4-Dots)'
    : '';
}

/** Whether the node holds a move (a `B` or `W` with a value). */
function hasMove(node: SgfNode): boolean {
  return node.properties.some((property) => (property.id === 'B' || property.id === 'W') && property.values.length > 0);
}

/** A move while the tree is built (its children, begun as NO_ITEMS, are replaced as they come: see withItem). */
type BuildingMove = { -readonly [K in keyof SgfGoMove]: SgfGoMove[K] };
