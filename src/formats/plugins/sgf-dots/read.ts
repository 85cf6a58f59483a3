import { FormatError } from '../../../core/errors.js';
import type { SgfCollection, SgfNode, SgfValue } from '../../syntaxes/sgf/index.js';
import type { SgfDotsGame, SgfDotsMove, SgfDotsNode, SgfSetupDot, SgfTerritory } from './model.js';
import { NotationError, parseMoveValue, parseSize } from './notation.js';

/** Why a well-formed GM[40] game cannot be replayed (stored, not indexed). */
export class NotReplayable extends Error {}

const SEATS: Readonly<Record<string, number>> = { B: 0, W: 1 };

/**
 * Builds the Dots game of one SGF game tree: the root's properties, the field (`SZ`), and for
 * every node its setup dots (`AB`/`AW`), moves (`B`/`W`, one per value) and territory
 * (`TB`/`TW`). `named`: the uploader named the format, so a root without `GM` is read as Dots.
 * A value that does not read as Dots notation is a FormatError where it stands.
 */
export function readDotsGame(collection: SgfCollection, rootNode: SgfNode, named: boolean): SgfDotsGame {
  const root: Record<string, string> = {};
  for (const property of rootNode.properties) if (!(property.id in root)) root[property.id] = property.values[0]?.text ?? '';
  // Without GM an SGF game is Go (GM[1]); an uploader who names this format says it is Dots.
  if ((root.GM ?? '').trim() !== '40' && !(named && root.GM === undefined)) {
    throw FormatError.at(`not a Dots game: GM[${root.GM ?? ''}] (Dots SGF is GM[40])`, collection.locate(rootNode.start));
  }
  const sizeProperty = rootNode.properties.find((p) => p.id === 'SZ');
  if (sizeProperty === undefined) throw new NotReplayable('the root node has no field size (SZ)');
  const size = parseSize(sizeProperty.values[0]?.text ?? '');
  if (size === null || size.width < 1 || size.height < 1) {
    throw FormatError.at(`SZ[${root.SZ}] is not a field size (n or width:height)`, collection.locate(sizeProperty.values[0]?.start ?? sizeProperty.start));
  }
  return { width: size.width, height: size.height, root, rootNode: convert(collection, rootNode) };
}

function convert(collection: SgfCollection, top: SgfNode): SgfDotsNode {
  // Iterative: children are converted before their parent (post-order), as trees may be deep.
  const done = new Map<SgfNode, SgfDotsNode>();
  const stack: { node: SgfNode; expanded: boolean }[] = [{ node: top, expanded: false }];
  while (stack.length > 0) {
    const entry = stack[stack.length - 1];
    if (!entry.expanded) {
      entry.expanded = true;
      for (const child of entry.node.children) stack.push({ node: child, expanded: false });
      continue;
    }
    stack.pop();
    done.set(entry.node, { ...contents(collection, entry.node), children: entry.node.children.map((c) => done.get(c)!) });
  }
  return done.get(top)!;
}

function contents(collection: SgfCollection, node: SgfNode): Omit<SgfDotsNode, 'children'> {
  const setup: SgfSetupDot[] = [];
  const moves: SgfDotsMove[] = [];
  const territory: SgfTerritory[] = [];
  for (const property of node.properties) {
    const id = property.id;
    if (id === 'B' || id === 'W') {
      for (const value of property.values) {
        const { dot, chains } = read(collection, value, id);
        moves.push({ seat: SEATS[id], value: value.text, dot, chains, start: value.start, end: value.end });
      }
    } else if (id === 'AB' || id === 'AW') {
      for (const value of property.values) {
        const { dot } = read(collection, value, id);
        if (dot === null) throw FormatError.at(`${id} needs a point, not an empty value`, collection.locate(value.start));
        setup.push({ seat: SEATS[id[1]], cell: dot });
      }
    } else if (id === 'TB' || id === 'TW') {
      const chains = property.values.flatMap((value) => read(collection, value, id).chains);
      territory.push({ seat: SEATS[id[1]], chains });
    }
  }
  return { setup, moves, territory };
}

function read(collection: SgfCollection, value: SgfValue, id: string): ReturnType<typeof parseMoveValue> {
  try {
    return parseMoveValue(value.text.trim());
  } catch (error) {
    if (!(error instanceof NotationError)) throw error;
    const message = `${id}[${value.text}]: ${error.message}`;
    throw FormatError.at(message, collection.locate(value.start + error.index));
  }
}
