import { Board, Point } from './board.js';
import { beamSearch } from './beam-search.js';
import { Geometry, geometryOf } from './geometry.js';
import { classOf, parityClassesOf } from './parity-classes.js';
import { jumpOrders } from './move-order.js';
import { PositionSet } from './position-set.js';
import { resourceWeights } from './resource-count.js';
import { symmetriesOf } from './symmetry.js';

/**
 * Decides whether a board can be cleared down to one stone (on a target when the board has targets)
 * and finds one way to do it: depth-first search over jumps with
 * - a parity check at the root that rules out impossible goals before any search ({@link parityClassesOf}),
 * - a transposition table of positions already proven hopeless, exact (no hash collisions),
 * - symmetry reduction: each position is stored in the canonical orientation among the board's
 *   symmetries, so its rotations and reflections are recognised too,
 * - resource counts ({@link resourceWeights}) that cut off positions whose stones are too far from
 *   every slot the last stone may end on,
 * - a few jump orders taking turns, all sharing the table of hopeless positions, so one unlucky order
 *   cannot hide an easy solution for long,
 * - between a first depth-first turn and the rest, beam searches ({@link beamSearch}) of growing width
 *   within half the budget, which find solutions of large boards that depth-first search would not.
 * The search is deterministic: the same board always gives the same answer and solution, unless the
 * budget (time or nodes) runs out first, in which case the verdict is `unknown`.
 */

export type Solvability = 'yes' | 'no' | 'unknown';

export interface SolveOptions {
  /** Wall-clock budget in milliseconds. */
  readonly timeBudgetMs: number;
  /** Optional cap on visited positions, for budgets that do not depend on the machine. */
  readonly maxNodes?: number;
  /** Clock, injectable for tests. */
  readonly now?: () => number;
}

export interface PointJump {
  readonly from: Point;
  readonly over: Point;
  readonly to: Point;
}

export type NoReason = 'no stones' | 'parity' | 'exhausted';

export type SolveResult =
  | { readonly solvable: 'yes'; readonly solution: readonly PointJump[]; readonly nodes: number }
  | { readonly solvable: 'no'; readonly reason: NoReason; readonly nodes: number }
  | { readonly solvable: 'unknown'; readonly nodes: number };

/** Positions between two looks at the clock. */
const CLOCK_INTERVAL = 1024;

/**
 * Positions each jump order may visit per turn. A run that resumes with an order it had before walks
 * straight back to where it stopped (everything it finished is in the shared table), so the turns
 * amount to running the orders side by side.
 */
const TURN_ALLOWANCE = 16384;

/**
 * Boards with more slots are not searched (`unknown` at once): no budget of seconds could solve them,
 * and the tables would only take memory. Uploads can be megabytes of board.
 */
export const MAX_SEARCHED_SLOTS = 1024;

/** Resource-count tables (finish slots × slots) larger than this are left out; pruning is only an aid. */
const MAX_RESOURCE_ENTRIES = 1 << 20;

export function solve(board: Board, options: SolveOptions): SolveResult {
  const geometry = geometryOf(board);
  const n = geometry.slots.length;
  if (n > MAX_SEARCHED_SLOTS) return { solvable: 'unknown', nodes: 0 };
  const cellOf = (slot: number): number => geometry.slots[slot].y * board.width + geometry.slots[slot].x;
  const isTarget = (slot: number): boolean => {
    const cell = board.cells[cellOf(slot)];
    return cell.kind === 'slot' && cell.target;
  };
  const occupied: number[] = [];
  for (let slot = 0; slot < n; slot++) {
    const cell = board.cells[cellOf(slot)];
    if (cell.kind === 'slot' && cell.stone !== null) occupied.push(slot);
  }
  if (occupied.length === 0) return { solvable: 'no', reason: 'no stones', nodes: 0 };

  // Where the last stone may end: on a target (anywhere without targets) of the start's parity class.
  const hasTargets = geometry.slots.some((_, slot) => isTarget(slot));
  const classes = parityClassesOf(geometry);
  const startClass = classOf(classes, occupied);
  const finals: number[] = [];
  for (let slot = 0; slot < n; slot++) {
    if ((!hasTargets || isTarget(slot)) && classOf(classes, [slot]) === startClass) finals.push(slot);
  }
  if (finals.length === 0) return { solvable: 'no', reason: 'parity', nodes: 0 };

  const counted = finals.length * n <= MAX_RESOURCE_ENTRIES ? finals : [];
  const search = new JumpSearch(geometry, symmetriesOf(geometry, isTarget), finals, counted, resourceWeights(geometry, board.mode, counted), options);
  const toPoints = (path: readonly number[]): PointJump[] =>
    path.map((j) => {
      const jump = geometry.jumps[j];
      return { from: geometry.slots[jump.from], over: geometry.slots[jump.over], to: geometry.slots[jump.to] };
    });
  const orders = jumpOrders(geometry);
  let turn = 0;
  const depthFirstTurn = (): SolveResult | null => {
    const outcome = search.run(occupied, orders[turn++ % orders.length], TURN_ALLOWANCE);
    if (outcome === 'aborted') return { solvable: 'unknown', nodes: search.nodes };
    if (outcome === 'dead') return { solvable: 'no', reason: 'exhausted', nodes: search.nodes };
    if (outcome === 'solved') return { solvable: 'yes', solution: toPoints(search.path), nodes: search.nodes };
    return null;
  };

  // 1. One depth-first turn: small boards are solved or proven unsolvable here.
  const first = depthFirstTurn();
  if (first) return first;
  // 2. Beams of growing width, within half the budget: they find solutions of large boards fast.
  const finalSlots = new Uint8Array(n);
  for (const slot of finals) finalSlots[slot] = 1;
  for (let width = FIRST_BEAM_WIDTH; width <= LAST_BEAM_WIDTH; width *= 4) {
    let stoppedByBudget = false;
    const path = beamSearch(geometry, occupied, finalSlots, width, (positions) => {
      stoppedByBudget = search.spend(positions);
      return stoppedByBudget || search.elapsed() > options.timeBudgetMs / 2;
    });
    if (stoppedByBudget) return { solvable: 'unknown', nodes: search.nodes };
    if (path === 'aborted') break;
    if (path) return { solvable: 'yes', solution: toPoints(path), nodes: search.nodes };
  }
  // 3. Depth-first turns to the end: the only way to prove a board unsolvable.
  for (;;) {
    const result = depthFirstTurn();
    if (result) return result;
  }
}

/** Beam widths tried: 64, 256, 1024, 4096, 16384. */
const FIRST_BEAM_WIDTH = 64;
const LAST_BEAM_WIDTH = 16384;

/** `restart`: this run used up its allowance; the next order takes over. */
type Outcome = 'solved' | 'dead' | 'aborted' | 'restart';

/** Tolerance for the floating-point resource totals: prune only when clearly short. */
const EPSILON = 1e-9;

/**
 * The search state: the position and its images under every symmetry, updated jump by jump, and the
 * resource total for every possible final slot, one row per depth.
 */
class JumpSearch {
  /** Positions visited over all runs. */
  nodes = 0;
  /** Jump numbers from the start to the current position. */
  path: number[] = [];

  private readonly n: number;
  private readonly words: number;
  private readonly symmetryCount: number;
  /** Image k of the position at `images[k*words …]`; image 0 is the position itself. */
  private readonly images: Uint32Array;
  /** For symmetry k and slot s: word and bit of the image slot, at `k*n + s`. */
  private readonly imageWord: Int32Array;
  private readonly imageBit: Uint32Array;
  private readonly finalCount: number;
  private readonly finalSlot: Uint8Array;
  /** Resource totals, `finalCount` per depth. */
  private readonly totals: Float64Array;
  private readonly dead: PositionSet;
  private readonly canonical: Uint32Array;
  private readonly started: number;
  private readonly now: () => number;
  private readonly maxNodes: number;
  private stones = 0;
  private runLimit = 0;
  private order: Int32Array = new Int32Array(0);
  private jumpFrom: Int32Array = new Int32Array(0);
  private jumpOver: Int32Array = new Int32Array(0);
  private jumpTo: Int32Array = new Int32Array(0);

  constructor(
    private readonly geometry: Geometry,
    symmetries: readonly Int32Array[],
    finals: readonly number[],
    /** Finish slots with a resource count in `weights` (none when the table would be too large). */
    counted: readonly number[],
    private readonly weights: Float64Array,
    private readonly options: SolveOptions,
  ) {
    const n = geometry.slots.length;
    this.n = n;
    this.words = Math.max(1, Math.ceil(n / 32));
    this.symmetryCount = symmetries.length;
    this.images = new Uint32Array(this.symmetryCount * this.words);
    this.imageWord = new Int32Array(this.symmetryCount * n);
    this.imageBit = new Uint32Array(this.symmetryCount * n);
    symmetries.forEach((permutation, k) => {
      for (let s = 0; s < n; s++) {
        this.imageWord[k * n + s] = k * this.words + (permutation[s] >>> 5);
        this.imageBit[k * n + s] = (1 << (permutation[s] & 31)) >>> 0;
      }
    });
    this.finalCount = counted.length;
    this.finalSlot = new Uint8Array(n);
    for (const slot of finals) this.finalSlot[slot] = 1;
    this.totals = new Float64Array((n + 1) * this.finalCount);
    this.dead = new PositionSet(this.words);
    this.canonical = new Uint32Array(this.words);
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.maxNodes = options.maxNodes ?? Number.POSITIVE_INFINITY;
  }

  /** One depth-first run from the start with the given jump order, until solved, proven or `allowance` more positions. */
  run(occupied: readonly number[], order: Int32Array, allowance: number): Outcome {
    const { geometry } = this;
    this.order = order;
    this.jumpFrom = Int32Array.from(order, (j) => geometry.jumps[j].from);
    this.jumpOver = Int32Array.from(order, (j) => geometry.jumps[j].over);
    this.jumpTo = Int32Array.from(order, (j) => geometry.jumps[j].to);
    this.images.fill(0);
    for (const slot of occupied) this.flip(slot);
    this.stones = occupied.length;
    this.path = [];
    for (let k = 0; k < this.finalCount; k++) {
      this.totals[k] = occupied.reduce((sum, slot) => sum + this.weights[k * this.n + slot], 0);
    }
    this.runLimit = this.nodes + allowance;
    return this.explore(0);
  }

  private explore(depth: number): Outcome {
    this.nodes++;
    if (this.nodes > this.maxNodes || (this.nodes % CLOCK_INTERVAL === 0 && this.outOfTime())) return 'aborted';
    if (this.nodes > this.runLimit) return 'restart';
    if (this.stones === 1) return this.finalSlot[this.onlyStone()] === 1 ? 'solved' : 'dead';
    if (!this.enoughResources(depth)) return 'dead';
    this.toCanonical();
    if (this.dead.has(this.canonical)) return 'dead';

    const { jumpFrom, jumpOver, jumpTo, n, finalCount, weights, totals } = this;
    const row = depth * finalCount;
    const next = row + finalCount;
    for (let j = 0; j < jumpFrom.length; j++) {
      const from = jumpFrom[j];
      const over = jumpOver[j];
      const to = jumpTo[j];
      if (!this.has(from) || !this.has(over) || this.has(to)) continue;
      for (let k = 0; k < finalCount; k++) {
        totals[next + k] = totals[row + k] + weights[k * n + to] - weights[k * n + from] - weights[k * n + over];
      }
      this.jump(from, over, to);
      this.path.push(this.order[j]);
      const outcome = this.explore(depth + 1);
      if (outcome === 'solved') return outcome;
      this.path.pop();
      this.jump(from, over, to);
      if (outcome !== 'dead') return outcome;
    }
    this.toCanonical();
    this.dead.add(this.canonical);
    return 'dead';
  }

  /** Whether some allowed final slot can still be reached, as far as resource counts tell. */
  private enoughResources(depth: number): boolean {
    if (this.finalCount === 0) return true;
    const row = depth * this.finalCount;
    for (let k = 0; k < this.finalCount; k++) if (this.totals[row + k] >= 1 - EPSILON) return true;
    return false;
  }

  private outOfTime(): boolean {
    return this.elapsed() > this.options.timeBudgetMs;
  }

  /** Milliseconds since the search began. */
  elapsed(): number {
    return this.now() - this.started;
  }

  /** Counts positions looked at elsewhere (the beams); true when that exhausts the budget. */
  spend(positions: number): boolean {
    this.nodes += positions;
    return this.nodes > this.maxNodes || this.outOfTime();
  }

  private has(slot: number): boolean {
    return (this.images[slot >>> 5] & (1 << (slot & 31))) !== 0;
  }

  /** Plays a jump, or takes it back: the three slots swap state either way. */
  private jump(from: number, over: number, to: number): void {
    this.flip(from);
    this.flip(over);
    this.flip(to);
    this.stones += this.has(from) ? 1 : -1;
  }

  private flip(slot: number): void {
    const n = this.n;
    for (let k = 0; k < this.symmetryCount; k++) {
      this.images[this.imageWord[k * n + slot]] ^= this.imageBit[k * n + slot];
    }
  }

  private onlyStone(): number {
    for (let w = 0; w < this.words; w++) {
      const bits = this.images[w];
      if (bits !== 0) return w * 32 + (31 - Math.clz32(bits & -bits));
    }
    return -1;
  }

  /** Copies the smallest image (comparing the highest word first) into `canonical`. */
  private toCanonical(): void {
    const { images, words } = this;
    let best = 0;
    for (let k = 1; k < this.symmetryCount; k++) {
      for (let w = words - 1; w >= 0; w--) {
        const a = images[k * words + w];
        const b = images[best * words + w];
        if (a !== b) {
          if (a < b) best = k;
          break;
        }
      }
    }
    this.canonical.set(images.subarray(best * words, (best + 1) * words));
  }
}
