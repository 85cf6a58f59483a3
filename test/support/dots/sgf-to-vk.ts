import type { DotsSgfGame } from './dots-sgf.js';

/** The largest row or column a VK game code can write (base-36 digit z). */
export const VK_LARGEST_SIDE = 35;

export type VkConversion =
  | {
      readonly ok: true;
      /** The VK game code: moves only, no surround records. */
      readonly code: string;
      readonly width: number;
      readonly height: number;
      /** The SGF colour (0 Black, 1 White) that plays red, i.e. moves first. */
      readonly redColour: 0 | 1;
      /** How many setup dots were written as the first moves. */
      readonly setupMoves: number;
    }
  | { readonly ok: false; readonly reason: string };

function digit(value: number): string {
  return (value + 1).toString(36);
}

/**
 * Converts the moves of a Dots SGF game to a VK game code (moves only). Setup dots (a cross
 * start) become the first moves, alternating from the colour that moves first. Only fields up to
 * 35x35 and strictly alternating games can be written; anything else is refused with a reason.
 */
export function sgfToVkCode(game: DotsSgfGame): VkConversion {
  const { width, height } = game;
  if (!(width >= 1 && height >= 1)) return { ok: false, reason: 'no field size (SZ)' };
  if (width > VK_LARGEST_SIDE || height > VK_LARGEST_SIDE) {
    return { ok: false, reason: `field ${width}x${height} is larger than a VK code can address (35)` };
  }
  if (game.moves.length === 0) return { ok: false, reason: 'no moves' };
  const redColour = game.moves[0].colour;
  const first = game.setup.filter((d) => d.colour === redColour);
  const second = game.setup.filter((d) => d.colour !== redColour);
  if (first.length !== second.length) {
    return { ok: false, reason: `setup dots cannot alternate: ${first.length} of the first mover, ${second.length} of the other` };
  }
  const sequence = [...first.flatMap((dot, i) => [dot, second[i]]), ...game.moves];
  const code: string[] = [];
  for (let i = 0; i < sequence.length; i++) {
    const dot = sequence[i];
    const expected = i % 2 === 0 ? redColour : 1 - redColour;
    if (dot.colour !== expected) {
      return { ok: false, reason: `not alternating at move ${i + 1 - first.length * 2} (${dot.colour === 0 ? 'B' : 'W'} moves twice)` };
    }
    code.push(digit(dot.row) + digit(dot.col));
  }
  return { ok: true, code: code.join(''), width, height, redColour, setupMoves: first.length * 2 };
}
