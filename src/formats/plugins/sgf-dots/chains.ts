import type { Cell, Surround } from '../../../rules/dots/index.js';

/**
 * Surround chains the way Dots SGF files write them: a closed walk that ends on the dot it starts
 * from, the area on the walker's right (the engine walks with the area on the left), each dot once
 * — zagram.org leaves out the out-and-back walks around the surrounder's own peninsulas, which the
 * engine's chain (the area's whole boundary) includes. The walk starts on its leftmost dot (the
 * topmost of those), as zagram.org and the Kropki app do.
 */
export function sgfChain(surround: Surround): Cell[] {
  const cycle = simpleCycle(surround.chain);
  const reversed = [cycle[0], ...cycle.slice(1).reverse()];
  let start = 0;
  reversed.forEach((cell, i) => {
    const best = reversed[start];
    if (cell.col < best.col || (cell.col === best.col && cell.row < best.row)) start = i;
  });
  const rotated = [...reversed.slice(start), ...reversed.slice(0, start)];
  return [...rotated, rotated[0]];
}

/** A chain with every walk that leaves a dot and comes back to it removed. */
function simpleCycle(chain: readonly Cell[]): Cell[] {
  const path: Cell[] = [];
  for (const cell of chain) {
    const seen = path.findIndex((c) => c.row === cell.row && c.col === cell.col);
    if (seen >= 0) path.length = seen;
    path.push(cell);
  }
  return path;
}

/**
 * The points strictly inside a written chain, read as a polygon through the dots' centres (a
 * point on the chain itself is not inside). Rows and columns of the chain's bounding box only.
 */
export function insideChain(chain: readonly Cell[]): Cell[] {
  if (chain.length < 3) return [];
  const rows = chain.map((c) => c.row);
  const cols = chain.map((c) => c.col);
  const on = new Set(chain.map((c) => `${c.row},${c.col}`));
  const inside: Cell[] = [];
  for (let row = Math.min(...rows) + 1; row < Math.max(...rows); row++) {
    for (let col = Math.min(...cols) + 1; col < Math.max(...cols); col++) {
      if (on.has(`${row},${col}`)) continue;
      let crossings = false;
      for (let i = 0, j = chain.length - 1; i < chain.length; j = i++) {
        const a = chain[i];
        const b = chain[j];
        if (a.row > row !== b.row > row && col < ((b.col - a.col) * (row - a.row)) / (b.row - a.row) + a.col) crossings = !crossings;
      }
      if (crossings) inside.push({ row, col });
    }
  }
  return inside;
}
