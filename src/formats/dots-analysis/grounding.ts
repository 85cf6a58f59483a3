import type { Cell, DotsBoard } from '../../rules/dots/index.js';

/**
 * The grounding end of a Dots game: the player who grounds gives up every live dot of theirs that
 * is not grounded — not joined to the field's edge through their own live dots, each dot linked to
 * its 8 neighbours as surround chains are — and each such dot counts as captured by the opponent.
 * Reads the engine's board and changes nothing; returns the dots given up, in row-major order.
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

/** Scores after `seat` grounds in a two-seat game: the opponent gains one per ungrounded dot. */
export function scoresAfterGrounding(scores: readonly number[], seat: number, given: number): number[] {
  return scores.map((score, s) => (s === seat ? score : score + given));
}
