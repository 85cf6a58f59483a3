/**
 * What every board picture shares: the options, the SVG document, escaping, and the geometry of a
 * rectangular board (points on lines for Go and Dots, squares for draughts and peg solitaire),
 * turned half a circle when it is seen from the other side. Pure code: no Nest, no database.
 */
import { escapeXml } from '../core/xml-text.js';

/** Text content of an element (names read from files may hold anything): escaped, and what XML 1.0 cannot hold left out. */
export const escapeText = (text: string): string => escapeXml(text, false);

export type Orientation = 'white' | 'black';

export interface RenderOptions {
  /** Width of the picture in pixels (the height follows the board's shape). */
  readonly size: number;
  readonly coordinates: boolean;
  /** Which side sits at the bottom; null for the family's usual view. */
  readonly orientation: Orientation | null;
  /** A rectangle of places to mark with a frame (a pattern found there, say); none when absent. */
  readonly area?: BoardArea | null;
}

/** A rectangle of places in the position model's numbering: its top-left place and its size in places. */
export interface BoardArea {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;
export const DEFAULT_SIZE = 480;

/** Drawing units per point or square; the picture is scaled to the requested size by its viewBox. */
export const UNIT = 40;

type Attributes = Readonly<Record<string, string | number>>;

/** One element, its attributes escaped; `content` is SVG already (escape text with {@link escapeText}). */
export function element(name: string, attributes: Attributes, content?: string): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(typeof value === 'number' ? round(value) : value)}"`)
    .join('');
  return content === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${content}</${name}>`;
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A whole, self-contained SVG document: no external references, its `<title>` first. */
export function svgDocument(title: string, viewWidth: number, viewHeight: number, options: RenderOptions, body: readonly string[]): string {
  const height = Math.max(1, Math.round((options.size * viewHeight) / viewWidth));
  const open = element('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width: options.size,
    height,
    viewBox: `0 0 ${round(viewWidth)} ${round(viewHeight)}`,
    role: 'img',
    'font-family': 'sans-serif',
  }).replace(/\/>$/, '>');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${open}${element('title', {}, escapeText(title))}${body.join('')}</svg>\n`;
}

/**
 * A board of `columns` x `rows` places, x to the right and y downwards as the position model numbers
 * them. `places: 'points'` puts them on line crossings (Go, Dots), `'squares'` in square centres.
 * `turned` draws it turned by half a circle (seen from the other side).
 */
export class BoardFrame {
  /** Room for coordinates (and a caption line below, when `caption`). */
  readonly margin: number;
  readonly captionHeight: number;

  constructor(
    readonly columns: number,
    readonly rows: number,
    readonly places: 'points' | 'squares',
    readonly turned: boolean,
    coordinates: boolean,
    caption: boolean,
  ) {
    this.margin = coordinates ? UNIT : UNIT / 2;
    this.captionHeight = caption ? UNIT : 0;
  }

  /** Width and height of the board area (lines span one unit less than their count). */
  private get span(): { width: number; height: number } {
    const less = this.places === 'points' ? 1 : 0;
    return { width: (this.columns - less) * UNIT, height: (this.rows - less) * UNIT };
  }

  get viewWidth(): number {
    return this.span.width + 2 * this.margin;
  }

  get viewHeight(): number {
    return this.span.height + 2 * this.margin + this.captionHeight;
  }

  /** The centre of a place in drawing units. */
  at(x: number, y: number): { cx: number; cy: number } {
    const [vx, vy] = this.turned ? [this.columns - 1 - x, this.rows - 1 - y] : [x, y];
    const offset = this.places === 'squares' ? UNIT / 2 : 0;
    return { cx: this.margin + offset + vx * UNIT, cy: this.margin + offset + vy * UNIT };
  }

  /** The square (top-left corner, side UNIT) around a place; only for `'squares'`. */
  square(x: number, y: number, attributes: Attributes): string {
    const { cx, cy } = this.at(x, y);
    return element('rect', { x: cx - UNIT / 2, y: cy - UNIT / 2, width: UNIT, height: UNIT, ...attributes });
  }

  /** The lines joining the points of a `'points'` board. */
  gridLines(attributes: Attributes): string {
    const { width, height } = this.span;
    const lines: string[] = [];
    for (let x = 0; x < this.columns; x++) lines.push(`M${round(this.margin + x * UNIT)} ${round(this.margin)}v${round(height)}`);
    for (let y = 0; y < this.rows; y++) lines.push(`M${round(this.margin)} ${round(this.margin + y * UNIT)}h${round(width)}`);
    return element('path', { d: lines.join(''), fill: 'none', ...attributes });
  }

  /** A circle on a place, `scale` of a unit across. */
  disc(x: number, y: number, scale: number, attributes: Attributes): string {
    const { cx, cy } = this.at(x, y);
    return element('circle', { cx, cy, r: (UNIT * scale) / 2, ...attributes });
  }

  /** A cross on a place, `scale` of a unit across. */
  cross(x: number, y: number, scale: number, attributes: Attributes): string {
    const { cx, cy } = this.at(x, y);
    const h = (UNIT * scale) / 2;
    const d = `M${round(cx - h)} ${round(cy - h)}L${round(cx + h)} ${round(cy + h)}M${round(cx - h)} ${round(cy + h)}L${round(cx + h)} ${round(cy - h)}`;
    return element('path', { d, fill: 'none', ...attributes });
  }

  /** A polygon through places, in order. */
  polygon(places: readonly { x: number; y: number }[], attributes: Attributes): string {
    const points = places.map(({ x, y }) => {
      const { cx, cy } = this.at(x, y);
      return `${round(cx)},${round(cy)}`;
    });
    return element('polygon', { points: points.join(' '), ...attributes });
  }

  /** An arrow-less line from one place to another (a move's path). */
  line(from: { x: number; y: number }, to: { x: number; y: number }, attributes: Attributes): string {
    const a = this.at(from.x, from.y);
    const b = this.at(to.x, to.y);
    return element('line', { x1: a.cx, y1: a.cy, x2: b.cx, y2: b.cy, ...attributes });
  }

  /**
   * Coordinates along the four edges: `columnNames[x]` above and below, `rowNames[y]` left and right
   * (given in the model's order; turning the board moves them with it).
   */
  labels(columnNames: readonly string[], rowNames: readonly string[]): string {
    const size = UNIT * 0.4;
    const text = (cx: number, cy: number, label: string) =>
      element('text', { x: cx, y: cy, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#333' }, escapeText(label));
    const { height, width } = this.span;
    const out: string[] = [];
    columnNames.forEach((name, x) => {
      const { cx } = this.at(x, 0);
      out.push(text(cx, this.margin / 2, name), text(cx, this.margin + height + this.margin / 2, name));
    });
    rowNames.forEach((name, y) => {
      const { cy } = this.at(0, y);
      out.push(text(this.margin / 2, cy, name), text(this.margin + width + this.margin / 2, cy, name));
    });
    return element('g', { class: 'coordinates' }, out.join(''));
  }

  /**
   * A frame around a rectangle of places (half a unit outside its outer places), cut to the board;
   * nothing for none or for one that lies off the board.
   */
  areaFrame(area: BoardArea | null | undefined): string {
    if (!area) return '';
    const right = Math.min(area.left + area.width, this.columns) - 1;
    const bottom = Math.min(area.top + area.height, this.rows) - 1;
    if (area.left > right || area.top > bottom) return '';
    const a = this.at(area.left, area.top);
    const b = this.at(right, bottom);
    const half = UNIT / 2;
    const [x0, x1] = [Math.min(a.cx, b.cx) - half, Math.max(a.cx, b.cx) + half];
    const [y0, y1] = [Math.min(a.cy, b.cy) - half, Math.max(a.cy, b.cy) + half];
    return element('rect', {
      class: 'area',
      'data-left': area.left,
      'data-top': area.top,
      'data-width': right - area.left + 1,
      'data-height': bottom - area.top + 1,
      x: x0,
      y: y0,
      width: x1 - x0,
      height: y1 - y0,
      fill: '#1f5fa8',
      'fill-opacity': 0.12,
      stroke: '#1f5fa8',
      'stroke-width': 4,
    });
  }

  /** One line of text under the board. */
  caption(text: string): string {
    return element(
      'text',
      { class: 'caption', x: this.viewWidth / 2, y: this.viewHeight - this.captionHeight / 2, 'font-size': UNIT * 0.45, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#000' },
      escapeText(text),
    );
  }
}
