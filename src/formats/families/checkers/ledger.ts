import type { GameFacts, JsonValue, PlayerEntry, PlayerOutcome, ReplayPly } from '../../plugin.js';
import type { CheckersPlyDetails } from './ply-details.js';

export type { CheckersPlyDetails } from './ply-details.js';
import { applyMove } from '../../../rules/checkers/apply-move.js';
import { Move, destinationOf } from '../../../rules/checkers/move.js';
import { GameOver } from '../../../rules/checkers/outcome.js';
import { Colour, Piece, isKing } from '../../../rules/checkers/pieces.js';
import { Position } from '../../../rules/checkers/position.js';
import { Square, columnOf, rowOf } from '../../../rules/checkers/squares.js';
import { moveNotation, squareName } from './notation.js';

/**
 * What every Russian-draughts format (BARS, PDN) derives the same way from a replay: seats, the
 * capture tally, promotions, the replay rows a viewer shows, the board in rows, the outcomes and the
 * facts. The formats feed it the moves the rules engine accepted; the standard notation they share
 * is in ./notation.ts, any notation of their own stays in their folders.
 */

/** Seat 0 is white, seat 1 black, in every checkers format. */
export const SEAT: Readonly<Record<Colour, number>> = { white: 0, black: 1 };
/** The sides by seat: white, who moves first, then black. */
export const SIDES: readonly Colour[] = ['white', 'black'];

/** The value a light square shows in board rows (the BARS `area_monitor` shape). */
export const LIGHT_SQUARE = 9;

/** The board as 8 rows of cells, row 0 = rank 8, light squares as 9, dark ones 0/1/2/11/12. */
export function boardRows(position: Position): number[][] {
  const rows = position.rows() as number[][];
  for (let r = 0; r < rows.length; r++) for (let c = r % 2; c < rows.length; c += 2) rows[r][c] = LIGHT_SQUARE;
  return rows;
}

/** The extras a format adds to a ply's details (PDN's written move and annotations). */
export type CheckersPlyExtras = Pick<CheckersPlyDetails, 'written' | 'comments' | 'nags' | 'variations'>;

/** The details of a replayed draughts ply, read as written (absent fields stay absent). */
export function checkersPlyDetails(ply: Pick<ReplayPly, 'details'> | undefined): Partial<CheckersPlyDetails> {
  return (ply?.details ?? {}) as Partial<CheckersPlyDetails>;
}

/** A square as a viewer places it: x = column (file a = 0), y = row (rank 8 = 0). */
function placeOf(square: Square): { x: number; y: number } {
  return { x: columnOf(square), y: rowOf(square) };
}

/** Pieces taken by one side, split as the index wants them. */
interface Tally {
  men: number;
  kings: number;
}

/** The facts every Russian-draughts record has: an 8x8 board and the rules it is replayed under. */
export function russianDraughtsFacts(datePlayed: string | null, event: string | null): GameFacts {
  return { boardWidth: 8, boardHeight: 8, datePlayed, event, rules: 'Russian draughts' };
}

/**
 * The running replay of one line of play: the position, what each side took and crowned, and the
 * replay rows. {@link play} takes a move the rules engine has judged legal.
 */
export class CheckersLedger {
  readonly replay: ReplayPly[] = [];
  private readonly taken: Record<Colour, Tally> = { white: { men: 0, kings: 0 }, black: { men: 0, kings: 0 } };
  private readonly promotions: Record<Colour, number> = { white: 0, black: 0 };

  /** The board before the first ply, so a viewer can draw ply 0. */
  private readonly start: number[][];

  constructor(public position: Position) {
    this.start = boardRows(position);
  }

  /** Plays a legal move as ply `ply`, with `extra` added to the row's details. */
  play(move: Move, ply: number, extra: CheckersPlyExtras = {}): void {
    const side = this.position.toMove;
    for (const square of move.captured) {
      if (isKing(this.position.at(square) as Piece)) this.taken[side].kings++;
      else this.taken[side].men++;
    }
    if (move.promotes) this.promotions[side]++;
    this.position = applyMove(this.position, move);
    this.replay.push({
      ply,
      player: SEAT[side],
      move: moveNotation(move),
      captured: move.captured.map(squareName),
      score: [this.captures('white'), this.captures('black')],
      details: { position: boardRows(this.position), from: placeOf(move.from), to: placeOf(destinationOf(move)), promoted: move.promotes, ...extra } satisfies CheckersPlyDetails,
    });
  }

  /** Pieces the side has taken so far. */
  captures(colour: Colour): number {
    return this.taken[colour].men + this.taken[colour].kings;
  }

  /** The index details every checkers format gives: captures, promotions, pieces left, final board. */
  details(): Record<string, JsonValue> {
    return {
      replayedPlies: this.replay.length,
      captures: { white: { ...this.taken.white }, black: { ...this.taken.black } },
      promotions: { ...this.promotions },
      remaining: { white: this.position.count('white'), black: this.position.count('black') },
      startPosition: this.start,
      finalPosition: boardRows(this.position),
    };
  }

  /** White then black, with their names and ratings as written (null when the format has none) and outcomes. */
  players(
    outcomes: Readonly<Record<Colour, PlayerOutcome>>,
    names: Readonly<Record<Colour, string | null>> = { white: null, black: null },
    ratings: Readonly<Record<Colour, string | null>> = { white: null, black: null },
  ): PlayerEntry[] {
    return SIDES.map((colour) => ({
      seat: SEAT[colour],
      name: names[colour],
      rating: ratings[colour],
      externalId: null,
      color: colour,
      declaredPoints: null,
      points: null,
      captures: this.captures(colour),
      outcome: outcomes[colour],
    }));
  }
}

/** A game's winner, a draw, or nothing known. */
export type Decision = Colour | 'draw' | null;

/** Outcomes of a decided (or undecided) game: the winner won, the other lost; a draw drew; nothing known is unfinished. */
export function outcomesOf(decision: Decision): Record<Colour, PlayerOutcome> {
  if (decision === null) return { white: 'unfinished', black: 'unfinished' };
  if (decision === 'draw') return { white: 'drawn', black: 'drawn' };
  return decision === 'white' ? { white: 'won', black: 'lost' } : { white: 'lost', black: 'won' };
}

/** The rules' decision on a position: the side to move without a legal move lost. */
export function rulesDecision(over: GameOver | null): Decision {
  return over === null ? null : over.winner;
}
