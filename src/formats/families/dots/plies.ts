import type { Cell, IllegalReason, Surround } from '../../../rules/dots/index.js';
import type { JsonValue, ReplayPly } from '../../plugin.js';
import type { CellPair, DotsPlyDetails } from './ply-details.js';

export type { CellPair, DotsPlyDetails, DotsSurroundCells } from './ply-details.js';

/** How a format names a point of the field (`3b` in VK codes, `cb` in SGF). */
export type CellName = (cell: Cell) => string;

/** One replayed dot, in the words every Dots format shares. */
export interface DotsPlyInput {
  /** 1-based. */
  readonly ply: number;
  readonly seat: number;
  /** The move in the format's notation. */
  readonly move: string;
  /** Row and column as the format's viewer numbers them. */
  readonly row: number;
  readonly col: number;
  /** The same point as the rules engine numbers it (0-based, rows downwards). */
  readonly cell: Cell;
  readonly illegal?: IllegalReason;
  readonly surrounds: readonly Surround[];
  /** Score of every seat after the ply. */
  readonly scores: readonly number[];
  /** Format-specific details of a surrounding ply (VK: its regenerated record). */
  readonly surroundExtras?: Readonly<Record<string, JsonValue>>;
}

/** The details of a replayed Dots ply, read as written (absent fields stay absent). */
export function dotsPlyDetails(ply: Pick<ReplayPly, 'details'>): Partial<DotsPlyDetails> {
  return (ply.details ?? {}) as Partial<DotsPlyDetails>;
}

/**
 * The replay ply of a dot: captured dots in the format's notation, and the details a viewer needs
 * (row, col, illegal reason; for a surrounding move its chains, the empty points it enclosed and
 * whether a capture was deferred).
 */
export function dotsReplayPly(input: DotsPlyInput, name: CellName): ReplayPly {
  const { surrounds } = input;
  const details: DotsPlyDetails = { row: input.row, col: input.col, cell: pair(input.cell) };
  if (input.illegal !== undefined) details.illegal = input.illegal;
  if (surrounds.length > 0) {
    details.chains = surrounds.map((s) => s.chain.map(name).join(''));
    details.empty = surrounds.flatMap((s) => s.empty.map(name));
    details.deferred = surrounds.some((s) => s.deferred);
    details.surroundCells = surrounds.map((s) => ({ chain: s.chain.map(pair), captured: s.captured.map(pair), empty: s.empty.map(pair) }));
  }
  return {
    ply: input.ply,
    player: input.seat,
    move: input.move,
    captured: surrounds.flatMap((s) => s.captured.map(name)),
    score: [...input.scores],
    details: surrounds.length > 0 && input.surroundExtras ? { ...details, ...input.surroundExtras } : details,
  };
}

function pair(cell: Cell): CellPair {
  return [cell.row, cell.col];
}

/** How many moves surrounded something. */
export function surroundingMoves(moves: readonly { readonly surrounds: readonly Surround[] }[]): number {
  return moves.filter((m) => m.surrounds.length > 0).length;
}
