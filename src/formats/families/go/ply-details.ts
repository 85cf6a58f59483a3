// The type alone, importing nothing, so that every reader shares it: the viewer's build too.

/**
 * A Go ply's details, as `goReplayPlies` writes them into the replay and pictures, the viewer and
 * exports read them; the formats' own extras beside them are named here too.
 */
export type GoPlyDetails = {
  color: 'black' | 'white' | null;
  /** The point from the top-left, 0-based; null for a pass. */
  x: number | null;
  y: number | null;
  /** The usual coordinates (`Q16`), `pass`, or null past 25 columns. */
  point: string | null;
  /** SGF's letters (`pd`), empty for a pass. */
  sgf: string;
  /** The stones the move took off. */
  removes: { x: number; y: number }[];
  /** The engine's reason when the move is illegal. */
  illegal?: string;
  /** SGF: points set up at this move (AB, AW, AE), with what each holds afterwards. */
  setup?: { x: number; y: number; cell: 'black' | 'white' | 'empty' }[];
  /** GoFans: the removes the file itself records, when it records them. */
  fileRemoves?: { x: number; y: number }[];
};
