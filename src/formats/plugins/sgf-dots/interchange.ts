import { doesNotFit } from '../../../core/errors.js';
import { refuseBranchesAndSnapshots } from '../../families/dots/index.js';
import type { DotsInterchangeGame, DotsInterchangeMove, DotsInterchangeResult, DotsSetupDot, DotsVariation } from '../../families/dots/index.js';
import { escapeValue, SGF_PLAYER_COLOURS, simpleText } from '../../syntaxes/sgf/index.js';
import type { FormatDescriptor } from '../../plugin.js';
import type { SgfDotsGame, SgfDotsNode } from './model.js';
import { LARGEST_SGF_SIDE, parseResult, pointName, writeSize } from './notation.js';

/*
 * SGF for Dots and the family's interchange model. Seat 0 is Black, seat 1 White. The root's
 * properties that the model names (SZ, PB/PW, BR/WR, DT, EV, RU, RE) are read into its fields, the
 * other root properties are kept as `SGF:<id>` extras; node properties other than moves and setup
 * (comments, clocks, zagram's territory TB/TW) are not part of the model.
 */

const MODELLED = new Set(['GM', 'FF', 'CA', 'SZ', 'PB', 'PW', 'BR', 'WR', 'DT', 'EV', 'RU', 'RE', 'AB', 'AW', 'B', 'W', 'TB', 'TW']);
const EXTRA = 'SGF:';

/** A read Dots SGF game (its first game tree) as the family's game; chains written after moves are caches. */
export function sgfToInterchange(game: SgfDotsGame): DotsInterchangeGame {
  const text = (id: string): string | null => {
    const value = game.root[id];
    return value === undefined || value.trim() === '' ? null : simpleText(value);
  };
  const extra: Record<string, string> = {};
  for (const [id, value] of Object.entries(game.root)) if (!MODELLED.has(id)) extra[EXTRA + id] = value;
  const main = line(game.rootNode, true);
  return {
    family: 'dots',
    field: { width: game.width, height: game.height, stated: true },
    players: [0, 1].map((seat) => ({
      name: text(seat === 0 ? 'PB' : 'PW'),
      externalId: null,
      rating: text(seat === 0 ? 'BR' : 'WR'),
      colour: SGF_PLAYER_COLOURS[seat],
    })),
    rules: { extraMove: null, crossStart: null, text: text('RU') },
    setup: game.rootNode.setup.map((d) => ({ seat: d.seat, cell: d.cell })),
    moves: main.moves,
    variations: main.variations,
    snapshot: null,
    result: game.root.RE === undefined ? null : result(game.root.RE),
    date: text('DT'),
    event: text('EV'),
    extra,
  };
}

function result(text: string): DotsInterchangeResult | null {
  const read = parseResult(text);
  const written = text.trim();
  if (read === null) return { kind: 'unknown', winner: null, margin: null, text: written };
  switch (read.kind) {
    case 'score':
      return { kind: 'score', winner: read.winner, margin: read.margin, text: written };
    case 'win':
    case 'resign':
    case 'time':
    case 'forfeit':
      return { kind: read.kind, winner: read.winner, margin: null, text: written };
    case 'draw':
      return { kind: 'draw', winner: null, margin: 0, text: written };
    default:
      return { kind: read.kind, winner: null, margin: null, text: written };
  }
}

/**
 * A line from `start` through first children: its moves (setup after the root as `add`, an empty
 * move that ends the line as grounding, any other as a pass) and the variations hanging from it.
 * Recursion follows the nesting of variations only, which `parseSgf` bounds (MAX_VARIATION_DEPTH).
 */
function line(start: SgfDotsNode, isRoot: boolean): { moves: DotsInterchangeMove[]; variations: DotsVariation[] } {
  const moves: DotsInterchangeMove[] = [];
  const variations: DotsVariation[] = [];
  for (let node: SgfDotsNode | undefined = start, first = isRoot; node !== undefined; node = node.children[0], first = false) {
    if (!first) for (const d of node.setup) moves.push({ kind: 'add', seat: d.seat, cell: d.cell });
    for (const m of node.moves) moves.push(m.dot === null ? { kind: 'pass', seat: m.seat } : { kind: 'dot', seat: m.seat, cell: m.dot });
    for (const child of node.children.slice(1)) variations.push({ at: moves.length, ...line(child, false) });
  }
  const last = moves.length - 1;
  if (last >= 0 && moves[last].kind === 'pass') moves[last] = { kind: 'ground', seat: moves[last].seat };
  return { moves, variations };
}

/**
 * The game as a Dots SGF text without chains (the plugin's `regenerate()` writes them, and the
 * numeric `RE`, from the replay). A `score` or `draw` result is written as `RE[0]`, which
 * regeneration replaces with the replayed captures' difference. VK stops are left out (SGF has no
 * such move: the player who stopped simply moves no more) and the game's result then says the
 * captures decide.
 */
export function interchangeToSgfText(game: DotsInterchangeGame, format: FormatDescriptor): string {
  refuseBranchesAndSnapshots(game, format);
  const { width, height } = game.field;
  if (width > LARGEST_SGF_SIDE || height > LARGEST_SGF_SIDE) {
    throw doesNotFit(`a field of ${width}x${height}: SGF letters address ${LARGEST_SGF_SIDE} points a side`, format);
  }
  const root: string[] = ['GM[40]', 'FF[4]', 'CA[UTF-8]', `SZ[${writeSize(width, height)}]`];
  const prop = (id: string, value: string | null): void => {
    if (value !== null && value !== '') root.push(`${id}[${escapeValue(value)}]`);
  };
  game.players.forEach((player, seat) => {
    prop(seat === 0 ? 'PB' : 'PW', player.name);
    prop(seat === 0 ? 'BR' : 'WR', player.rating);
  });
  prop('DT', game.date);
  prop('EV', game.event);
  prop('RU', game.rules.text);
  prop('RE', resultText(game.result));
  for (const [key, value] of Object.entries(game.extra)) if (key.startsWith(EXTRA)) prop(key.slice(EXTRA.length), value);
  const setup = (dots: readonly DotsSetupDot[]): string =>
    [0, 1]
      .map((seat) => dots.filter((d) => d.seat === seat).map((d) => `[${pointName(d.cell)}]`).join(''))
      .map((values, seat) => (values === '' ? '' : `${seat === 0 ? 'AB' : 'AW'}${values}`))
      .join('');
  const off = (what: string): never => {
    throw doesNotFit(what, format);
  };
  const all = (moves: readonly DotsInterchangeMove[], variations: readonly DotsVariation[]): void => {
    moves.forEach((m, i) => {
      if ((m.kind === 'dot' || m.kind === 'add') && (m.cell.row >= LARGEST_SGF_SIDE || m.cell.col >= LARGEST_SGF_SIDE)) {
        off(`a dot at row ${m.cell.row + 1}, column ${m.cell.col + 1}, past the ${LARGEST_SGF_SIDE} points SGF letters address`);
      }
      if (m.kind === 'pass' && moves.slice(i + 1).every((n) => n.kind === 'stop')) off(`move ${i + 1}, a pass that ends its line: SGF reads an empty move there as grounding`);
      if (m.kind === 'ground' && moves.slice(i + 1).some((n) => n.kind !== 'stop')) off(`move ${i + 1}, grounding before the end of its line: SGF reads an empty move there as a pass`);
    });
    for (const v of variations) all(v.moves, v.variations);
  };
  all(game.moves, game.variations);
  return `(;${root.join('')}${setup(game.setup)}${writeLine(game.moves, game.variations)})\n`;
}

function resultText(result: DotsInterchangeResult | null): string | null {
  if (result === null) return null;
  const colour = (seat: number | null): string => (seat === 1 ? 'W' : 'B');
  switch (result.kind) {
    case 'score':
    case 'draw':
      return '0';
    case 'win':
      return `${colour(result.winner)}+`;
    case 'resign':
      return `${colour(result.winner)}+R`;
    case 'time':
      return `${colour(result.winner)}+T`;
    case 'forfeit':
      return `${colour(result.winner)}+F`;
    case 'void':
      return 'Void';
    case 'unknown':
      return result.text ?? '?';
  }
}

function node(move: DotsInterchangeMove): string {
  const id = move.seat === 0 ? 'B' : 'W';
  switch (move.kind) {
    case 'dot':
      return `;${id}[${pointName(move.cell)}]`;
    case 'add':
      return `;A${id}[${pointName(move.cell)}]`;
    case 'pass':
    case 'ground':
      return `;${id}[]`;
    case 'stop':
      return '';
  }
}

/** A line's nodes; where variations branch, the rest of the line and each variation as subtrees. */
function writeLine(moves: readonly DotsInterchangeMove[], variations: readonly DotsVariation[]): string {
  const out: string[] = [];
  for (let i = 0; i <= moves.length; i++) {
    const here = variations.filter((v) => v.at === i);
    if (here.length > 0) {
      const later = variations.filter((v) => v.at > i).map((v) => ({ ...v, at: v.at - i }));
      // An empty rest of the line still needs a node, or the first variation would become the main line.
      const rest = writeLine(moves.slice(i), later) || ';';
      out.push(`(${rest})`, ...here.map((v) => `(${writeLine(v.moves, v.variations) || ';'})`));
      break;
    }
    if (i < moves.length) out.push(node(moves[i]));
  }
  return out.join('');
}
