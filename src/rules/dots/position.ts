import { Cell, DotsField } from './field.js';

export interface Position {
  readonly width: number;
  readonly height: number;
  readonly players: number;
  /**
   * Row-major point codes, `width * height` of them (the Dots server's digits): 0 empty, 1-4 a
   * live dot of seat code-1, 5-8 a captured dot of seat code-5, 9 an empty point inside a surround.
   */
  readonly points: ArrayLike<number>;
}

export interface PositionScore {
  /** Captures per seat, regenerated from the board. */
  readonly points: number[];
  readonly liveDots: number[];
  /** Captured dots per owning seat. */
  readonly capturedDots: number[];
  readonly surroundedEmpty: number;
  /** Captured dots back inside their owner's own area: they count for nobody (design document). */
  readonly recaptured: Cell[];
  /** Captured dots and surrounded empty points that no player's live dots enclose. */
  readonly unenclosed: Cell[];
}

/**
 * Scores a position without its history. A captured dot counts for the player whose surround
 * encloses it: the player for whom the point lies in a closed region (a 4-connected set of points
 * that are not that player's live dots, touching no edge). When several players enclose it, the
 * smallest such region (the innermost surround) decides.
 */
export function scorePosition(position: Position): PositionScore {
  const { width, height, players } = position;
  const field = new DotsField(width, height);
  const n = width * height;
  const code = (i: number): number => position.points[i];
  const regions = Array.from({ length: players }, (_, seat) => labelRegions(field, (i) => code(i) === seat + 1));
  const points = new Array<number>(players).fill(0);
  const liveDots = new Array<number>(players).fill(0);
  const capturedDots = new Array<number>(players).fill(0);
  const recaptured: Cell[] = [];
  const unenclosed: Cell[] = [];
  let surroundedEmpty = 0;
  for (let i = 0; i < n; i++) {
    const c = code(i);
    if (c >= 1 && c <= 4) liveDots[c - 1]++;
    if (c < 5) continue;
    const cell = { row: Math.floor(i / width), col: i % width };
    if (c === 9) surroundedEmpty++;
    else capturedDots[c - 5]++;
    let best = -1;
    for (let seat = 0; seat < players; seat++) {
      const { label, closed, size } = regions[seat];
      const region = label[i];
      if (region >= 0 && closed[region] && (best < 0 || size[region] < regions[best].size[regions[best].label[i]])) best = seat;
    }
    if (best < 0) unenclosed.push(cell);
    else if (c !== 9 && best === c - 5) recaptured.push(cell);
    else if (c !== 9) points[best]++;
  }
  return { points, liveDots, capturedDots, surroundedEmpty, recaptured, unenclosed };
}

interface Regions {
  /** Region number of every point (-1 for the player's own live dots). */
  readonly label: Int32Array;
  readonly closed: boolean[];
  readonly size: number[];
}

function labelRegions(field: DotsField, isWall: (i: number) => boolean): Regions {
  const { width, height } = field;
  const label = new Int32Array(width * height).fill(-1);
  const closed: boolean[] = [];
  const size: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < label.length; start++) {
    if (label[start] >= 0 || isWall(start)) continue;
    const id = closed.length;
    let count = 0;
    let isClosed = true;
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      count++;
      const row = Math.floor(i / width);
      const col = i % width;
      if (row === 0 || col === 0 || row === height - 1 || col === width - 1) isClosed = false;
      for (const [r, c] of [
        [row - 1, col],
        [row, col + 1],
        [row + 1, col],
        [row, col - 1],
      ]) {
        if (r < 0 || c < 0 || r >= height || c >= width) continue;
        const j = r * width + c;
        if (label[j] >= 0 || isWall(j)) continue;
        label[j] = id;
        stack.push(j);
      }
    }
    closed.push(isClosed);
    size.push(count);
  }
  return { label, closed, size };
}
