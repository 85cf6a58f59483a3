/**
 * Peg solitaire board pictures: the board after a jump, rebuilt from the starting layout and the
 * jumps of the replay, and its SVG drawing.
 */
import type { GameAnalysis } from '../formats/plugin.js';
import { BoardFrame, element, svgDocument } from './svg.js';
import type { RenderOptions } from './svg.js';
import { pointOf } from './model.js';
import { columnName } from '../formats/families/peg-solitaire/notation.js';
import { pegPlyDetails } from '../formats/families/peg-solitaire/plies.js';

export type PegColour = 'red' | 'yellow' | 'green';

export interface PegSlot {
  readonly x: number;
  readonly y: number;
  readonly target: boolean;
  readonly stone: PegColour | null;
}

export interface PegPosition {
  readonly width: number;
  readonly height: number;
  /** Every slot (locked cells are absent). */
  readonly slots: readonly PegSlot[];
  /** The last jump: from, over, to; null before the first. */
  readonly lastJump: { readonly from: PegPoint; readonly over: PegPoint; readonly to: PegPoint } | null;
}

type PegPoint = { readonly x: number; readonly y: number };

const COLOUR_OF: Readonly<Record<string, PegColour>> = { r: 'red', y: 'yellow', g: 'green' };
const FILL: Readonly<Record<PegColour, string>> = { red: '#d62728', yellow: '#f2c500', green: '#2ca02c' };

/** The board after `ply` jumps; null when the game's details carry no starting layout (very large boards). */
export function pegPositionAt(analysis: GameAnalysis, ply: number): PegPosition | null {
  const layout = analysis.details.layout;
  if (!Array.isArray(layout) || !layout.every((row): row is string => typeof row === 'string')) return null;
  const slots = new Map<string, { x: number; y: number; target: boolean; stone: PegColour | null }>();
  const key = (p: PegPoint) => `${p.x},${p.y}`;
  layout.forEach((row, y) =>
    [...row].forEach((c, x) => {
      if (c === ' ') return;
      slots.set(key({ x, y }), { x, y, target: c === '+' || (c !== '.' && c === c.toUpperCase()), stone: COLOUR_OF[c.toLowerCase()] ?? null });
    }),
  );
  let lastJump: PegPosition['lastJump'] = null;
  for (const row of analysis.replay.slice(0, ply)) {
    const details = pegPlyDetails(row);
    const [from, over, to] = [details.from, details.over, details.to].map((point) => pointOf(point));
    if (!from || !over || !to) continue;
    const moving = slots.get(key(from));
    const target = slots.get(key(to));
    const taken = slots.get(key(over));
    if (target) target.stone = moving?.stone ?? null;
    if (moving) moving.stone = null;
    if (taken) taken.stone = null;
    lastJump = { from, over, to };
  }
  return { width: Math.max(0, ...layout.map((r) => r.length)), height: layout.length, slots: [...slots.values()], lastJump };
}

export function renderPegSolitaire(position: PegPosition, options: RenderOptions, title: string): string {
  const frame = new BoardFrame(position.width, position.height, 'squares', false, options.coordinates, false);
  const body: string[] = [element('rect', { x: 0, y: 0, width: frame.viewWidth, height: frame.viewHeight, fill: '#f5f0e6' })];
  if (options.coordinates) {
    // The program's slot names: columns a, b… and rows 1, 2… from the top.
    body.push(frame.labels(Array.from({ length: position.width }, (_, x) => columnName(x)), Array.from({ length: position.height }, (_, y) => String(y + 1))));
  }
  const slots = position.slots.map((s) => {
    const hole = frame.disc(s.x, s.y, 0.7, { fill: '#c8b89a', stroke: s.target ? '#0a7d32' : '#8a7a5a', 'stroke-width': s.target ? 4 : 1 });
    const cls = `slot${s.target ? ' target' : ''}${s.stone ? ` stone ${s.stone}` : ' empty'}`;
    const stone = s.stone ? frame.disc(s.x, s.y, 0.56, { fill: FILL[s.stone], stroke: '#333', 'stroke-width': 1 }) : '';
    return element('g', { class: cls, 'data-x': s.x, 'data-y': s.y }, hole + stone);
  });
  body.push(element('g', { class: 'slots' }, slots.join('')));
  const jump = position.lastJump;
  if (jump) {
    body.push(
      element(
        'g',
        { class: 'last-jump', 'data-from': `${jump.from.x},${jump.from.y}`, 'data-over': `${jump.over.x},${jump.over.y}`, 'data-to': `${jump.to.x},${jump.to.y}` },
        frame.line(jump.from, jump.to, { stroke: '#1f5fd6', 'stroke-width': 3, 'stroke-dasharray': '6 4' }) + frame.cross(jump.over.x, jump.over.y, 0.4, { stroke: '#c00', 'stroke-width': 3 }),
      ),
    );
  }
  body.push(frame.areaFrame(options.area));
  return svgDocument(title, frame.viewWidth, frame.viewHeight, options, body);
}
