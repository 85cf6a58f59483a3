import type { Board, Point } from '../../rules/peg-solitaire/board.js';
import type { Move as CheckersMove } from '../../rules/checkers/index.js';
import type { Position as CheckersPosition } from '../../rules/checkers/index.js';
import type { InterchangeGame, MainLine, PositionTrack, ReplayPart } from '../plugin.js';
import { checkersTrackOf } from './checkers/positions.js';
import { dotsPositionTrack } from './dots/positions.js';
import type { DotsTrackOptions } from './dots/positions.js';
import type { DotsInterchangeGame } from './dots/interchange.js';
import { goLineTrack } from './go/positions.js';
import type { GoLineMove } from './go/positions.js';
import type { GoInterchangeSetupPoint } from './go/interchange.js';
import { pegPositionTrack } from './peg-solitaire/positions.js';
import { positionTrackOf } from './tracks.js';

/**
 * The main lines plugins hand over (`FormatPlugin.line`), one shape a family, and the family's
 * replay of them: what a stored game's indexes take of it is made here, and only what they take.
 */
type Line =
  | { readonly family: 'go'; readonly kind: 'go'; readonly width: number; readonly height: number; readonly setup: readonly GoInterchangeSetupPoint[]; readonly moves: readonly GoLineMove[] }
  | { readonly family: 'checkers'; readonly kind: 'checkers'; readonly start: CheckersPosition; readonly moves: readonly CheckersMove[] }
  | { readonly family: 'dots'; readonly kind: 'dots'; readonly game: DotsInterchangeGame; readonly options: DotsTrackOptions }
  | { readonly family: 'peg-solitaire'; readonly kind: 'peg'; readonly board: Board; readonly jumps: readonly { readonly from: Point; readonly to: Point }[] }
  | { readonly family: InterchangeGame['family']; readonly kind: 'interchange'; readonly game: InterchangeGame };

/** A Go line: the board, the setup stones before the first move, the moves (a move may set up points just before it). */
export function goLine(width: number, height: number, setup: readonly GoInterchangeSetupPoint[], moves: readonly GoLineMove[]): MainLine {
  const line: Line = { family: 'go', kind: 'go', width, height, setup, moves };
  return line;
}

/** A draughts line: the start position and the moves the replay accepted. */
export function checkersLine(start: CheckersPosition, moves: readonly CheckersMove[]): MainLine {
  const line: Line = { family: 'checkers', kind: 'checkers', start, moves };
  return line;
}

/** A Dots line: the family's plain model of the game, under the format's rules on setup and first dots. */
export function dotsLine(game: DotsInterchangeGame, options: DotsTrackOptions = {}): MainLine {
  const line: Line = { family: 'dots', kind: 'dots', game, options };
  return line;
}

/** A peg solitaire line: the board and the jumps of the solution shown. */
export function pegLine(board: Board, jumps: readonly { readonly from: Point; readonly to: Point }[]): MainLine {
  const line: Line = { family: 'peg-solitaire', kind: 'peg', board, jumps };
  return line;
}

/** The main line of a game of the family's plain model (a plugin's `toInterchange`). */
export function interchangeLine(game: InterchangeGame): MainLine {
  const line: Line = { family: game.family, kind: 'interchange', game };
  return line;
}

/**
 * The family's replay of a main line, making the parts asked for: the positions' keys only when
 * `keys` is asked (Go spares their work; the other families' identity and board are made from the
 * same hashing, so they make them anyway), the identity and the board's changes beside them. Null
 * where the family keeps no positions or the line does not replay.
 */
export function trackOfLine(main: MainLine, parts: ReadonlySet<ReplayPart>): PositionTrack | null {
  const line = main as Line;
  switch (line.kind) {
    case 'go':
      return goLineTrack(line.width, line.height, line.setup, line.moves, { keys: parts.has('keys') });
    case 'checkers':
      return checkersTrackOf(line.start, line.moves, { board: parts.has('board') });
    case 'dots':
      return dotsPositionTrack(line.game, line.options);
    case 'peg':
      return pegPositionTrack(line.board, line.jumps);
    case 'interchange':
      return positionTrackOf(line.game, { keys: parts.has('keys'), board: parts.has('board') });
  }
}
