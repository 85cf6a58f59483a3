import { MAX_BOARD_SIZE, MIN_BOARD_SIZE } from './types.js';

/**
 * For a square board of `size`, four neighbour slots per point (`-1` where the edge is), so the
 * hot loops of capture search need no bounds arithmetic. Built once per size and shared.
 */
const tables = new Map<number, Int16Array>();

export function neighbourTable(size: number): Int16Array {
  let table = tables.get(size);
  if (table) return table;
  if (!Number.isInteger(size) || size < MIN_BOARD_SIZE || size > MAX_BOARD_SIZE) {
    throw new RangeError(`board size ${size} is outside ${MIN_BOARD_SIZE}..${MAX_BOARD_SIZE}`);
  }
  table = new Int16Array(size * size * 4).fill(-1);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const base = (y * size + x) * 4;
      if (x > 0) table[base] = y * size + x - 1;
      if (x < size - 1) table[base + 1] = y * size + x + 1;
      if (y > 0) table[base + 2] = (y - 1) * size + x;
      if (y < size - 1) table[base + 3] = (y + 1) * size + x;
    }
  }
  tables.set(size, table);
  return table;
}
