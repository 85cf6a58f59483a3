import { DotsGame, PlayOutcome, Surround } from '../../../src/rules/dots/index.js';

export type RC = readonly [number, number];

export function newGame(width: number, height: number, players = 2, extraMove = false): DotsGame {
  return new DotsGame({ width, height, players, extraMove });
}

/** Places setup dots for one seat; none of them may surround anything. */
export function setUp(game: DotsGame, seat: number, cells: readonly RC[]): void {
  for (const [row, col] of cells) {
    const outcome = game.place(seat, row, col);
    if (!outcome.legal) throw new Error(`setup dot ${row},${col} is illegal: ${outcome.reason}`);
    if (outcome.surrounds.length > 0) throw new Error(`setup dot ${row},${col} surrounds`);
  }
}

export function surroundsOf(outcome: PlayOutcome): readonly Surround[] {
  if (!outcome.legal) throw new Error(`illegal move: ${outcome.reason}`);
  return outcome.surrounds;
}

/** A surround's cells as [row, col] pairs, for readable expectations. */
export function pairs(cells: readonly { row: number; col: number }[]): RC[] {
  return cells.map((c) => [c.row, c.col] as const);
}
