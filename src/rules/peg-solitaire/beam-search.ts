import { Geometry } from './geometry.js';
import { PositionSet } from './position-set.js';

/**
 * Beam search for a solution: layer by layer (one jump per layer), keep only the `width` most compact
 * positions — smallest sum of squared distances of the stones from where the last stone must end.
 * Gathering the stones is what solutions do, so on large boards this finds one long before a
 * depth-first search gets out of its first bad subtree. It can never prove a board unsolvable (it
 * throws positions away); the depth-first search does that.
 *
 * Returns the jump numbers of a solution, `null` when the beam died out, `aborted` when `stop` said so
 * (it is told how many positions were made since its last call). Deterministic: ties go to the earlier
 * parent and jump.
 */
export function beamSearch(
  geometry: Geometry,
  occupied: readonly number[],
  finals: Uint8Array,
  width: number,
  stop: (positions: number) => boolean,
): number[] | null | 'aborted' {
  const n = geometry.slots.length;
  const words = Math.max(1, Math.ceil(n / 32));
  const cost = compactnessCosts(geometry, finals);
  const { jumps } = geometry;
  const jumpFrom = Int32Array.from(jumps, (j) => j.from);
  const jumpOver = Int32Array.from(jumps, (j) => j.over);
  const jumpTo = Int32Array.from(jumps, (j) => j.to);
  const jumpCount = jumps.length;

  let positions = new Uint32Array(words);
  for (const slot of occupied) positions[slot >>> 5] |= 1 << (slot & 31);
  let scores = Float64Array.of(occupied.reduce((sum, slot) => sum + cost[slot], 0));
  let count = 1;
  // Per layer: for each kept position, its parent's index in the previous layer and the jump taken.
  const parents: Int32Array[] = [];
  const moves: Int32Array[] = [];
  const has = (layer: Uint32Array, p: number, slot: number): boolean => (layer[p * words + (slot >>> 5)] & (1 << (slot & 31))) !== 0;

  const children = new ChildList();
  for (let stones = occupied.length; stones > 1; stones--) {
    // Every child as (score, parent, jump); the bits are made only for the ones kept.
    children.clear();
    let reported = 0;
    for (let p = 0; p < count; p++) {
      const base = p * words;
      for (let j = 0; j < jumpCount; j++) {
        const from = jumpFrom[j];
        const over = jumpOver[j];
        const to = jumpTo[j];
        if ((positions[base + (from >>> 5)] & (1 << (from & 31))) === 0) continue;
        if ((positions[base + (over >>> 5)] & (1 << (over & 31))) === 0) continue;
        if ((positions[base + (to >>> 5)] & (1 << (to & 31))) !== 0) continue;
        children.push(scores[p] + cost[to] - cost[from] - cost[over], p, j);
      }
      // Report every 64 parents and at the end of the layer (at least one, so time is looked at).
      if ((p + 1) % 64 === 0 || p === count - 1) {
        if (stop(Math.max(1, children.length - reported))) return 'aborted';
        reported = children.length;
      }
    }
    if (children.length === 0) return null;
    const capacity = Math.min(width, children.length);
    const next = new Uint32Array(capacity * words);
    const nextScores = new Float64Array(capacity);
    const parent = new Int32Array(capacity);
    const move = new Int32Array(capacity);
    const seen = new PositionSet(words);
    const child = new Uint32Array(words);
    let kept = 0;
    const ranking = new Ranking(children.scores.subarray(0, children.length), 2 * width);
    for (let c = ranking.next(); c >= 0 && kept < capacity; c = ranking.next()) {
      const p = children.parents[c];
      const j = children.jumps[c];
      const from = jumpFrom[j];
      const over = jumpOver[j];
      const to = jumpTo[j];
      child.set(positions.subarray(p * words, (p + 1) * words));
      child[from >>> 5] ^= 1 << (from & 31);
      child[over >>> 5] ^= 1 << (over & 31);
      child[to >>> 5] ^= 1 << (to & 31);
      if (seen.has(child)) continue;
      seen.add(child);
      next.set(child, kept * words);
      nextScores[kept] = children.scores[c];
      parent[kept] = p;
      move[kept] = j;
      kept++;
    }
    positions = next;
    scores = nextScores;
    count = kept;
    parents.push(parent.subarray(0, kept));
    moves.push(move.subarray(0, kept));
  }
  // One stone left in every position of the last layer: is one of them on an allowed final slot?
  for (let p = 0; p < count; p++) {
    for (let slot = 0; slot < n; slot++) {
      if (!has(positions, p, slot) || finals[slot] !== 1) continue;
      const path: number[] = [];
      for (let layer = parents.length - 1, index = p; layer >= 0; layer--) {
        path.push(moves[layer][index]);
        index = parents[layer][index];
      }
      return path.reverse();
    }
  }
  return null;
}

/** The children of one layer, in growable typed arrays reused from layer to layer. */
class ChildList {
  length = 0;
  scores = new Float64Array(1024);
  parents = new Int32Array(1024);
  jumps = new Int32Array(1024);

  clear(): void {
    this.length = 0;
  }

  push(score: number, parent: number, jump: number): void {
    if (this.length === this.scores.length) {
      const grow = <T extends Float64Array | Int32Array>(old: T, fresh: T): T => {
        fresh.set(old);
        return fresh;
      };
      this.scores = grow(this.scores, new Float64Array(this.length * 2));
      this.parents = grow(this.parents, new Int32Array(this.length * 2));
      this.jumps = grow(this.jumps, new Int32Array(this.length * 2));
    }
    this.scores[this.length] = score;
    this.parents[this.length] = parent;
    this.jumps[this.length] = jump;
    this.length++;
  }
}

/** Bits for the child's index inside a sort key. */
const INDEX_BITS = 2 ** 23;

/**
 * Child indices by ascending score, ties by lower index, handed out one by one. Score and index are
 * packed into one double (the score rounded to a binary fraction that leaves room for the index), so
 * plain numeric sorts of typed arrays give the order. Only the `first` smallest keys are sorted at
 * first (selected in linear time); the rest is sorted only if duplicates use them up. Deterministic.
 */
export class Ranking {
  private readonly keys: Float64Array;
  private position = 0;
  private sortedUpTo: number;

  constructor(scores: Float64Array, first: number) {
    if (scores.length >= INDEX_BITS) throw new RangeError(`too many children to rank: ${scores.length}`);
    let low = Infinity;
    let high = -Infinity;
    for (const score of scores) {
      if (score < low) low = score;
      if (score > high) high = score;
    }
    // Largest power-of-two scale, at most 1024, with (high − low) · scale · INDEX_BITS below 2^52.
    let scale = 1024;
    while (scale > 2 ** -20 && (high - low) * scale >= 2 ** 29) scale /= 2;
    this.keys = new Float64Array(scores.length);
    for (let i = 0; i < scores.length; i++) this.keys[i] = Math.round((scores[i] - low) * scale) * INDEX_BITS + i;
    this.sortedUpTo = Math.min(first, this.keys.length);
    if (this.sortedUpTo < this.keys.length) selectSmallest(this.keys, this.sortedUpTo);
    this.keys.subarray(0, this.sortedUpTo).sort();
  }

  /** The next child index, or -1 when all were handed out. */
  next(): number {
    if (this.position === this.keys.length) return -1;
    if (this.position === this.sortedUpTo) {
      this.keys.subarray(this.sortedUpTo).sort();
      this.sortedUpTo = this.keys.length;
    }
    return this.keys[this.position++] % INDEX_BITS;
  }
}

/** Rearranges `keys` so that its first `k` entries are its k smallest (in any order): quickselect. */
function selectSmallest(keys: Float64Array, k: number): void {
  let left = 0;
  let right = keys.length - 1;
  while (left < right) {
    // Median of three as the pivot keeps sorted or reversed input from going quadratic.
    const middle = (left + right) >>> 1;
    const pivot = median(keys[left], keys[middle], keys[right]);
    let i = left;
    let j = right;
    while (i <= j) {
      while (keys[i] < pivot) i++;
      while (keys[j] > pivot) j--;
      if (i <= j) {
        const t = keys[i];
        keys[i] = keys[j];
        keys[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) right = j;
    else if (k - 1 >= i) left = i;
    else return;
  }
}

function median(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** Squared distance of each slot from the centre of the allowed final slots. */
function compactnessCosts(geometry: Geometry, finals: Uint8Array): Float64Array {
  let cx = 0;
  let cy = 0;
  let count = 0;
  geometry.slots.forEach((p, slot) => {
    if (finals[slot] !== 1) return;
    cx += p.x;
    cy += p.y;
    count++;
  });
  cx /= Math.max(1, count);
  cy /= Math.max(1, count);
  return Float64Array.from(geometry.slots, (p) => (p.x - cx) ** 2 + (p.y - cy) ** 2);
}
