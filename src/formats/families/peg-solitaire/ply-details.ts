// The type alone, importing nothing, so that every reader shares it: the viewer's build too.

/**
 * A jump's details, as the replay carries them and pictures, the viewer and exports read them: the
 * holes as x/y from the board's top-left (locked cells counted), the stones, the points it scored
 * and the stones left.
 */
export type PegPlyDetails = {
  from: { x: number; y: number };
  over: { x: number; y: number };
  to: { x: number; y: number };
  stone: 'red' | 'yellow' | 'green';
  capturedStone: 'red' | 'yellow' | 'green';
  points: number;
  stonesLeft: number;
};
