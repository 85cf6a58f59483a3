import { FormatError } from '../../core/errors.js';
import { DEFAULT_LIMITS } from '../../core/limits.js';
import { goPositionKeys } from '../../rules/go/position-key.js';
import { dotsPositionKeys } from '../../rules/dots/position-key.js';
import { checkersPositionKeys } from '../../rules/checkers/position-key.js';
import { BLACK, WHITE } from '../../rules/go/types.js';
import type { Transform } from '../../rules/symmetry.js';
import type { PositionKeys } from '../../rules/zobrist.js';
import type { Family } from '../plugin.js';
import { positionFromFen } from './checkers/fen.js';
import { letterIndex, parseSgf, propertyValues } from '../syntaxes/sgf/index.js';
import type { SgfNode } from '../syntaxes/sgf/index.js';

/** The families whose positions can be written out for a search: Go and Dots as SGF setup, draughts as a FEN. */
export const QUERY_FAMILIES = ['go', 'dots', 'checkers'] as const satisfies readonly Family[];
export type QueryFamily = (typeof QUERY_FAMILIES)[number];

/** A position written out by a client, as the index knows positions. */
export interface QueriedPosition {
  readonly family: QueryFamily;
  readonly width: number;
  readonly height: number;
  readonly keys: PositionKeys;
  /** The transforms that turn the board into its canonical orientation (several for a symmetric board). */
  readonly leastTransforms: readonly Transform[];
}

const invalid = (message: string) => new FormatError(message, [], 400, 'position.invalid');

/** The transforms reaching the least key among `keys.byTransform`. */
function leastOf(keys: PositionKeys): Transform[] {
  const least = keys.canonical.key;
  return keys.byTransform.flatMap((key, t) => (key === least ? [t as Transform] : []));
}

/**
 * A Go or Dots board written as an SGF root node (`SZ`, `AB`, `AW`, `PL`), or a draughts board as a
 * PDN FEN (squares by name or by number 1–32). What does not describe a board of the family is a
 * 400 `position.invalid` saying why.
 */
export function queryPosition(family: string, written: { readonly sgf?: string; readonly fen?: string }): QueriedPosition {
  if (family === 'checkers') {
    if (typeof written.fen !== 'string') throw invalid('a draughts position is written as `fen` (PDN FEN, e.g. "W:Wc3,e3,Kd8:Bf6,h8")');
    const position = positionFromFen(written.fen, written.fen, 0);
    const keys = checkersPositionKeys(position);
    return { family, width: 8, height: 8, keys, leastTransforms: leastOf(keys) };
  }
  if (family !== 'go' && family !== 'dots') throw new FormatError(`positions are searched in ${QUERY_FAMILIES.join(', ')}; not in "${family}"`, [], 400, 'position.family');
  if (typeof written.sgf !== 'string') throw invalid(`a ${family === 'go' ? 'Go' : 'Dots'} position is written as \`sgf\`, an SGF root node such as "(;SZ[19]AB[pd][dp]AW[dd]PL[W])"`);
  const collection = parseSgf(new TextEncoder().encode(written.sgf), DEFAULT_LIMITS);
  if (collection.trees.length !== 1) throw invalid(`the SGF holds ${collection.trees.length} game trees: write one`);
  const root = collection.trees[0].root;
  if (root.children.length > 0) throw invalid('the SGF has moves: write the position as setup (AB, AW) in one node, and PL for the side to move');
  const [width, height] = boardSize(root, family);
  const cells = new Uint8Array(width * height);
  for (const [id, stone] of [['AB', 1], ['AW', 2]] as const) {
    for (const [x, y] of points(root, id, width, height)) {
      if (cells[y * width + x] !== 0) throw invalid(`point ${String.fromCharCode(97 + x)}${String.fromCharCode(97 + y)} is set up twice`);
      cells[y * width + x] = stone;
    }
  }
  const toMove = sideToMove(root);
  if (family === 'go') {
    const keys = goPositionKeys({ size: width, cells }, toMove === 1 ? BLACK : WHITE);
    return { family, width, height, keys, leastTransforms: leastOf(keys) };
  }
  const keys = dotsPositionKeys({ width, height, players: 2, owner: cells, captor: new Uint8Array(width * height), toMove: toMove - 1 });
  return { family, width, height, keys, leastTransforms: leastOf(keys) };
}

function boardSize(root: SgfNode, family: 'go' | 'dots'): [number, number] {
  const values = propertyValues(root, 'SZ');
  if (values.length === 0) return family === 'go' ? [19, 19] : [39, 32];
  const text = values[0].text.trim();
  const match = /^(\d{1,2})(?::(\d{1,2}))?$/.exec(text);
  if (!match) throw invalid(`SZ[${text}] is not a board size`);
  const width = Number(match[1]);
  const height = Number(match[2] ?? match[1]);
  if (family === 'go' && (width !== height || width < 1 || width > 25)) throw invalid(`SZ[${text}]: Go boards searched are square, 1 to 25 points a side`);
  if (family === 'dots' && (width < 2 || height < 2 || width > 52 || height > 52)) throw invalid(`SZ[${text}]: a Dots field is 2 to 52 points a side`);
  return [width, height];
}

/** The points of a setup property, compressed lists (`aa:cc`) expanded. */
function points(root: SgfNode, id: string, width: number, height: number): [number, number][] {
  const found: [number, number][] = [];
  const point = (text: string): [number, number] => {
    if (text.length !== 2) throw invalid(`${id}[${text}] is not a point (two letters)`);
    const [x, y] = [letterIndex(text[0]), letterIndex(text[1])];
    if (!(x >= 0 && x < width && y >= 0 && y < height)) throw invalid(`${id}[${text}] is off the ${width}x${height} board`);
    return [x, y];
  };
  for (const value of propertyValues(root, id)) {
    if (value.colon < 0) {
      found.push(point(value.text));
      continue;
    }
    const [x1, y1] = point(value.text.slice(0, value.colon));
    const [x2, y2] = point(value.text.slice(value.colon + 1));
    for (let y = Math.min(y1, y2); y <= Math.max(y1, y2); y++) for (let x = Math.min(x1, x2); x <= Math.max(x1, x2); x++) found.push([x, y]);
  }
  return found;
}

/** 1 for black (the first player), 2 for white; black when PL is absent. */
function sideToMove(root: SgfNode): 1 | 2 {
  const values = propertyValues(root, 'PL');
  if (values.length === 0) return 1;
  const text = values[0].text.trim().toUpperCase();
  if (text === 'B' || text === '1') return 1;
  if (text === 'W' || text === '2') return 2;
  throw invalid(`PL[${values[0].text}] is not B or W`);
}
