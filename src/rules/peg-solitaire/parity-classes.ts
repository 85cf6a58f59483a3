import { Geometry } from './geometry.js';

/**
 * Parity invariants: functions f from slots to {0, 1} with f(from) ⊕ f(over) ⊕ f(to) = 0 for every
 * jump the board allows. A jump removes the stones on `from` and `over` and adds one on `to`, so the
 * parity of Σ f over the occupied slots never changes. The classic "position classes" of the English
 * board are such functions; here they are found for any board and either mode by solving the
 * jump equations over GF(2), so they also hold for triangles, hexagons and diagonal moves.
 *
 * Use: a single stone can only finish on a slot whose class equals the start position's class.
 */
export interface ParityClasses {
  /** Basis of the invariants, each a 0/1 value per slot. */
  readonly basis: readonly Uint8Array[];
}

export function parityClassesOf(geometry: Geometry): ParityClasses {
  const n = geometry.slots.length;
  // Each jump gives the equation f(from) + f(over) + f(to) = 0; a jump and its reverse give the same one.
  const rows: Uint8Array[] = [];
  const seen = new Set<string>();
  for (const { from, over, to } of geometry.jumps) {
    const key = from < to ? `${from},${over},${to}` : `${to},${over},${from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const row = new Uint8Array(n);
    row[from] ^= 1;
    row[over] ^= 1;
    row[to] ^= 1;
    rows.push(row);
  }
  // Reduced row echelon form over GF(2); the free columns span the solution space.
  const pivotOfColumn = new Int32Array(n).fill(-1);
  let rank = 0;
  for (let column = 0; column < n && rank < rows.length; column++) {
    const pivot = rows.findIndex((row, r) => r >= rank && row[column] === 1);
    if (pivot < 0) continue;
    [rows[rank], rows[pivot]] = [rows[pivot], rows[rank]];
    for (let r = 0; r < rows.length; r++) {
      if (r !== rank && rows[r][column] === 1) xorInto(rows[r], rows[rank]);
    }
    pivotOfColumn[column] = rank;
    rank++;
  }
  const basis: Uint8Array[] = [];
  for (let free = 0; free < n; free++) {
    if (pivotOfColumn[free] >= 0) continue;
    const f = new Uint8Array(n);
    f[free] = 1;
    // Each pivot variable equals the sum of the free variables in its row.
    for (let column = 0; column < n; column++) {
      const r = pivotOfColumn[column];
      if (r >= 0 && rows[r][free] === 1) f[column] = 1;
    }
    basis.push(f);
  }
  return { basis };
}

/** The class of a set of occupied slots: one parity bit per basis function. */
export function classOf(classes: ParityClasses, occupied: readonly number[]): string {
  return classes.basis.map((f) => occupied.reduce((parity, slot) => parity ^ f[slot], 0)).join('');
}

function xorInto(target: Uint8Array, source: Uint8Array): void {
  for (let i = 0; i < target.length; i++) target[i] ^= source[i];
}
