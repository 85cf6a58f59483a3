import { neighbourTable } from './neighbours.js';
import type { GoPosition } from './position.js';
import { AreaScore, BLACK, EMPTY, WHITE } from './types.js';

/**
 * Area scoring as Tromp–Taylor define it: a colour scores its stones on the board plus every empty
 * point from which only its stones can be reached through empty points. No dead-stone removal:
 * the position is scored as it stands. Komi is the caller's business.
 */
export function areaScore(position: GoPosition): AreaScore {
  const { size, cells } = position;
  const neighbours = neighbourTable(size);
  const points = size * size;
  const seen = new Uint8Array(points);
  const region = new Int16Array(points);
  let black = 0;
  let white = 0;
  let neutral = 0;
  for (let start = 0; start < points; start++) {
    const cell = cells[start];
    if (cell === BLACK) black++;
    else if (cell === WHITE) white++;
    if (cell !== EMPTY || seen[start]) continue;
    let touchesBlack = false;
    let touchesWhite = false;
    seen[start] = 1;
    region[0] = start;
    let length = 1;
    for (let i = 0; i < length; i++) {
      const base = region[i] * 4;
      for (let k = 0; k < 4; k++) {
        const next = neighbours[base + k];
        if (next < 0) continue;
        const neighbour = cells[next];
        if (neighbour === BLACK) touchesBlack = true;
        else if (neighbour === WHITE) touchesWhite = true;
        else if (!seen[next]) {
          seen[next] = 1;
          region[length++] = next;
        }
      }
    }
    if (touchesBlack && !touchesWhite) black += length;
    else if (touchesWhite && !touchesBlack) white += length;
    else neutral += length;
  }
  return { black, white, neutral };
}
