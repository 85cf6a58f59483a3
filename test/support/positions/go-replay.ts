import { createRequire } from 'node:module';
import type { SabakiNode } from '../go/sabaki-sgf.js';

/*
 * The main line of a Go SGF replayed by @sabaki/go-board (not the archive's engine), for the tests
 * that check the position and pattern indexes against a brute force: the board after the setup and
 * after every ply, and the move of each ply.
 */
const require = createRequire(import.meta.url);
export type SignMap = number[][];
interface SabakiBoard {
  signMap: SignMap;
  makeMove(sign: number, vertex: [number, number], options: Record<string, boolean>): SabakiBoard;
  set(vertex: [number, number], sign: number): SabakiBoard;
  clone(): SabakiBoard;
}
const Board = require('@sabaki/go-board') as { fromDimensions(width: number, height?: number): SabakiBoard };


export interface Position {
  readonly rows: SignMap;
  /** 1 black, -1 white. */
  readonly toMove: number;
}

export interface Replayed {
  readonly size: number;
  readonly positions: Position[];
  /** The move played from each position: [x, y], or null for a pass; absent after the last. */
  readonly moves: ([number, number] | null)[];
}

export const letters = (value: string): [number, number] => [value.charCodeAt(0) - 97, value.charCodeAt(1) - 97];

/** The main line of an SGF replayed by @sabaki/go-board, up to its first move the rules refuse (occupied point, suicide, ko). */
export function replay(root: SabakiNode): Replayed | null {
  const size = Number((root.data.SZ?.[0] ?? '19').split(':')[0]);
  if (!(size >= 1 && size <= 25)) return null;
  let board = Board.fromDimensions(size);
  const setup = (node: SabakiNode) => {
    for (const [id, sign] of [['AB', 1], ['AW', -1], ['AE', 0]] as const) {
      for (const value of node.data[id] ?? []) {
        const [from, to] = value.split(':');
        const [x1, y1] = letters(from);
        const [x2, y2] = letters(to ?? from);
        for (let y = Math.min(y1, y2); y <= Math.max(y1, y2); y++) for (let x = Math.min(x1, x2); x <= Math.max(x1, x2); x++) if (x < size && y < size) board = board.set([x, y], sign);
      }
    }
  };
  const line: SabakiNode[] = [];
  setup(root);
  for (let node = root.children[0]; node; node = node.children[0]) line.push(node);
  const colourOf = (node: SabakiNode | undefined) => (node?.data.B !== undefined ? 1 : node?.data.W !== undefined ? -1 : 0);
  const moving = line.filter((node) => colourOf(node) !== 0);
  const positions: Position[] = [];
  const moves: ([number, number] | null)[] = [];
  let lastColour = 0;
  for (let i = 0, seen = 0; ; i++) {
    const node = line[i];
    if (node && colourOf(node) === 0) {
      setup(node);
      continue;
    }
    const next = moving[seen];
    const toMove = next ? colourOf(next) : lastColour === 0 ? 1 : -lastColour;
    if (node) setup(node);
    positions.push({ rows: board.signMap.map((row) => [...row]), toMove });
    if (!node) break;
    seen++;
    const colour = colourOf(node);
    const value = (colour === 1 ? node.data.B : node.data.W)[0];
    const point = value === '' || (value === 'tt' && size <= 19) ? null : letters(value);
    if (point === null) {
      moves.push(null);
    } else {
      try {
        board = board.makeMove(colour, point, { preventSuicide: true, preventOverwrite: true, preventKo: true });
      } catch {
        break;
      }
      moves.push(point);
    }
    lastColour = colour;
  }
  return { size, positions, moves };
}

