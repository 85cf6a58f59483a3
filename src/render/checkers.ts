/**
 * Russian draughts board pictures: the board after a ply (the replay rows carry it whole), the last
 * move's squares and the pieces it took, and its SVG drawing.
 */
import { checkersPlyDetails } from '../formats/families/checkers/ledger.js';
import type { GameAnalysis } from '../formats/plugin.js';
import { BoardFrame, element, svgDocument } from './svg.js';
import type { RenderOptions } from './svg.js';
import { matrixOf, pointOf } from './model.js';

export type DraughtsColour = 'white' | 'black';

export interface DraughtsSquare {
  /** Column 0 = file a, row 0 = rank 8 (the top as white sees the board). */
  readonly x: number;
  readonly y: number;
}

export interface DraughtsPiece extends DraughtsSquare {
  readonly colour: DraughtsColour;
  readonly king: boolean;
}

export interface DraughtsPosition {
  readonly size: number;
  readonly pieces: readonly DraughtsPiece[];
  /** The last ply's start and end square; null before the first ply. */
  readonly lastMove: { readonly from: DraughtsSquare; readonly to: DraughtsSquare } | null;
  /** Pieces the last ply took, where they stood. */
  readonly captured: readonly DraughtsPiece[];
}

/** Board row cells as the checkers ledger writes them: 1/2 white/black men, 11/12 kings. */
function piecesOf(rows: number[][]): DraughtsPiece[] {
  const pieces: DraughtsPiece[] = [];
  rows.forEach((row, y) =>
    row.forEach((cell, x) => {
      if (cell === 1 || cell === 2 || cell === 11 || cell === 12) pieces.push({ x, y, colour: cell % 10 === 1 ? 'white' : 'black', king: cell > 10 });
    }),
  );
  return pieces;
}

/** The board after `ply` plies of an analysed draughts game; null when the replay carries no board for it. */
export function draughtsPositionAt(analysis: GameAnalysis, ply: number): DraughtsPosition | null {
  // Board 0 is the start; board n the one replay row n - 1 carries. Only the two needed are read.
  const boardAt = (n: number) => (n === 0 ? matrixOf(analysis.details.startPosition) : matrixOf(checkersPlyDetails(analysis.replay[n - 1]).position));
  const after = boardAt(ply);
  if (!after) return null;
  const pieces = piecesOf(after);
  const before = ply > 0 ? boardAt(ply - 1) : null;
  if (!before) return { size: after.length, pieces, lastMove: null, captured: [] };
  // The ply's row names the squares the piece started and stopped on (the same square when a
  // king's capture goes round); the pieces it took are those of the other side gone from the board.
  const details = checkersPlyDetails(analysis.replay[ply - 1]);
  const from = pointOf(details.from);
  const to = pointOf(details.to);
  const mover: DraughtsColour = analysis.replay[ply - 1].player === 1 ? 'black' : 'white';
  const at = (list: DraughtsPiece[], p: DraughtsSquare) => list.find((q) => q.x === p.x && q.y === p.y);
  const captured = piecesOf(before).filter((p) => p.colour !== mover && !at(pieces, p));
  return { size: after.length, pieces, lastMove: from && to ? { from, to } : null, captured };
}

/** White at the bottom, files a–h left to right and ranks 1–8 upwards; `orientation=black` turns it round. */
export function renderDraughts(position: DraughtsPosition, options: RenderOptions, title: string): string {
  const n = position.size;
  const frame = new BoardFrame(n, n, 'squares', options.orientation === 'black', options.coordinates, false);
  const body: string[] = [element('rect', { x: 0, y: 0, width: frame.viewWidth, height: frame.viewHeight, fill: '#fff' })];
  const squares: string[] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) squares.push(frame.square(x, y, { fill: (x + y) % 2 === 1 ? '#8b5a2b' : '#f0d9b5' }));
  body.push(element('g', { class: 'squares' }, squares.join('')));
  if (options.coordinates) {
    body.push(frame.labels(Array.from({ length: n }, (_, x) => String.fromCharCode(97 + x)), Array.from({ length: n }, (_, y) => String(n - y))));
  }
  if (position.lastMove) {
    const { from, to } = position.lastMove;
    const mark = { fill: 'none', stroke: '#ffd700', 'stroke-width': 4 };
    body.push(frame.square(from.x, from.y, { class: 'last-from', 'data-x': from.x, 'data-y': from.y, ...mark }), frame.square(to.x, to.y, { class: 'last-to', 'data-x': to.x, 'data-y': to.y, ...mark }));
  }
  const piece = (p: DraughtsPiece, extra: string, attributes: Readonly<Record<string, string | number>>) => {
    const cls = `piece ${p.colour} ${p.king ? 'king' : 'man'}${extra}`;
    const disc = frame.disc(p.x, p.y, 0.8, { fill: p.colour === 'white' ? '#fafafa' : '#222', stroke: p.colour === 'white' ? '#222' : '#aaa', 'stroke-width': 2, ...attributes });
    const crown = p.king ? frame.disc(p.x, p.y, 0.35, { fill: 'none', stroke: '#d4a017', 'stroke-width': 4 }) : '';
    return element('g', { class: cls, 'data-x': p.x, 'data-y': p.y }, disc + crown);
  };
  body.push(element('g', { class: 'pieces' }, position.pieces.map((p) => piece(p, '', {})).join('')));
  body.push(
    element(
      'g',
      { class: 'captured' },
      position.captured.map((p) => piece(p, ' captured', { 'fill-opacity': 0.35 }) + frame.cross(p.x, p.y, 0.5, { stroke: '#c00', 'stroke-width': 4 })).join(''),
    ),
  );
  body.push(frame.areaFrame(options.area));
  return svgDocument(title, frame.viewWidth, frame.viewHeight, options, body);
}
