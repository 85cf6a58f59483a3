/**
 * Boards drawn as a CSS grid of points or squares, which the pattern page and the position editor
 * share: the grid itself (its size and shape kept whatever the screen), the edges a point lies on
 * (its lines drawn only towards the board's inside), a stone, and the names players give points.
 */
import type { ComponentChildren } from 'preact';

/** `' t l'` for the top-left point: the classes that cut a point's lines at the board's edges. */
export function edgeClasses(x: number, y: number, width: number, height: number): string {
  return `${y === 0 ? ' t' : ''}${y === height - 1 ? ' b' : ''}${x === 0 ? ' l' : ''}${x === width - 1 ? ' r' : ''}`;
}

/** A board of `width` × `height` cells (points or squares), as wide as it may be and never out of shape. */
export function GridBoard({ kind, width, height, label, children }: { kind: string; width: number; height: number; label: string; children: ComponentChildren }) {
  return (
    <div
      class={`grid-board ${kind}`}
      style={{ gridTemplateColumns: `repeat(${width}, 1fr)`, gridTemplateRows: `repeat(${height}, 1fr)`, aspectRatio: `${width} / ${height}` }}
      role="group"
      aria-label={label}
    >
      {children}
    </div>
  );
}

/** A stone (or a Dots player's dot): `X` black or the first player, `O` white or the second, `any` either or none. */
export function Stone({ cell }: { cell: 'X' | 'O' | 'any' }) {
  return <span class={`st ${cell}`} />;
}

/** Go's column letters: no I. */
const GO_COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

/** A point as Go players name it (`Q16`: column letter, row counted from the bottom). */
export function goPointName(x: number, y: number, size: number): string {
  return `${GO_COLUMNS[x] ?? `${x + 1},`}${size - y}`;
}

/** A point in SGF's letters (`pd`: column then row, from the top left). */
export function sgfPoint(x: number, y: number): string {
  return String.fromCharCode(97 + x) + String.fromCharCode(97 + y);
}
