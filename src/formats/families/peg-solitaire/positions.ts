import type { Board, Point } from '../../../rules/peg-solitaire/board.js';
import { IllegalJumpError, playJumps } from '../../../rules/peg-solitaire/play.js';
import { PegPositionHasher } from '../../../rules/peg-solitaire/position-key.js';
import { apply } from '../../../rules/symmetry.js';
import { PositionTrackWriter, writeUint16 } from '../positions.js';
import type { PositionTrack } from '../positions.js';

/**
 * The slots' bounding box of a board, as the position keys take coordinates from it (top-left slot
 * column and row 0): the coordinates of the track's jumps, and the box a search turns them back in.
 */
export function pegSlotBox(board: Board): { left: number; top: number; width: number; height: number } {
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  board.cells.forEach((cell, i) => {
    if (cell.kind !== 'slot') return;
    const x = i % board.width;
    const y = Math.floor(i / board.width);
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  });
  return right < 0 ? { left: 0, top: 0, width: 0, height: 0 } : { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * The positions of a peg solitaire board played through jumps (see {@link PositionTrack}): the board
 * as the file gives it, then after each jump, as the replay numbers them, up to the first jump the
 * rules refuse. A jump is written as from x, from y, to x, to y in the coordinates the position keys
 * use — those of the slots' bounding box — turned by the transform in that box. Null for a board
 * the keys do not take (slots spanning more than 65,535 cells).
 */
export function pegPositionTrack(board: Board, jumps: readonly { readonly from: Point; readonly to: Point }[]): PositionTrack | null {
  let hasher: PegPositionHasher;
  try {
    hasher = new PegPositionHasher(board);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  let played;
  try {
    played = playJumps(board, jumps).jumps;
  } catch (error) {
    if (!(error instanceof IllegalJumpError)) throw error;
    played = playJumps(board, jumps.slice(0, error.index)).jumps;
  }
  const box = pegSlotBox(board);
  const writer = new PositionTrackWriter('peg-solitaire', played.length, {});
  writer.position(hasher.keys);
  for (const jump of played) {
    writer.move((t, into) => {
      const [fromX, fromY] = apply(t, jump.from.x - box.left, jump.from.y - box.top, box.width, box.height);
      const [toX, toY] = apply(t, jump.to.x - box.left, jump.to.y - box.top, box.width, box.height);
      writeUint16(into, 0, fromX);
      writeUint16(into, 2, fromY);
      writeUint16(into, 4, toX);
      writeUint16(into, 6, toY);
    });
    hasher.jump(jump.from, jump.to);
    writer.position(hasher.keys);
  }
  return writer.finish();
}
