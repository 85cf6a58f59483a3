/** Board pictures of every family: the position after a ply of an analysed game, drawn as SVG. */
import type { Family, GameAnalysis } from '../formats/plugin.js';
import { draughtsPositionAt, renderDraughts } from './checkers.js';
import { dotsPositionAt, renderDots } from './dots.js';
import { goPositionAt, renderGo } from './go.js';
import { pegPositionAt, renderPegSolitaire } from './peg-solitaire.js';
import type { RenderOptions } from './svg.js';

export { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE } from './svg.js';
export type { Orientation, RenderOptions } from './svg.js';

/** Bumped whenever a picture of the same position would come out different (it is part of the ETag). */
export const RENDER_VERSION = 1;

/** The SVG of the position after `ply` plies (0 = the start); null when the analysis cannot give that position. */
export function renderBoard(family: Family, analysis: GameAnalysis, ply: number, options: RenderOptions, title: string): string | null {
  switch (family) {
    case 'go':
      return renderGo(goPositionAt(analysis, ply), options, title);
    case 'dots':
      return renderDots(dotsPositionAt(analysis, ply), options, title);
    case 'checkers': {
      const position = draughtsPositionAt(analysis, ply);
      return position && renderDraughts(position, options, title);
    }
    case 'peg-solitaire': {
      const position = pegPositionAt(analysis, ply);
      return position && renderPegSolitaire(position, options, title);
    }
  }
}
