import { BORDER, DotsBoard } from './board.js';

/**
 * Describes a captured region the way the VK Dots game code writes it: the chain of surrounding
 * dots and the order of the points inside. These conventions were found by replaying the seed's
 * examples (spec `vk-dots.md`) and are normative; other sources reuse them for their records.
 */
export class SurroundShape {
  /** `inRegion[p] === regionStamp`: p belongs to the captured region. */
  private readonly inRegion: Int32Array;
  /** `inArea[p] === regionStamp`: p belongs to the region with its holes filled. */
  private readonly inArea: Int32Array;
  /** Marks for the flood fill that finds the outside of the area. */
  private readonly outside: Int32Array;
  private regionStamp = 0;
  private readonly stack: Int32Array;
  /** Offsets of the 8 neighbours in the anchor search order E, SE, S, SW, W, NW, N, NE. */
  private readonly anchorOrder: readonly number[];

  constructor(private readonly board: DotsBoard) {
    const { size, stride } = board.field;
    this.inRegion = new Int32Array(size);
    this.inArea = new Int32Array(size);
    this.outside = new Int32Array(size);
    this.stack = new Int32Array(size * 2);
    this.anchorOrder = [1, stride + 1, stride, stride - 1, -1, -stride - 1, -stride, -stride + 1];
  }

  /** Remembers the region's points; must be called before the other methods. */
  load(cells: readonly number[]): void {
    const stamp = ++this.regionStamp;
    for (const p of cells) this.inRegion[p] = stamp;
    this.fillHoles(cells);
  }

  /** Whether p lies in the loaded region with its holes filled. */
  inFilledArea(p: number): boolean {
    return this.inArea[p] === this.regionStamp;
  }

  /**
   * The first of the move's 8 neighbours (E, SE, S, SW, W, NW, N, NE) inside the area, or -1
   * when the move does not touch it (a deferred capture).
   */
  anchorNextTo(move: number): number {
    for (const offset of this.anchorOrder) {
      if (this.inFilledArea(move + offset)) return move + offset;
    }
    return -1;
  }

  /**
   * The chain: the area's boundary dots walked with the area on the left (rows growing
   * downwards), starting with the dot after X0 and ending with X0, where X0 is the first point
   * outside the area met walking from `anchor` towards smaller columns.
   */
  chainFrom(anchor: number): number[] {
    let x0 = anchor;
    while (this.inFilledArea(x0)) x0 -= 1;
    const sides = this.board.field.sides;
    const stamp = this.regionStamp;
    const inRegion = this.inRegion;
    // A crack is the side between a region point c and its outside neighbour c + sides[o].
    // Start on the crack east of X0: c = X0 + 1, outside towards W (3).
    const startCell = x0 + 1;
    const startSide = 3;
    let c = startCell;
    let o = startSide;
    const dots: number[] = [];
    // Every crack is walked once; more steps than cracks would mean a broken region.
    let steps = 4 * this.board.field.size;
    for (;;) {
      if (--steps < 0) throw new Error('chain walk did not close: the region is not 4-connected');
      const dot = c + sides[o];
      if (dots.length === 0 || dots[dots.length - 1] !== dot) dots.push(dot);
      // Heading h keeps the region on the left: left(h) is the side opposite to o.
      const h = (o + 3) & 3;
      const ahead = c + sides[h];
      if (inRegion[ahead] !== stamp) {
        o = h; // convex corner: turn left around c
      } else {
        const diagonal = ahead + sides[o];
        if (inRegion[diagonal] !== stamp) {
          c = ahead; // straight on along the same wall
        } else {
          c = diagonal; // concave corner: turn right
          o = (h + 2) & 3;
        }
      }
      if (c === startCell && o === startSide) break;
    }
    // dots = [X0, d1, ..., dk, X0...]: write d1..dk then X0 once.
    let end = dots.length;
    while (end > 1 && dots[end - 1] === x0) end--;
    const chain = dots.slice(1, end);
    chain.push(x0);
    return chain;
  }

  /**
   * The region's points in depth-first pre-order (neighbours N, E, S, W) from `start`, reversed:
   * the order in which the game code lists captured dots and empty points.
   */
  listingOrder(start: number): number[] {
    const sides = this.board.field.sides;
    const stamp = this.regionStamp;
    const inRegion = this.inRegion;
    // Reuse `outside` as the visited mark with a negative stamp, so it cannot clash with fillHoles.
    const visited = this.outside;
    const seen = -stamp;
    const order: number[] = [];
    const stack = this.stack;
    let top = 0;
    stack[top++] = start;
    stack[top++] = 0;
    visited[start] = seen;
    order.push(start);
    while (top > 0) {
      const p = stack[top - 2];
      const next = stack[top - 1];
      if (next === 4) {
        top -= 2;
        continue;
      }
      stack[top - 1] = next + 1;
      const q = p + sides[next];
      if (inRegion[q] !== stamp || visited[q] === seen) continue;
      visited[q] = seen;
      order.push(q);
      stack[top++] = q;
      stack[top++] = 0;
    }
    return order.reverse();
  }

  /**
   * Marks the area: the region plus every point not 8-connected to the outside of the region's
   * bounding box (holes, e.g. a group of the surrounder's own dots inside the region).
   */
  private fillHoles(cells: readonly number[]): void {
    const field = this.board.field;
    const stride = field.stride;
    const stamp = this.regionStamp;
    let minRow = Infinity;
    let maxRow = -Infinity;
    let minCol = Infinity;
    let maxCol = -Infinity;
    for (const p of cells) {
      const r = Math.floor(p / stride);
      const c = p % stride;
      if (r < minRow) minRow = r;
      if (r > maxRow) maxRow = r;
      if (c < minCol) minCol = c;
      if (c > maxCol) maxCol = c;
    }
    // The frame one cell outside the bounding box is outside the area by construction; a closed
    // region never touches the edge, so the frame stays inside the padded grid.
    minRow--;
    maxRow++;
    minCol--;
    maxCol++;
    const stack = this.stack;
    let top = 0;
    const outside = this.outside;
    for (let r = minRow; r <= maxRow; r++) {
      for (let c = minCol; c <= maxCol; c++) {
        if (r === minRow || r === maxRow || c === minCol || c === maxCol) {
          const p = r * stride + c;
          outside[p] = stamp;
          stack[top++] = p;
        }
      }
    }
    while (top > 0) {
      const p = stack[--top];
      for (const offset of this.anchorOrder) {
        const q = p + offset;
        const r = Math.floor(q / stride);
        const c = q % stride;
        if (r < minRow || r > maxRow || c < minCol || c > maxCol) continue;
        if (outside[q] === stamp || this.inRegion[q] === stamp) continue;
        outside[q] = stamp;
        stack[top++] = q;
      }
    }
    for (let r = minRow + 1; r < maxRow; r++) {
      for (let c = minCol + 1; c < maxCol; c++) {
        const p = r * stride + c;
        if (outside[p] !== stamp && this.board.owner[p] !== BORDER) this.inArea[p] = stamp;
      }
    }
  }
}
