import { BORDER, DotsBoard, EMPTY } from './board.js';
import { Cell, DotsField } from './field.js';
import { ClosedRegion, RegionScanner } from './regions.js';
import { SurroundShape } from './surround-shape.js';
import type { Refused } from '../refusal.js';
import type { DotsIllegal } from './illegal.js';
import { ungroundedDots } from './grounding.js';

export interface DotsRules {
  readonly width: number;
  readonly height: number;
  /** 2 to 4 players; seat 0 moves first. */
  readonly players: number;
  /** The player who surrounds moves again. */
  readonly extraMove: boolean;
  /**
   * Each player's first dot must lie in the central area (see {@link centralArea}), as on the Dots
   * server. Absent or false: anywhere, as recorded games of other sources were played.
   */
  readonly centralStart?: boolean;
}

/** Inclusive row and column bounds of the central start area. */
export interface CentralArea {
  readonly rows: readonly [number, number];
  readonly cols: readonly [number, number];
}

/**
 * The central area where first dots go: on each axis the middle 2 lines of an even side or the
 * middle 3 of an odd side, so 4 points on an even field, 9 on an odd one (6 when one side is even
 * and the other odd).
 */
export function centralArea(width: number, height: number): CentralArea {
  const middle = (side: number): readonly [number, number] => (side % 2 === 0 ? [side / 2 - 1, side / 2] : [(side - 3) / 2, (side + 1) / 2]);
  return { rows: middle(height), cols: middle(width) };
}

/**
 * How a game ends under the rules (the server's end conditions):
 * - `no_free_point`: every point holds a dot or lies in a surround;
 * - `last_player`: all players but one have stopped; the one left takes the surroundable dots (see
 *   {@link DotsGame.surroundableFor});
 * - `all_stopped`: every player has stopped.
 */
export type DotsEnd = 'no_free_point' | 'last_player' | 'all_stopped';

/** One closed area captured by one move. */
export interface Surround {
  readonly player: number;
  /** The surrounding dots in written order (see SurroundShape.chainFrom). */
  readonly chain: readonly Cell[];
  /** Live enemy dots captured now, in listing order. */
  readonly captured: readonly Cell[];
  /** Empty points that became the player's surrounded area now, in listing order. */
  readonly empty: readonly Cell[];
  /**
   * True when the area was closed before this move and an enemy dot entered it afterwards (the
   * design document's rule: captured at the owner's next move, wherever that move is).
   */
  readonly deferred: boolean;
}

/** Why a dot cannot be placed: one of {@link DOTS_ILLEGAL}. */
export type IllegalReason = DotsIllegal;

export type PlayOutcome =
  | { readonly legal: true; readonly player: number; readonly surrounds: readonly Surround[]; readonly scores: readonly number[] }
  | (Refused<DotsIllegal> & { readonly player: number; readonly scores: readonly number[] });

const NO_SURROUNDS: readonly Surround[] = Object.freeze([]);

/**
 * A game of Dots for 2 to 4 players, replayed one dot at a time.
 *
 * After player P places a dot, every closed region of P (see RegionScanner) holding a live enemy
 * dot is captured: its enemy dots become P's captures (+1 each) and its empty points P's surrounded
 * area. Only the regions that can have changed are examined: those next to the new dot, and those
 * holding an enemy dot placed since P's previous move (an enemy dot played into P's empty
 * enclosure). Captured dots stay captured and keep counting for their first captor.
 */
export class DotsGame {
  readonly field: DotsField;
  readonly board: DotsBoard;
  private readonly scanner: RegionScanner;
  private readonly shape: SurroundShape;
  private readonly score: number[];
  private readonly stopped: boolean[];
  /** Index into `history` of each seat's latest move, -1 before it moved. */
  private readonly lastMove: number[];
  /**
   * Dots placed so far, to find the enemy dots placed since a player's previous move.
   *
   * The design document exempts an enemy dot that closed its own player's surround. Under these
   * rules that case cannot arise: every enemy dot inside an empty enclosure is captured at the
   * owner's next move, so the enemy never has a line inside it to close, and a line closed from
   * inside around an area outside the enclosure would take the enclosure's own wall dots, which
   * opens it. So no exemption is coded.
   */
  private readonly history: { point: number; seat: number }[] = [];
  private turn = 0;
  /** Offsets of the 8 neighbours in ring order N, NE, E, SE, S, SW, W, NW (even = 4-neighbour). */
  private readonly ring: readonly number[];
  private plies = 0;

  constructor(readonly rules: DotsRules) {
    if (!Number.isInteger(rules.players) || rules.players < 2 || rules.players > 4) {
      throw new RangeError(`a Dots game has 2 to 4 players, got ${rules.players}`);
    }
    this.field = new DotsField(rules.width, rules.height);
    this.board = new DotsBoard(this.field);
    this.scanner = new RegionScanner(this.board);
    this.shape = new SurroundShape(this.board);
    const s = this.field.stride;
    this.ring = [-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1];
    this.score = new Array<number>(rules.players).fill(0);
    this.stopped = new Array<boolean>(rules.players).fill(false);
    this.lastMove = new Array<number>(rules.players).fill(-1);
  }

  /** Seat of the player to move. */
  get toMove(): number {
    return this.turn;
  }

  get scores(): readonly number[] {
    return this.score.slice();
  }

  /** Number of plies played, legal or not. */
  get plyCount(): number {
    return this.plies;
  }

  isStopped(seat: number): boolean {
    return this.stopped[seat];
  }

  /**
   * The player to move places a dot at (row, col), 0-based, and the turn passes on (or stays,
   * after a surround with the extra-move rule). An illegal move places nothing and still uses the
   * player's turn, so the rest of a recorded game keeps its colours.
   */
  play(row: number, col: number): PlayOutcome {
    const outcome = this.place(this.turn, row, col);
    this.advance(outcome.legal && outcome.surrounds.length > 0);
    return outcome;
  }

  /**
   * `seat` places a dot out of turn order (setup dots, hand-built positions); its surrounds are
   * resolved as for a move. The player to move does not change.
   */
  place(seat: number, row: number, col: number): PlayOutcome {
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.rules.players) throw new RangeError(`no seat ${seat} in a ${this.rules.players}-player game`);
    this.plies++;
    const reason = this.illegality(row, col, seat);
    if (reason !== null) return { legal: false, player: seat, reason, scores: this.scores };
    const move = this.field.point(row, col);
    this.board.owner[move] = seat + 1;
    this.board.placedAt[move] = this.plies;
    const surrounds = this.capturesAfter(move, seat);
    this.lastMove[seat] = this.history.length;
    this.history.push({ point: move, seat });
    return { legal: true, player: seat, surrounds, scores: this.scores };
  }

  /** A player stops placing dots (VK `0f`/`0s`); the others play on. */
  stop(seat: number): void {
    this.stopped[seat] = true;
    if (this.turn === seat) this.advance(false);
  }

  /** Why a dot of `seat` (by default the player to move) at (row, col) would be illegal now, or null. */
  illegality(row: number, col: number, seat = this.turn): DotsIllegal | null {
    if (!this.field.contains(row, col)) return 'off_board';
    const p = this.field.point(row, col);
    if (this.board.owner[p] !== EMPTY) return 'occupied';
    if (this.board.captor[p] !== 0) return 'inside_surround';
    if (this.rules.centralStart === true && this.lastMove[seat] === -1) {
      const { rows, cols } = centralArea(this.rules.width, this.rules.height);
      if (row < rows[0] || row > rows[1] || col < cols[0] || col > cols[1]) return 'outside_start_area';
    }
    return null;
  }

  /** Seats that have not stopped, in seat order. */
  get activeSeats(): number[] {
    return this.stopped.flatMap((stopped, seat) => (stopped ? [] : [seat]));
  }

  /** Whether some point is still empty and outside every surround. */
  hasFreePoint(): boolean {
    const { owner, captor } = this.board;
    for (let p = 0; p < owner.length; p++) if (owner[p] === EMPTY && captor[p] === 0) return true;
    return false;
  }

  /** How the game has ended under the rules, or null while it goes on. */
  ending(): DotsEnd | null {
    const active = this.activeSeats.length;
    if (active === 0) return 'all_stopped';
    if (active === 1) return 'last_player';
    return this.hasFreePoint() ? null : 'no_free_point';
  }

  /**
   * The dots the only player left can still surround when the others have stopped: every live dot
   * of another seat that is not grounded — not joined to the field's edge through its owner's live
   * dots, each linked to its 8 neighbours as surround chains are (a dot on the edge cannot be
   * surrounded). Reads the board only; row-major order.
   */
  surroundableFor(seat: number): Cell[] {
    const cells: Cell[] = [];
    for (let other = 0; other < this.rules.players; other++) {
      if (other !== seat) cells.push(...ungroundedDots(this.board, other));
    }
    return cells.sort((a, b) => a.row - b.row || a.col - b.col);
  }

  /**
   * The board as position codes, row-major (see Position.points, the Dots server's digits): 0 empty,
   * 1-4 a live dot of seat code-1, 5-8 a captured dot of seat code-5, 9 an empty point in a surround.
   */
  pointCodes(): number[] {
    const { board, field } = this;
    const codes: number[] = [];
    for (let row = 0; row < field.height; row++) {
      for (let col = 0; col < field.width; col++) {
        const p = field.point(row, col);
        const owner = board.owner[p];
        codes.push(owner === 0 ? (board.captor[p] === 0 ? 0 : 9) : board.captor[p] === 0 ? owner : owner + 4);
      }
    }
    return codes;
  }

  /**
   * The score as it stands at the end: the captures, plus, when one player is left (`last_player`),
   * the dots that player can still surround, which count as captured by it.
   */
  finalScore(): { readonly scores: number[]; readonly lastPlayer: { readonly seat: number; readonly surroundable: number } | null } {
    const scores = this.scores.slice();
    if (this.ending() !== 'last_player') return { scores, lastPlayer: null };
    const seat = this.activeSeats[0];
    const surroundable = this.surroundableFor(seat).length;
    scores[seat] += surroundable;
    return { scores, lastPlayer: { seat, surroundable } };
  }

  private advance(surrounded: boolean): void {
    if (surrounded && this.rules.extraMove && !this.stopped[this.turn]) return;
    for (let step = 1; step <= this.rules.players; step++) {
      const next = (this.turn + step) % this.rules.players;
      if (!this.stopped[next]) {
        this.turn = next;
        return;
      }
    }
  }

  private capturesAfter(move: number, seat: number): readonly Surround[] {
    const { board, scanner } = this;
    const round = scanner.newRound();
    let found: ClosedRegion[] | null = null;
    const splits = this.mayCloseRegion(move, seat);
    for (const side of this.field.sides) {
      if (!splits) break;
      const p = move + side;
      if (board.owner[p] === BORDER || board.isLiveDot(p, seat) || scanner.mark[p] >= round) continue;
      const region = scanner.closedRegion(p, seat);
      if (region !== null && region.liveEnemies > 0) (found ??= []).push(region);
    }
    let deferred: ClosedRegion[] | null = null;
    for (let i = this.lastMove[seat] + 1; i < this.history.length; i++) {
      const entry = this.history[i];
      if (entry.seat === seat) continue;
      const p = entry.point;
      if (!board.isLiveDot(p, entry.seat) || scanner.mark[p] >= round) continue;
      const region = scanner.closedRegion(p, seat);
      if (region !== null) (deferred ??= []).push(region);
    }
    if (found === null && deferred === null) return NO_SURROUNDS;
    const surrounds: Surround[] = [];
    if (found !== null) {
      // Order the cycles of one move by their anchors (E, SE, S, SW, W, NW, N, NE of the move).
      const withAnchor = found.map((region) => {
        this.shape.load(region.cells);
        const anchor = this.shape.anchorNextTo(move);
        return { region, rank: this.anchorRank(move, anchor) };
      });
      withAnchor.sort((a, b) => a.rank - b.rank);
      for (const { region } of withAnchor) surrounds.push(this.capture(region, seat, move, false));
    }
    for (const region of deferred ?? []) surrounds.push(this.capture(region, seat, move, true));
    return surrounds;
  }

  /**
   * Whether the new dot can have closed a region next to it. Walking once around the move
   * (N, NE, E, SE, S, SW, W, NW: each cell 4-adjacent to the next), the points that are not the
   * player's live dots fall into runs. If at most one run holds a 4-neighbour of the move, all the
   * move's neighbours stay connected around it: the region they share is the old one minus the
   * move, and it was not closed before (or it would have been captured then). On the edge this
   * does not hold — the move may have been the region's only point on the edge — so edge moves
   * are always examined.
   */
  private mayCloseRegion(move: number, seat: number): boolean {
    const ring = this.ring;
    const { owner, captor } = this.board;
    const own = seat + 1;
    let wall = -1;
    for (let k = 0; k < 8; k++) {
      const p = move + ring[k];
      if (owner[p] === BORDER) return true;
      if (wall < 0 && owner[p] === own && captor[p] === 0) wall = k;
    }
    if (wall < 0) return false; // no own dot around: one run all the way round
    let runs = 0;
    let runHasSide = false;
    let inRun = false;
    // Start just after a wall so that no run wraps around the start.
    for (let step = 1; step <= 8; step++) {
      const k = (wall + step) & 7;
      const p = move + ring[k];
      if (owner[p] === own && captor[p] === 0) {
        if (inRun && runHasSide) runs++;
        inRun = false;
      } else {
        if (!inRun) runHasSide = false;
        inRun = true;
        if ((k & 1) === 0) runHasSide = true;
      }
    }
    // The walk ends on the starting wall, which closes the last run.
    return runs >= 2;
  }

  private anchorRank(move: number, anchor: number): number {
    const s = this.field.stride;
    return [1, s + 1, s, s - 1, -1, -s - 1, -s, -s + 1].indexOf(anchor - move);
  }

  private capture(region: ClosedRegion, seat: number, move: number, deferred: boolean): Surround {
    const { board, shape, field } = this;
    shape.load(region.cells);
    let anchor = shape.anchorNextTo(move);
    let newest = -1;
    for (const p of region.cells) {
      if (board.isLiveEnemyDot(p, seat) && (newest < 0 || board.placedAt[p] > board.placedAt[newest])) newest = p;
    }
    // A deferred area does not touch the move: anchor it on its newest enemy dot instead.
    if (anchor < 0) anchor = newest;
    const chain = shape.chainFrom(anchor).map((p) => field.cell(p));
    const captured: Cell[] = [];
    const empty: Cell[] = [];
    const own = seat + 1;
    for (const p of shape.listingOrder(newest)) {
      if (board.isLiveEnemyDot(p, seat)) {
        board.captor[p] = own;
        this.score[seat]++;
        captured.push(field.cell(p));
      } else if (board.owner[p] !== EMPTY && board.captor[p] !== own) {
        // A dot captured earlier by someone else, now inside this player's area: it no longer
        // counts for its former captor (design document), and counts for this player unless it
        // is one of their own dots. It is not listed again.
        if (board.owner[p] !== board.captor[p]) this.score[board.captor[p] - 1]--;
        if (board.owner[p] !== own) this.score[seat]++;
        board.captor[p] = own;
      } else if (board.owner[p] === EMPTY && board.captor[p] !== own) {
        board.captor[p] = own;
        empty.push(field.cell(p));
      }
    }
    return { player: seat, chain, captured, empty, deferred };
  }
}
