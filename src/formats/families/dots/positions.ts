import { DotsGame, MAX_SIDE, MIN_SIDE } from '../../../rules/dots/index.js';
import { DotsPositionHasher } from '../../../rules/dots/position-key.js';
import { BoardChangesWriter, patternStatesOfDots } from '../../../rules/patterns.js';
import { apply } from '../../../rules/symmetry.js';
import { PASS_POINT, PositionTrackWriter, writeUint16 } from '../positions.js';
import type { PositionTrack } from '../positions.js';
import type { DotsInterchangeGame, DotsInterchangeMove } from './interchange.js';

/** How a format's replay numbers the plies of a game, where the plain model alone does not say. */
export interface DotsTrackOptions {
  /**
   * The setup dots are the replay's first plies, in their order (a VK cross start: the code's first
   * four dots, which the plain model reads back as setup).
   */
  readonly setupPlies?: boolean;
  /** Each player's first dot must lie in the central area (the Dots server's rule): one outside is refused. */
  readonly centralStart?: boolean;
}

type Ply = Extract<DotsInterchangeMove, { kind: 'dot' | 'pass' | 'ground' }>;

/**
 * The positions of a Dots game's main line (see {@link PositionTrack}): the field after the setup
 * dots, then after each ply — a dot, a pass or grounding, as the formats' replays count plies; dots
 * added out of turn (`add`) belong to the position the next ply is played from, and a stop is no
 * ply (the player simply moves no more). A ply without a dot leaves the field as it is, with the
 * other side to move; its move is {@link PASS_POINT}. The side to move is the seat of the line's
 * next ply; after the last, the seat the rules give the turn to: the next one that has not stopped,
 * or the mover again after a surround under the extra-move rule. Every dot is placed for the seat
 * the model gives it; the line stops at the first dot the rules engine refuses. Null for a board
 * state (a snapshot without moves: it does not say whose turn it is nor who enclosed what) and a
 * field or a player count the engine does not play.
 */
export function dotsPositionTrack(game: DotsInterchangeGame, options: DotsTrackOptions = {}): PositionTrack | null {
  const { width, height } = game.field;
  const players = game.players.length;
  if (game.snapshot !== null && game.moves.length === 0) return null;
  if (![width, height].every((side) => Number.isInteger(side) && side >= MIN_SIDE && side <= MAX_SIDE) || players < 2 || players > 4) return null;
  const engine = new DotsGame({ width, height, players, extraMove: game.rules.extraMove === true, centralStart: options.centralStart === true });
  const hasher = new DotsPositionHasher(width, height, players);
  // The field's changes, for pattern search: the point of the ply that led to each position (null a pass or grounding).
  const board = new BoardChangesWriter(width, height);
  const states = new Uint8Array(width * height);
  let played: number | null | undefined;
  const seatOk = (seat: number) => Number.isInteger(seat) && seat >= 0 && seat < players;
  const onField = (row: number, col: number) => engine.field.contains(row, col);
  const setupMoves: DotsInterchangeMove[] = options.setupPlies ? game.setup.map((dot) => ({ kind: 'dot', seat: dot.seat, cell: dot.cell })) : [];
  if (!options.setupPlies) {
    for (const dot of game.setup) {
      if (!seatOk(dot.seat) || !onField(dot.cell.row, dot.cell.col)) continue;
      hasher.followMove(engine, dot.cell.row, dot.cell.col, engine.place(dot.seat, dot.cell.row, dot.cell.col));
    }
  }
  const line = [...setupMoves, ...game.moves];
  const plies = line.filter((move) => move.kind !== 'add' && move.kind !== 'stop').length;
  const stopped = new Array<boolean>(players).fill(false);
  for (const move of line) if (move.kind === 'stop' && seatOk(move.seat)) stopped[move.seat] = true;
  // After the last ply: the rules' next seat (the same after a surround under the extra-move rule).
  const after = (seat: number, surrounded: boolean): number => {
    if (seat < 0) return stopped.indexOf(false) < 0 ? 0 : stopped.indexOf(false);
    if (surrounded && game.rules.extraMove === true && !stopped[seat]) return seat;
    for (let step = 1; step <= players; step++) if (!stopped[(seat + step) % players]) return (seat + step) % players;
    return seat;
  };
  const writer = new PositionTrackWriter('dots', plies);
  let lastSeat = -1;
  let surrounded = false;
  for (let i = 0; ; ) {
    // Dots added out of turn before the next ply belong to the position it is played from.
    for (; i < line.length && (line[i].kind === 'add' || line[i].kind === 'stop'); i++) {
      const move = line[i];
      if (move.kind !== 'add' || !seatOk(move.seat) || !onField(move.cell.row, move.cell.col)) continue;
      hasher.followMove(engine, move.cell.row, move.cell.col, engine.place(move.seat, move.cell.row, move.cell.col));
    }
    const move = line[i++] as Ply | undefined;
    if (move !== undefined && !seatOk(move.seat)) break;
    hasher.setToMove(move !== undefined ? move.seat : after(lastSeat, surrounded));
    writer.position(hasher.canonical().key, hasher.leastTransforms());
    board.observe(patternStatesOfDots(hasher.owner, hasher.captor, states), played);
    if (move === undefined) break;
    lastSeat = move.seat;
    if (move.kind !== 'dot') {
      played = null;
      surrounded = false;
      writer.move((_, into) => writeUint16(into, 0, PASS_POINT));
      continue;
    }
    const { row, col } = move.cell;
    if (!onField(row, col)) break;
    const outcome = engine.place(move.seat, row, col);
    if (!outcome.legal) break;
    played = row * width + col;
    surrounded = outcome.surrounds.length > 0;
    writer.move((t, into) => {
      const [x, y] = apply(t, col, row, width, height);
      writeUint16(into, 0, y * width + x);
    });
    hasher.followMove(engine, row, col, outcome);
  }
  return { ...writer.finish(), board: board.finish() };
}
