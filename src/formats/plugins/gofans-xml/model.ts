import { BLACK, GoMoveNode, Stone, WHITE } from '../../../rules/go/index.js';
import { FormatError } from '../../../core/errors.js';
import { ReadLimits, checkBoard, pliesExceeded, variationDepthExceeded } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { GoFansVersion, versionTraits } from './schemas.js';
import { XmlElement, attribute, childElements, collapseXmlSpace, contentEnd, trimXmlSpace } from './xml-tree.js';

export interface GoFansPlayer {
  /** 0-based position in `<players>`. */
  readonly seat: number;
  /** The `id` attribute as written (a non-negative integer). */
  readonly id: string;
  readonly name: string;
  /** The file's cached Points, as written and as a number; -1 = resigned. */
  readonly pointsText: string;
  readonly points: number;
  readonly element: XmlElement;
}

export interface GoFansPoint {
  readonly x: number;
  readonly y: number;
}

/** A `<move>`: a Go move for the engine, plus what the file says of it. */
export interface GoFansMove extends GoMoveNode {
  readonly seat: number;
  /** Mutable only while the game is built: a stone without a colour gets its player's colour. */
  color: 'black' | 'white' | null;
  stone: Stone | null;
  /** The file's own `<removes>` (2.x), null where the version has none. */
  readonly removes: readonly GoFansPoint[] | null;
  readonly element: XmlElement;
  readonly removesElement: XmlElement | null;
  readonly children: GoFansMove[];
}

export interface GoFansGame {
  readonly publisher: string;
  readonly version: GoFansVersion;
  readonly boardSize: number;
  /** Komi as written (null when absent) and as a number (0 when absent). */
  readonly komiText: string | null;
  readonly komi: number;
  readonly players: readonly GoFansPlayer[];
  /** The moves directly in `<Body>`: the first starts the main line, others are alternatives to it. */
  readonly roots: readonly GoFansMove[];
  /** Header elements after `<players>` (event, date…): name → text, or their XML when they have children. */
  readonly headerFields: Readonly<Record<string, string>>;
  readonly root: XmlElement;
  readonly versionElement: XmlElement;
}

const DEFAULT_BOARD_SIZE = 19;

/**
 * Builds the typed game from a document that passed its version's XSD. What XSD 1.0 cannot say is
 * checked here and is a FormatError at the element: x without y, a stone without a colour that
 * cannot be inferred. Iterative, since 1.2/2.2 nest one element per move. The bounds are checked
 * again here, on the tree itself, before a move or a board is built past them (the plugin's cheap
 * scan has usually refused such a file already).
 */
export function buildGoFansGame(text: string, root: XmlElement, version: GoFansVersion, limits: ReadLimits): GoFansGame {
  const [publisherElement, versionElement, header, body] = root.children;
  const players = childElements(header.children.find((child) => child.name === 'players')!, 'player').map(
    (element, seat): GoFansPlayer => {
      const pointsText = attribute(element, 'points')!.trim();
      return { seat, id: canonicalInteger(attribute(element, 'id')!), name: attribute(element, 'name')!, pointsText, points: Number(pointsText), element };
    },
  );
  const seatById = new Map(players.map((p) => [p.id, p.seat]));
  // The XSD fixes boardSize?, komi?, players first; anything after players is a free field, even
  // an element that happens to be called boardSize.
  const playersIndex = header.children.findIndex((child) => child.name === 'players');
  const fixed = header.children.slice(0, playersIndex);
  const boardSizeElement = fixed.find((child) => child.name === 'boardSize');
  const komiElement = fixed.find((child) => child.name === 'komi');
  const komiText = komiElement ? komiElement.text.trim() : null;
  const boardSize = boardSizeElement ? Number(boardSizeElement.text.trim()) : DEFAULT_BOARD_SIZE;
  checkBoard(limits, boardSize, boardSize, boardSizeElement ? locate(text, boardSizeElement.start) : {});

  // A Map, then own properties: a field named like `__proto__` stays a field.
  const fields = new Map<string, string>();
  for (const child of header.children.slice(playersIndex + 1)) {
    const value = child.children.length > 0 ? text.slice(child.startTagEnd, contentEnd(text, child)) : trimXmlSpace(child.text);
    const seen = fields.get(child.name);
    fields.set(child.name, seen === undefined ? value : `${seen}; ${value}`);
  }
  const headerFields = Object.fromEntries(fields);

  const traits = versionTraits(version);
  const inferredColors = new Map<number, 'black' | 'white'>();
  const roots: GoFansMove[] = [];
  // 1.x/2.1 flat lists become a single line: each move is the follow-up of the one before.
  let previous: GoFansMove | null = null;
  // `depth`: how deeply the move's line is nested in variations (0 on the main line).
  const pending: { element: XmlElement; into: GoFansMove[] | 'chain'; depth: number }[] = childElements(body, 'move')
    .map((element, i) => ({ element, into: traits.nested ? roots : ('chain' as const), depth: traits.nested && i > 0 ? 1 : 0 }))
    .reverse();
  const uncoloured: { move: GoFansMove; element: XmlElement }[] = [];
  let count = 0;
  // Depth-first in document order: pop the next element, push its nested moves in reverse.
  while (pending.length > 0) {
    const { element, into, depth } = pending.pop()!;
    if (++count > limits.maxPlies) throw pliesExceeded(limits, locate(text, element.start));
    if (depth > limits.maxVariationDepth) throw variationDepthExceeded(limits, locate(text, element.start));
    const move = readMove(text, element, seatById, traits.removes);
    if (into !== 'chain') into.push(move);
    else (previous === null ? roots : previous.children).push(move);
    previous = move;
    if (move.color !== null && !inferredColors.has(move.seat)) inferredColors.set(move.seat, move.color);
    if (move.color === null && move.point !== null) uncoloured.push({ move, element });
    if (traits.nested) {
      const nested = childElements(element, 'move');
      for (let i = nested.length - 1; i >= 0; i--) pending.push({ element: nested[i], into: move.children, depth: i > 0 ? depth + 1 : depth });
    }
  }
  // A stone without a colour takes the colour its player plays elsewhere in the file.
  for (const { move, element } of uncoloured) {
    const color = inferredColors.get(move.seat);
    if (!color) throw FormatError.at(`a move with x/y but no color, by a player whose colour no other move shows`, locate(text, element.start));
    move.color = color;
    move.stone = color === 'black' ? BLACK : WHITE;
  }

  return {
    publisher: collapseXmlSpace(publisherElement.text),
    version,
    boardSize,
    komiText,
    komi: komiText === null ? 0 : Number(komiText),
    players,
    roots,
    headerFields,
    root,
    versionElement,
  };
}

function readMove(text: string, element: XmlElement, seatById: Map<string, number>, withRemoves: boolean): GoFansMove {
  const playerId = canonicalInteger(attribute(element, 'playerId')!);
  const seat = seatById.get(playerId);
  // The XSD's keyref already ties playerId to a declared player; this guards the reader itself.
  if (seat === undefined) throw FormatError.at(`move by undeclared player ${playerId}`, locate(text, element.start));
  const xText = attribute(element, 'x');
  const yText = attribute(element, 'y');
  if ((xText === undefined) !== (yText === undefined)) {
    throw FormatError.at(`a move needs both x and y (a stone) or neither (a pass)`, locate(text, element.start));
  }
  const colorText = attribute(element, 'color')?.trim();
  const color = colorText === 'black' || colorText === 'white' ? colorText : null;
  const point = xText === undefined ? null : { x: Number(xText), y: Number(yText) };
  const removesElement = withRemoves ? (childElements(element, 'removes')[0] ?? null) : null;
  const removes = withRemoves
    ? (removesElement ? childElements(removesElement, 'remove') : []).map((r) => ({ x: Number(attribute(r, 'x')), y: Number(attribute(r, 'y')) }))
    : null;
  const stone: Stone | null = color === null ? null : color === 'black' ? BLACK : WHITE;
  return { seat, color, stone, point, removes, element, removesElement, children: [] };
}

/** `007` and `7` are the same xs:nonNegativeInteger. */
function canonicalInteger(value: string): string {
  return BigInt(value.trim()).toString();
}
