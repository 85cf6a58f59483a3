import type { InterchangeGame, PositionTrack } from '../plugin.js';
import { checkersPositionTrack } from './checkers/positions.js';
import type { CheckersInterchange } from './checkers/interchange.js';
import { dotsPositionTrack } from './dots/positions.js';
import type { DotsInterchangeGame } from './dots/interchange.js';
import { goPositionTrack } from './go/positions.js';
import type { GoInterchangeGame } from './go/interchange.js';

/** The positions of a game of the family's plain model (see each family's `positions.ts`); null where the family keeps none. */
export function positionTrackOf(game: InterchangeGame): PositionTrack | null {
  switch (game.family) {
    case 'go':
      return goPositionTrack(game as GoInterchangeGame);
    case 'checkers':
      return checkersPositionTrack(game as CheckersInterchange);
    case 'dots':
      return dotsPositionTrack(game as DotsInterchangeGame);
    default:
      return null;
  }
}
