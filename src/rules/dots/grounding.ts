import type { DotsBoard } from './board.js';
import type { Cell } from './field.js';

/**
 * The live dots of `seat` that are not grounded: not joined to the field's edge through the seat's
 * own live dots, each dot linked to its 8 neighbours as surround chains are. They are the dots a
 * grounding player gives up, and the dots the last player left may still surround. Reads the board
 * and changes nothing; row-major order.
 */
export function ungroundedDots(board: DotsBoard, seat: number): Cell[] {
  const { field } = board;
  const { width, height, stride } = field;
  const grounded = new Uint8Array(field.size);
  const stack: number[] = [];
  const live = (p: number): boolean => board.isLiveDot(p, seat);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      if (row !== 0 && col !== 0 && row !== height - 1 && col !== width - 1) continue;
      const p = field.point(row, col);
      if (live(p) && grounded[p] === 0) {
        grounded[p] = 1;
        stack.push(p);
      }
    }
  }
  const around = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const offset of around) {
      const q = p + offset;
      if (grounded[q] === 0 && live(q)) {
        grounded[q] = 1;
        stack.push(q);
      }
    }
  }
  const cut: Cell[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const p = field.point(row, col);
      if (live(p) && grounded[p] === 0) cut.push({ row, col });
    }
  }
  return cut;
}
