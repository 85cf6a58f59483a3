/**
 * An exact set of positions (bit sets of `words` 32-bit words each) with open addressing in typed
 * arrays: no hashing collisions can make the solver believe a position was seen when it was not.
 * The set grows up to `maxEntries`; after that it stops accepting entries (the search stays correct,
 * it only prunes less). An all-zero position is never stored (it marks a free bucket).
 */
export class PositionSet {
  private capacity = 1 << 12;
  private table: Uint32Array;
  private count = 0;

  constructor(
    private readonly words: number,
    private readonly maxEntries = 1 << 22,
  ) {
    this.table = new Uint32Array(this.capacity * words);
  }

  get size(): number {
    return this.count;
  }

  has(position: Uint32Array): boolean {
    return this.find(this.table, this.capacity, position) < 0;
  }

  add(position: Uint32Array): void {
    if (this.count >= this.maxEntries || isZero(position)) return;
    if ((this.count + 1) * 2 > this.capacity) this.grow();
    const slot = this.find(this.table, this.capacity, position);
    if (slot < 0) return;
    this.table.set(position, slot * this.words);
    this.count++;
  }

  /** Bucket index where `position` would go, or -1 when it is present. */
  private find(table: Uint32Array, capacity: number, position: Uint32Array): number {
    const words = this.words;
    const mask = capacity - 1;
    let bucket = hash(position) & mask;
    for (;;) {
      const base = bucket * words;
      let empty = true;
      let equal = true;
      for (let w = 0; w < words; w++) {
        const value = table[base + w];
        if (value !== 0) empty = false;
        if (value !== position[w]) equal = false;
      }
      if (equal && !empty) return -1;
      if (empty) return bucket;
      bucket = (bucket + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    const oldCapacity = this.capacity;
    this.capacity *= 2;
    this.table = new Uint32Array(this.capacity * this.words);
    const entry = new Uint32Array(this.words);
    for (let bucket = 0; bucket < oldCapacity; bucket++) {
      entry.set(old.subarray(bucket * this.words, (bucket + 1) * this.words));
      if (isZero(entry)) continue;
      const slot = this.find(this.table, this.capacity, entry);
      this.table.set(entry, slot * this.words);
    }
  }
}

function isZero(position: Uint32Array): boolean {
  for (let w = 0; w < position.length; w++) if (position[w] !== 0) return false;
  return true;
}

/** A 32-bit mix of the words (multiply–xorshift), spreading nearby positions over the table. */
function hash(position: Uint32Array): number {
  let h = 0x9e3779b9 | 0;
  for (let w = 0; w < position.length; w++) {
    h = Math.imul(h ^ position[w], 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}
