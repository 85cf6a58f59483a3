import type { JsonValue, ReplayPly } from '../plugin.js';
import type { GoPoint } from './replay.js';

/** One main-line move as the replay rows need it, whatever the format. */
export interface GoPlyInput {
  readonly ply: number;
  readonly seat: number;
  readonly color: 'black' | 'white' | null;
  /** null for a pass. */
  readonly point: GoPoint | null;
  readonly captured: readonly GoPoint[];
  /** The engine's reason when the move is illegal (`ko`…), null when legal. */
  readonly illegal: string | null;
}

export interface GoPlies {
  readonly plies: ReplayPly[];
  /** Stones each seat captured over the main line. */
  readonly captures: number[];
}

/**
 * The replay rows of a Go main line and the capture tally: `move` and `captured` in the format's
 * notation (`pass` for a pass), `score` the stones captured so far per seat, and `details` with
 * colour, x, y, the removed stones as x/y and `illegal`, plus what `extra` adds for the format.
 */
export function goReplayPlies<M extends GoPlyInput>(
  moves: readonly M[],
  seats: number,
  notation: (point: GoPoint) => string,
  extra?: (move: M) => Record<string, JsonValue> | undefined,
): GoPlies {
  const captures = Array.from({ length: seats }, () => 0);
  const plies = moves.map((m): ReplayPly => {
    captures[m.seat] += m.captured.length;
    const details: Record<string, JsonValue> = {
      color: m.color,
      x: m.point?.x ?? null,
      y: m.point?.y ?? null,
      removes: m.captured.map((p) => ({ x: p.x, y: p.y })),
    };
    if (m.illegal !== null) details.illegal = m.illegal;
    Object.assign(details, extra?.(m));
    return {
      ply: m.ply,
      player: m.seat,
      move: m.point === null ? 'pass' : notation(m.point),
      captured: m.captured.map(notation),
      score: [...captures],
      details,
    };
  });
  return { plies, captures };
}
