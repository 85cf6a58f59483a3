import type { ReplayPly } from '../../plugin.js';
import { indexLetter } from '../../syntaxes/sgf/index.js';
import type { GoPoint } from './replay.js';
import type { GoPlyDetails } from './ply-details.js';

export type { GoPlyDetails } from './ply-details.js';

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

/** The details of a replayed Go ply, read as written (absent fields stay absent). */
export function goPlyDetails(ply: Pick<ReplayPly, 'details'>): Partial<GoPlyDetails> {
  return (ply.details ?? {}) as Partial<GoPlyDetails>;
}

export interface GoPlies {
  readonly plies: ReplayPly[];
  /** Stones each seat captured over the main line. */
  readonly captures: number[];
}

/** Column letters of the usual Go coordinates: A to Z without I (as on boards since the 19th century). */
export const GO_COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

/**
 * A point in the usual Go coordinates: the column letter (no I) counted from the left, the row
 * number counted from the bottom (`Q16` for x 15, y 3 on 19x19). Past 25 columns there are no letters: null.
 */
export function goCoordinate(point: GoPoint, height: number): string | null {
  if (point.x >= GO_COLUMNS.length) return null;
  return `${GO_COLUMNS[point.x]}${height - point.y}`;
}

/** A point in SGF's letters: column then row from the top, `a` = 0 (`pd` for x 15, y 3). */
export function sgfLetters(point: GoPoint): string {
  return indexLetter(point.x) + indexLetter(point.y);
}

/**
 * The replay rows of a Go main line and the capture tally, each move of `line` as `input` reads it
 * (called as the move is taken, so what it makes lives no longer): `move` and `captured` in the
 * format's notation (`pass` for a pass), `score` the stones captured so far per seat, and `details`
 * with colour, the raw x and y, the move in the usual coordinates (`point`: `Q16`) and in SGF's
 * letters (`sgf`: `pd`), the removed stones as x/y and `illegal`, plus what `extra` adds for the format.
 * `withPlies` false: the tally alone (a reading that is only stored).
 */
export function goReplayPlies<S, M extends GoPlyInput>(
  line: readonly S[],
  input: (move: S) => M,
  board: { readonly seats: number; readonly height: number },
  notation: (point: GoPoint) => string,
  extra?: (move: M) => Pick<GoPlyDetails, 'setup' | 'fileRemoves'> | undefined,
  withPlies = true,
): GoPlies {
  const seats = board.seats;
  const captures = Array.from({ length: seats }, () => 0);
  if (!withPlies) {
    for (const move of line) {
      const m = input(move);
      captures[m.seat] += m.captured.length;
    }
    return { plies: [], captures };
  }
  const plies = line.map((move): ReplayPly => {
    const m = input(move);
    captures[m.seat] += m.captured.length;
    const details: GoPlyDetails = {
      color: m.color,
      x: m.point?.x ?? null,
      y: m.point?.y ?? null,
      point: m.point === null ? 'pass' : goCoordinate(m.point, board.height),
      sgf: m.point === null ? '' : sgfLetters(m.point),
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
