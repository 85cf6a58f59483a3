import type { DotsSgfGame, SgfMove } from './dots-sgf.js';

/**
 * Reads a PointsXT saved game (`.sav`, binary), as far as the real files show its layout:
 * a 58-byte header whose bytes 1-2 hold the number of dots minus one (little-endian), then one
 * 13-byte record per dot: x (column, 0-based), y (row, 0-based), one byte we do not use,
 * the player (`ff ff` the first, `00 00` the second) and an 8-byte timestamp. The field is the
 * classic 39x32. The game is returned in the SGF reader's shape (colour 0 = first player).
 */
export const POINTSXT_WIDTH = 39;
export const POINTSXT_HEIGHT = 32;
const HEADER = 58;
const RECORD = 13;

export function parsePointsXt(bytes: Uint8Array): DotsSgfGame {
  if (bytes.length < HEADER || (bytes.length - HEADER) % RECORD !== 0) {
    throw new Error(`a PointsXT file is 58 bytes plus 13 per dot; this one has ${bytes.length}`);
  }
  const count = (bytes.length - HEADER) / RECORD;
  const declared = bytes[1] | (bytes[2] << 8);
  if (declared !== count - 1) throw new Error(`the header announces ${declared + 1} dots, the file holds ${count}`);
  const moves: SgfMove[] = [];
  for (let i = 0; i < count; i++) {
    const at = HEADER + i * RECORD;
    const player = (bytes[at + 3] << 8) | bytes[at + 4];
    if (player !== 0xffff && player !== 0) throw new Error(`dot ${i + 1}: unknown player bytes ${player.toString(16)}`);
    moves.push({ colour: player === 0xffff ? 0 : 1, row: bytes[at + 1], col: bytes[at], chains: [] });
  }
  return { width: POINTSXT_WIDTH, height: POINTSXT_HEIGHT, setup: [], moves, root: {} };
}
