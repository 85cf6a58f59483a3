import { DotsGame, MAX_SIDE, MIN_SIDE } from '../../../rules/dots/index.js';
import { DotsPositionHasher } from '../../../rules/dots/position-key.js';
import { BoardChangesWriter, patternStatesOfDots } from '../../../rules/patterns.js';
import { apply, TRANSFORMS } from '../../../rules/symmetry.js';
import type { Transform } from '../../../rules/symmetry.js';
import { identityPly, PASS_POINT, PositionTrackWriter, writeUint16 } from '../positions.js';
import type { IdentityOptions, PositionTrack } from '../positions.js';
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
  const firstPly = game.moves.find((move) => move.kind === 'dot' || move.kind === 'pass' || move.kind === 'ground');
  const first = firstPly !== undefined && seatOf(firstPly) !== null ? seatOf(firstPly)! : 0;
  // Dots added out of turn are no plies: such a game gets positions, not an identity.
  const firstDot = game.moves.find((move) => move.kind === 'dot');
  const origin = firstDot?.kind === 'dot' ? firstDot.cell : null;
  const identity = line.some((move) => move.kind === 'add') ? undefined : dotsIdentityStart(game, first, origin);
  const writer = new PositionTrackWriter('dots', plies, identity);
  // The setup dots a format counts as plies are the identity's start all the same, as other formats write them.
  let setupLeft = setupMoves.length;
  let lastSeat = -1;
  /** The last ply grounded (ended the game). */
  let grounded = false;
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
    writer.position(hasher.keys);
    board.observe(patternStatesOfDots(hasher.owner, hasher.captor, states), played);
    if (move === undefined) break;
    lastSeat = move.seat;
    const inIdentity = setupLeft-- <= 0;
    grounded = move.kind === 'ground';
    if (move.kind !== 'dot') {
      played = null;
      surrounded = false;
      writer.move((_, into) => writeUint16(into, 0, PASS_POINT), move.seat, inIdentity);
      continue;
    }
    const { row, col } = move.cell;
    if (!onField(row, col)) break;
    const outcome = engine.place(move.seat, row, col);
    if (!outcome.legal) break;
    played = row * width + col;
    surrounded = outcome.surrounds.length > 0;
    writer.move(
      (t, into) => {
        const [x, y] = apply(t, col, row, width, height);
        writeUint16(into, 0, y * width + x);
      },
      move.seat,
      inIdentity && ((t, into) => writeUint16(into, 0, offset(t, col, row, origin!, width, height))),
    );
    hasher.followMove(engine, row, col, outcome);
  }
  return { ...writer.finish(identity ? { endedByRule: grounded } : undefined), board: board.finish() };
}

/** The seat of a ply, or null for a move that is no ply. */
function seatOf(move: DotsInterchangeMove): number | null {
  return move.kind === 'dot' || move.kind === 'pass' || move.kind === 'ground' ? move.seat : null;
}

/**
 * Where a dot lies from the game's first dot (the origin), turned by `t`, as one number: the field's
 * size and the dots' place on it differ between formats (a VK code is played on 35 × 35, a zagram
 * SGF on its own field), so a Dots identity writes the dots' places from each other. The offsets
 * are within ±49 ({@link MAX_SIDE}): (dx + 50) × 100 + (dy + 50).
 */
function offset(t: Transform, col: number, row: number, origin: { readonly row: number; readonly col: number }, width: number, height: number): number {
  const [x, y] = apply(t, col, row, width, height);
  const [x0, y0] = apply(t, origin.col, origin.row, width, height);
  return (x - x0 + 50) * 100 + (y - y0 + 50);
}

/**
 * The identity's start of a Dots game: how many players, then its setup dots (a cross start), each
 * `offset * 4 + seat` from the first dot played (or, without one, from the least of them), the seat
 * counted from the first mover, in order. Every symmetry of a square is tried, whatever the field:
 * offsets do not depend on it.
 */
function dotsIdentityStart(game: DotsInterchangeGame, first: number, origin: { readonly row: number; readonly col: number } | null): IdentityOptions {
  const { width, height } = game.field;
  const players = game.players.length;
  const dots = game.setup.filter((dot) => dot.seat >= 0 && dot.seat < players && dot.cell.row >= 0 && dot.cell.col >= 0 && dot.cell.row < height && dot.cell.col < width);
  return {
    transforms: TRANSFORMS,
    seats: { first, count: players },
    start: (t) => {
      const from = origin ?? leastDot(dots.map((dot) => dot.cell), t, width, height);
      const codes = dots.map((dot) => identityPly(offset(t, dot.cell.col, dot.cell.row, from, width, height), (dot.seat - first + players) % players)).sort((a, b) => a - b);
      const bytes = new Uint8Array(2 + codes.length * 2);
      bytes[0] = players;
      bytes[1] = codes.length;
      codes.forEach((code, i) => writeUint16(bytes, 2 + i * 2, code));
      return bytes;
    },
  };
}

/** Of cells, the one first in reading order on the field turned by `t` (the origin of a game of setup only). */
function leastDot(cells: readonly { readonly row: number; readonly col: number }[], t: Transform, width: number, height: number): { row: number; col: number } {
  let best = { row: 0, col: 0 };
  let bestKey = Infinity;
  for (const cell of cells) {
    const [x, y] = apply(t, cell.col, cell.row, width, height);
    const key = y * 1000 + x;
    if (key < bestKey) {
      bestKey = key;
      best = { row: cell.row, col: cell.col };
    }
  }
  return best;
}
