import { Board, Cell, Point, STONE_VALUES, SlotCell, StoneColour, cellAt } from './board.js';
import { directions } from './geometry.js';
import type { PegIllegal } from './illegal.js';
import type { Refused } from '../refusal.js';

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

export type JumpJudgement = { readonly legal: true; readonly over: Point } | Refused<PegIllegal>;

/**
 * Whether a stone may jump from `from` to `to` on `board` as it stands (its current stones), and
 * if not, the first rule of {@link PEG_ILLEGAL} the jump breaks.
 */
export function judgeJump(board: Board, from: Point, to: Point): JumpJudgement {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const straight = (dx === 0 || Math.abs(dx) === 2) && (dy === 0 || Math.abs(dy) === 2) && (dx !== 0 || dy !== 0);
  if (!straight) return refuse('not_a_jump');
  const step = { x: dx / 2, y: dy / 2 };
  if (!directions(board.mode).some((d) => d.x === step.x && d.y === step.y)) return refuse('diagonal_not_allowed');
  const over = { x: from.x + step.x, y: from.y + step.y };
  const start = cellAt(board, from.x, from.y);
  const middle = cellAt(board, over.x, over.y);
  const end = cellAt(board, to.x, to.y);
  if (start === undefined || middle === undefined || end === undefined) return refuse('off_board');
  if (start.kind !== 'slot' || middle.kind !== 'slot' || end.kind !== 'slot') return refuse('not_a_slot');
  if (start.stone === null) return refuse('no_stone');
  if (middle.stone === null) return refuse('nothing_to_jump');
  if (end.stone !== null) return refuse('occupied');
  return { legal: true, over };
}

function refuse(reason: PegIllegal): Refused<PegIllegal> {
  return { legal: false, reason };
}

/** Thrown by {@link playJumps} for a jump that {@link judgeJump} refuses. */
export class IllegalJumpError extends Error {
  constructor(
    readonly index: number,
    readonly reason: PegIllegal,
    jump: { from: Point; to: Point },
  ) {
    super(`jump ${index + 1}, (${jump.from.x},${jump.from.y}) to (${jump.to.x},${jump.to.y}): ${reason}`);
    this.name = 'IllegalJumpError';
  }
}

/**
 * Plays jumps from a board's start position (each must be legal: an illegal one throws
 * {@link IllegalJumpError} with its reason) as the program scores them: a jumped stone scores its
 * value; when one stone is left and it stands on a target, it earns its value × 100 on top.
 */
export function playJumps(board: Board, jumps: readonly { from: Point; to: Point }[]): PlayResult {
  const cells: Cell[] = [...board.cells];
  const put = (p: Point, cell: SlotCell): void => {
    cells[p.y * board.width + p.x] = cell;
  };
  let stonesLeft = cells.filter((c) => c.kind === 'slot' && c.stone !== null).length;
  let points = 0;
  const played: PlayedJump[] = [];
  const current: Board = { ...board, cells };
  const at = (p: Point): Cell | undefined => cellAt(current, p.x, p.y);
  jumps.forEach(({ from, to }, index) => {
    const judgement = judgeJump(current, from, to);
    if (!judgement.legal) throw new IllegalJumpError(index, judgement.reason, { from, to });
    const over = judgement.over;
    const start = at(from) as SlotCell & { stone: StoneColour };
    const middle = at(over) as SlotCell & { stone: StoneColour };
    const end = at(to) as SlotCell;
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
