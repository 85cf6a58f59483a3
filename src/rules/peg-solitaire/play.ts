import { Board, Cell, Point, STONE_VALUES, SlotCell, StoneColour, cellAt } from './board.js';
import { directions } from './geometry.js';

/** One jump played on a board, with what it scored. */
export interface PlayedJump {
  readonly from: Point;
  readonly over: Point;
  readonly to: Point;
  readonly stone: StoneColour;
  readonly captured: StoneColour;
  /** The captured stone's value. */
  readonly points: number;
  /** Points after this jump, the final bonus included on the last jump that earns it. */
  readonly total: number;
  readonly stonesLeft: number;
}

export interface PlayResult {
  readonly jumps: readonly PlayedJump[];
  readonly board: Board;
  /** The last stone's value × 100 when exactly one stone is left and it stands on a target, else 0. */
  readonly bonus: number;
  readonly points: number;
}

export class IllegalJumpError extends Error {
  constructor(
    readonly index: number,
    reason: string,
  ) {
    super(`jump ${index + 1}: ${reason}`);
    this.name = 'IllegalJumpError';
  }
}

/**
 * Plays jumps from a board's start position as the program scores them: a jumped stone scores its
 * value; when one stone is left and it stands on a target, it earns its value × 100 on top.
 */
export function playJumps(board: Board, jumps: readonly { from: Point; to: Point }[]): PlayResult {
  const cells: Cell[] = [...board.cells];
  const at = (p: Point): Cell | undefined => cellAt({ ...board, cells }, p.x, p.y);
  const put = (p: Point, cell: SlotCell): void => {
    cells[p.y * board.width + p.x] = cell;
  };
  let stonesLeft = cells.filter((c) => c.kind === 'slot' && c.stone !== null).length;
  let points = 0;
  const played: PlayedJump[] = [];
  jumps.forEach(({ from, to }, index) => {
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const step = { x: dx / 2, y: dy / 2 };
    if (!directions(board.mode).some((d) => d.x === step.x && d.y === step.y)) {
      throw new IllegalJumpError(index, `(${from.x},${from.y}) to (${to.x},${to.y}) is not a ${board.mode} jump`);
    }
    const over = { x: from.x + step.x, y: from.y + step.y };
    const start = at(from);
    const middle = at(over);
    const end = at(to);
    if (start?.kind !== 'slot' || start.stone === null) throw new IllegalJumpError(index, 'no stone to jump with');
    if (middle?.kind !== 'slot' || middle.stone === null) throw new IllegalJumpError(index, 'no stone to jump over');
    if (end?.kind !== 'slot' || end.stone !== null) throw new IllegalJumpError(index, 'the landing slot is not empty');
    put(to, { ...end, stone: start.stone });
    put(from, { ...start, stone: null });
    put(over, { ...middle, stone: null });
    stonesLeft--;
    points += STONE_VALUES[middle.stone];
    played.push({ from, over, to, stone: start.stone, captured: middle.stone, points: STONE_VALUES[middle.stone], total: points, stonesLeft });
  });
  const finalBoard: Board = { ...board, cells };
  const bonus = finalBonus(finalBoard);
  if (bonus > 0 && played.length > 0) {
    const last = played[played.length - 1];
    played[played.length - 1] = { ...last, total: last.total + bonus };
  }
  return { jumps: played, board: finalBoard, bonus, points: points + bonus };
}

function finalBonus(board: Board): number {
  const stones = board.cells.filter((c): c is SlotCell => c.kind === 'slot' && c.stone !== null);
  if (stones.length !== 1 || !stones[0].target || stones[0].stone === null) return 0;
  return STONE_VALUES[stones[0].stone] * 100;
}
