// The type alone, importing nothing, so that every reader shares it: the viewer's build too.

/**
 * A draughts ply's details, as the ledger writes them into the replay and pictures, the viewer and
 * exports read them. Where the piece started and stopped, as x (file a = 0) and y (rank 8 = 0): a
 * viewer cannot tell them from the boards alone when a king's capture ends on the square it started from.
 */
export type CheckersPlyDetails = {
  /** The board after the ply, as {@link boardRows} writes it. */
  position: number[][];
  from: { x: number; y: number };
  to: { x: number; y: number };
  promoted: boolean;
  /** PDN: the move as the file writes it, its comments, NAGs and the count of variations after it. */
  written?: string;
  comments?: string[];
  nags?: string[];
  variations?: number;
};
