/**
 * Go board pictures: the position after a ply, rebuilt from the replay rows (stones placed, stones
 * removed, set-up stones), and its SVG drawing.
 */
import type { GameAnalysis } from '../formats/plugin.js';
import { GO_COLUMNS, goPlyDetails } from '../formats/families/go/index.js';
import { BoardFrame, element, svgDocument } from './svg.js';
import type { RenderOptions } from './svg.js';
import { numberOr, pointList, pointOf, recordOf } from './model.js';

export type Stone = 'black' | 'white';

export interface GoStone {
  readonly x: number;
  readonly y: number;
  readonly color: Stone;
}

/** A Go position: x to the right, y downwards from the top edge, 0-based. */
export interface GoPosition {
  readonly width: number;
  readonly height: number;
  readonly stones: readonly GoStone[];
  /** Where the last ply put its stone; null before the first ply or after a pass. */
  readonly lastMove: { readonly x: number; readonly y: number } | null;
  /** Stones each colour has captured so far. */
  readonly captures: Readonly<Record<Stone, number>>;
}

/** The position after `ply` plies (0: the set-up stones only) of an analysed Go game. */
export function goPositionAt(analysis: GameAnalysis, ply: number): GoPosition {
  const width = analysis.facts.boardWidth ?? numberOr(analysis.details.boardSize, 19);
  const height = analysis.facts.boardHeight ?? width;
  const board = new Map<string, Stone>();
  const key = (x: number, y: number) => `${x},${y}`;
  const setup = recordOf(analysis.details.setupPoints);
  for (const color of ['black', 'white'] as const) for (const p of pointList(setup?.[color])) board.set(key(p.x, p.y), color);
  // The replay's own tally (`score`: stones captured so far, by seat) gives the captions; it is
  // read by the colour each seat plays, not counted again from the removed stones.
  const seatOf: Partial<Record<Stone, number>> = {};
  const rows = analysis.replay.slice(0, ply);
  let lastMove: GoPosition['lastMove'] = null;
  for (const row of rows) {
    const details = goPlyDetails(row);
    for (const p of details.setup ?? []) {
      const at = pointOf(p);
      if (!at) continue;
      if (p.cell === 'black' || p.cell === 'white') board.set(key(at.x, at.y), p.cell);
      else board.delete(key(at.x, at.y));
    }
    const color = details.color === 'white' ? 'white' : 'black';
    if (row.player !== null) seatOf[color] = row.player;
    const at = pointOf(details);
    lastMove = at;
    if (at) board.set(key(at.x, at.y), color);
    for (const r of pointList(details.removes)) board.delete(key(r.x, r.y));
  }
  const tally = rows.length > 0 ? rows[rows.length - 1].score : [];
  const taken = (color: Stone) => (seatOf[color] === undefined ? 0 : (tally[seatOf[color]] ?? 0));
  const captures = { black: taken('black'), white: taken('white') };
  const stones = [...board].map(([k, color]) => {
    const [x, y] = k.split(',').map(Number);
    return { x, y, color };
  });
  return { width, height, stones, lastMove, captures };
}

/** Column names A, B… without I (then AA, AB… past Z), as Go boards are labelled. */
export function goColumnName(x: number): string {
  const letters = GO_COLUMNS;
  return x < letters.length ? letters[x] : letters[Math.floor(x / letters.length) - 1] + letters[x % letters.length];
}

/** The usual star points: 3-3 (4-4 from 13 up) corners, the centre of odd boards, side points from 15 up. */
export function starPoints(width: number, height: number): { x: number; y: number }[] {
  if (width < 7 || height < 7) return [];
  const lines = (n: number) => {
    const edge = n >= 13 ? 3 : 2;
    return { ends: [edge, n - 1 - edge], middle: n % 2 === 1 ? [(n - 1) / 2] : [] };
  };
  const xs = lines(width);
  const ys = lines(height);
  const sides = width >= 15 && height >= 15;
  const grid = (xa: number[], ya: number[]) => xa.flatMap((x) => ya.map((y) => ({ x, y })));
  return [
    ...grid(xs.ends, ys.ends),
    ...grid(xs.middle, ys.middle),
    ...(sides ? [...grid(xs.middle, ys.ends), ...grid(xs.ends, ys.middle)] : []),
  ];
}

/** Go seen from black's side is the board as recorded; `orientation=white` turns it round. */
export function renderGo(position: GoPosition, options: RenderOptions, title: string): string {
  const frame = new BoardFrame(position.width, position.height, 'points', options.orientation === 'white', options.coordinates, true);
  const body: string[] = [
    element('rect', { x: 0, y: 0, width: frame.viewWidth, height: frame.viewHeight, fill: '#dcb35c' }),
    frame.gridLines({ stroke: '#000', 'stroke-width': 1 }),
    element('g', { class: 'stars' }, starPoints(position.width, position.height).map((p) => frame.disc(p.x, p.y, 0.15, { fill: '#000' })).join('')),
  ];
  if (options.coordinates) {
    const columns = Array.from({ length: position.width }, (_, x) => goColumnName(x));
    const rows = Array.from({ length: position.height }, (_, y) => String(position.height - y));
    body.push(frame.labels(columns, rows));
  }
  const stones = position.stones.map((s) =>
    frame.disc(s.x, s.y, 0.94, { class: `stone ${s.color}`, 'data-x': s.x, 'data-y': s.y, fill: s.color === 'black' ? '#111' : '#fafafa', stroke: '#000', 'stroke-width': 1 }),
  );
  body.push(element('g', { class: 'stones' }, stones.join('')));
  const last = position.lastMove;
  if (last) {
    const on = position.stones.find((s) => s.x === last.x && s.y === last.y);
    body.push(frame.disc(last.x, last.y, 0.4, { class: 'last-move', 'data-x': last.x, 'data-y': last.y, fill: 'none', stroke: on?.color === 'black' ? '#fff' : '#000', 'stroke-width': 3 }));
  }
  body.push(frame.caption(`captures: black ${position.captures.black}, white ${position.captures.white}`));
  body.push(frame.areaFrame(options.area));
  return svgDocument(title, frame.viewWidth, frame.viewHeight, options, body);
}
