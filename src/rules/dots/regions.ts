import { BORDER, DotsBoard } from './board.js';

/**
 * Finds the region of a point for one player: the 4-connected set of points that are not that
 * player's live dots. A region is closed when none of its points lies on the field's edge (touches
 * the border ring); only closed regions can be surrounds.
 *
 * The scanner reuses its buffers and marks visited points with a stamp that grows with every
 * scan, so a scan costs only the points it visits.
 */
export class RegionScanner {
  /** `mark[p] === stamp` while p belongs to the region of the latest scan. */
  readonly mark: Int32Array;
  private stamp = 0;
  private readonly stack: Int32Array;
  private readonly cells: Int32Array;

  constructor(private readonly board: DotsBoard) {
    this.mark = new Int32Array(board.field.size);
    this.stack = new Int32Array(board.field.size);
    this.cells = new Int32Array(board.field.size);
  }

  /** The stamp of the latest scan; points visited by earlier scans hold smaller stamps. */
  get currentStamp(): number {
    return this.stamp;
  }

  /** A stamp value that every later scan exceeds: lets a caller ask "visited since then?". */
  newRound(): number {
    return this.stamp + 1;
  }

  /**
   * The closed region of `seat` holding `start`, or null when the region reaches the edge.
   * `start` must not be a live dot of `seat`.
   */
  closedRegion(start: number, seat: number): ClosedRegion | null {
    if (!this.raysMeetWalls(start, seat)) return null;
    const { owner, captor } = this.board;
    const sides = this.board.field.sides;
    const mark = this.mark;
    const stamp = ++this.stamp;
    const own = seat + 1;
    const stack = this.stack;
    let top = 0;
    let count = 0;
    let liveEnemies = 0;
    stack[top++] = start;
    mark[start] = stamp;
    while (top > 0) {
      const p = stack[--top];
      this.cells[count++] = p;
      const o = owner[p];
      if (o !== 0 && o !== own && captor[p] === 0) liveEnemies++;
      for (let d = 0; d < 4; d++) {
        const q = p + sides[d];
        if (mark[q] === stamp) continue;
        const oq = owner[q];
        if (oq === BORDER) return null;
        if (oq === own && captor[q] === 0) continue;
        mark[q] = stamp;
        stack[top++] = q;
      }
    }
    return { stamp, cells: Array.from(this.cells.subarray(0, count)), liveEnemies };
  }

  /**
   * Cheap necessary condition: a closed region around `start` must meet a live dot of `seat` on
   * each of the four straight lines leaving it, before the edge. Most open regions fail here
   * without a flood fill.
   */
  private raysMeetWalls(start: number, seat: number): boolean {
    const { owner, captor } = this.board;
    const own = seat + 1;
    for (const step of this.board.field.sides) {
      let p = start + step;
      for (;;) {
        const o = owner[p];
        if (o === BORDER) return false;
        if (o === own && captor[p] === 0) break;
        p += step;
      }
    }
    return true;
  }
}

export interface ClosedRegion {
  /** The scanner stamp its points carry (valid until the next scan). */
  readonly stamp: number;
  /** Padded-grid indices of the region's points, in no particular order. */
  readonly cells: readonly number[];
  /** How many live dots of other players it holds: a surround needs at least one. */
  readonly liveEnemies: number;
}
