/**
 * Dots board pictures: the field after a ply, rebuilt from the replay rows (dots placed, surrounds
 * closed with what they captured and enclosed), and its SVG drawing.
 */
import type { GameAnalysis } from '../formats/plugin.js';
import { dotsPlyDetails } from '../formats/families/dots/index.js';
import { BoardFrame, element, svgDocument } from './svg.js';
import type { RenderOptions } from './svg.js';
import { numberOr, pairList, recordOf } from './model.js';

/** One place of the field: x = column, y = row, both 0-based from the top left. */
export interface DotsPlace {
  readonly x: number;
  readonly y: number;
}

export interface DotsDot extends DotsPlace {
  readonly seat: number;
  /** Surrounded by the other player. */
  readonly captured: boolean;
}

export interface DotsPosition {
  readonly width: number;
  readonly height: number;
  /** Colour of each seat's dots. */
  readonly colours: readonly string[];
  readonly dots: readonly DotsDot[];
  /** Closed surrounds, their chain of dots in order. */
  readonly surrounds: readonly { readonly seat: number; readonly chain: readonly DotsPlace[] }[];
  /** Empty places inside a surround, by the seat that owns them. */
  readonly enclosed: readonly (DotsPlace & { readonly seat: number })[];
  readonly lastMove: DotsPlace | null;
  readonly score: readonly number[];
}

/** Colours a picture may use as they are named; anything else falls back to red and blue. */
const NAMED_COLOURS: Readonly<Record<string, string>> = { red: '#d62728', blue: '#1f5fd6', black: '#111', white: '#fff', green: '#2ca02c' };
const DEFAULT_COLOURS = ['red', 'blue'];

/** The field after `ply` plies of an analysed Dots game. */
export function dotsPositionAt(analysis: GameAnalysis, ply: number): DotsPosition {
  const field = recordOf(analysis.details.field);
  const width = analysis.facts.boardWidth ?? numberOr(field?.width, 39);
  const height = analysis.facts.boardHeight ?? numberOr(field?.height, 32);
  const colours = [0, 1].map((seat) => {
    const named = analysis.players.find((p) => p.seat === seat)?.color ?? '';
    return named in NAMED_COLOURS ? named : DEFAULT_COLOURS[seat];
  });
  const dots = new Map<string, { x: number; y: number; seat: number; captured: boolean }>();
  const enclosed = new Map<string, { x: number; y: number; seat: number }>();
  const surrounds: { seat: number; chain: DotsPlace[] }[] = [];
  const key = (x: number, y: number) => `${x},${y}`;
  let lastMove: DotsPlace | null = null;
  let score: readonly number[] = [0, 0];
  for (const row of analysis.replay.slice(0, ply)) {
    const details = dotsPlyDetails(row);
    score = row.score;
    const [cell] = pairList(details.cell === undefined ? undefined : [details.cell]);
    lastMove = null;
    if (cell && details.illegal === undefined && row.player !== null) {
      const [y, x] = cell;
      dots.set(key(x, y), { x, y, seat: row.player, captured: false });
      lastMove = { x, y };
    }
    for (const surround of details.surroundCells ?? []) {
      const seat = row.player ?? 0;
      surrounds.push({ seat, chain: pairList(surround.chain).map(([y, x]) => ({ x, y })) });
      for (const [y, x] of pairList(surround.captured)) {
        const dot = dots.get(key(x, y));
        if (dot) dot.captured = true;
      }
      for (const [y, x] of pairList(surround.empty)) enclosed.set(key(x, y), { x, y, seat });
    }
  }
  // A place enclosed and later played on holds a dot, not an empty cell.
  for (const k of dots.keys()) enclosed.delete(k);
  return { width, height, colours, dots: [...dots.values()], surrounds, enclosed: [...enclosed.values()], lastMove, score };
}

export function renderDots(position: DotsPosition, options: RenderOptions, title: string): string {
  const frame = new BoardFrame(position.width, position.height, 'points', false, options.coordinates, true);
  const colour = (seat: number) => NAMED_COLOURS[position.colours[seat]] ?? '#888';
  const body: string[] = [
    element('rect', { x: 0, y: 0, width: frame.viewWidth, height: frame.viewHeight, fill: '#fff' }),
    frame.gridLines({ stroke: '#9cc3e6', 'stroke-width': 1 }),
  ];
  if (options.coordinates) {
    body.push(frame.labels(Array.from({ length: position.width }, (_, x) => String(x + 1)), Array.from({ length: position.height }, (_, y) => String(y + 1))));
  }
  body.push(
    element('g', { class: 'enclosed' }, position.enclosed.map((e) => frame.disc(e.x, e.y, 0.5, { class: `enclosed seat-${e.seat}`, 'data-x': e.x, 'data-y': e.y, fill: colour(e.seat), 'fill-opacity': 0.25 })).join('')),
    element(
      'g',
      { class: 'surrounds' },
      position.surrounds.map((s) => frame.polygon(s.chain, { class: `surround seat-${s.seat}`, fill: colour(s.seat), 'fill-opacity': 0.2, stroke: colour(s.seat), 'stroke-width': 2 })).join(''),
    ),
  );
  const dots = position.dots.map((d) => {
    const attributes = { class: `dot seat-${d.seat}${d.captured ? ' captured' : ''}`, 'data-x': d.x, 'data-y': d.y };
    // A captured dot is drawn hollow and crossed out.
    if (!d.captured) return frame.disc(d.x, d.y, 0.45, { ...attributes, fill: colour(d.seat), stroke: '#000', 'stroke-width': 0.5 });
    return element('g', attributes, frame.disc(d.x, d.y, 0.45, { fill: '#fff', stroke: colour(d.seat), 'stroke-width': 2 }) + frame.cross(d.x, d.y, 0.4, { stroke: colour(d.seat), 'stroke-width': 2 }));
  });
  body.push(element('g', { class: 'dots' }, dots.join('')));
  if (position.lastMove) body.push(frame.disc(position.lastMove.x, position.lastMove.y, 0.75, { class: 'last-move', 'data-x': position.lastMove.x, 'data-y': position.lastMove.y, fill: 'none', stroke: '#000', 'stroke-width': 2 }));
  body.push(frame.caption(`score: ${position.colours[0]} ${position.score[0] ?? 0}, ${position.colours[1]} ${position.score[1] ?? 0}`));
  body.push(frame.areaFrame(options.area));
  return svgDocument(title, frame.viewWidth, frame.viewHeight, options, body);
}
