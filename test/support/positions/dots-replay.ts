/*
 * A Dots game's fields rebuilt ply by ply from the archive's replay (GET /games/{id}/replay: the dot
 * of each ply, and for each surround the dots it captured and the points it enclosed), the enclosure
 * written here as the rules state it — the 4-connected area of points that are not the surrounder's
 * live dots, all of it the surrounder's from then on —, for the tests that check the position and
 * pattern indexes against a brute force. Plies after the first dot the replay calls illegal are no
 * position (the indexes stop there).
 */
export interface Field {
  /** Per point, row by row: owner · 5 + captor (owner and captor 0 or seat + 1). */
  readonly rows: number[][];
  readonly toMove: number;
}

export interface Replayed {
  readonly width: number;
  readonly height: number;
  readonly positions: Field[];
  /** The move from each position: [x, y] = [col, row], or null for a pass or grounding. */
  readonly moves: ([number, number] | null)[];
}

export interface SurroundCells {
  readonly chain: [number, number][];
  readonly captured: [number, number][];
  readonly empty: [number, number][];
}

export interface ReplayPly {
  readonly ply: number;
  readonly player: number;
  readonly move: string;
  readonly details?: { cell?: [number, number]; illegal?: string; pass?: boolean; grounding?: boolean; surroundCells?: SurroundCells[] };
}

/** The field after every ply of a replay, rebuilt here from its dots and surrounds. */
export function rebuild(width: number, height: number, setup: readonly { colour: number; row: number; col: number }[], plies: readonly ReplayPly[]): Replayed {
  const owner = new Array<number>(width * height).fill(0);
  const captor = new Array<number>(width * height).fill(0);
  const enclose = (seat: number, seeds: readonly [number, number][]) => {
    const stack = seeds.map(([row, col]) => row * width + col);
    const seen = new Set<number>();
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (seen.has(p)) continue;
      const row = Math.floor(p / width);
      const col = p % width;
      if (owner[p] === seat + 1 && captor[p] === 0) continue; // the surrounder's live dots are the wall
      seen.add(p);
      if (row === 0 || col === 0 || row === height - 1 || col === width - 1) throw new Error(`a surround of seat ${seat} reaches the edge at ${row},${col}`);
      stack.push(p - width, p + width, p - 1, p + 1);
    }
    for (const p of seen) captor[p] = seat + 1;
  };
  const place = (seat: number, row: number, col: number, surrounds: readonly SurroundCells[] | undefined) => {
    owner[row * width + col] = seat + 1;
    for (const s of surrounds ?? []) enclose(seat, [...s.captured, ...s.empty]);
  };
  // Setup dots capture nothing in these games (checked by the archive's ply 0 agreeing below).
  for (const dot of setup) owner[dot.row * width + dot.col] = dot.colour + 1;
  const legal = plies.findIndex((p) => p.details?.illegal !== undefined);
  const line = legal < 0 ? plies : plies.slice(0, legal);
  const snapshot = (toMove: number): Field => ({ rows: Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => owner[r * width + c] * 5 + captor[r * width + c])), toMove });
  const positions: Field[] = [];
  const moves: ([number, number] | null)[] = [];
  // Whose turn: the next ply's player; after the last, the other player (no extra moves in these games).
  const after = plies.length === 0 ? 0 : 1 - line[line.length - 1]?.player;
  for (let i = 0; i <= line.length; i++) {
    const next = plies[i];
    positions.push(snapshot(i < plies.length ? next.player : after));
    if (i === line.length) break;
    const cell = next.details?.cell;
    if (cell === undefined) {
      moves.push(null);
      continue;
    }
    place(next.player, cell[0], cell[1], next.details?.surroundCells);
    moves.push([cell[1], cell[0]]);
  }
  return { width, height, positions, moves };
}

