// The type alone, importing nothing, so that every reader shares it: the viewer's build too.

/** Points as 0-based `[row, col]` pairs (rows downwards), for readers that know no notation. */
export type CellPair = [number, number];

/** One surround of a ply, as pairs: its chain, the dots it captured and the empty points it enclosed. */
export type DotsSurroundCells = { chain: CellPair[]; captured: CellPair[]; empty: CellPair[] };

/**
 * A Dots ply's details, as `dotsReplayPly` writes them into the replay and pictures, the viewer and
 * exports read them. A format may add its own fields to a surrounding ply (VK: its record).
 */
export type DotsPlyDetails = {
  /** Row and column as the format's viewer numbers them. */
  row: number;
  col: number;
  cell: CellPair;
  /** Why the rules refused the dot (a reason code of the rules engine). */
  illegal?: string;
  /** A surrounding ply: its chains and enclosed empty points in the format's notation, whether a capture was deferred, and the same as pairs. */
  chains?: string[];
  empty?: string[];
  deferred?: boolean;
  surroundCells?: DotsSurroundCells[];
};
