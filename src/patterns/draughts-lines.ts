import { BOARD_MASKS_BYTES } from '../formats/families/checkers/board-masks.js';
import type { DraughtsQuery } from './draughts-search.js';

/** A game's positions as the search keeps them: the masks of every ply, and what stood on each square at some ply. */
export interface DraughtsLine {
  readonly plies: Uint8Array;
  /** The transaction that wrote the row (`game_draughts.written`). */
  readonly written: string;
  /** The squares that ever held a white man, a white king, a black man, a black king, and that were ever empty (signed masks). */
  readonly ever: Int32Array;
}

/**
 * The draughts positions of every game, kept in memory (16 bytes a ply: some 100 MB at 100,000
 * games of 60 plies), so that a search scans them without a statement. It follows `game_draughts`
 * as the Go pattern filter follows `game_patterns`: by the writing transactions' ids, reading the
 * rows written at or after the xmin of the previous read's snapshot; a game written again takes its
 * new row; a game deleted is let go of when the table holds fewer rows than the memory.
 */
export class DraughtsLines {
  readonly lines = new Map<number, DraughtsLine>();
  /** The xmin of the last read's snapshot (null: nothing read yet). */
  watermark: string | null = null;
  /** Bytes of positions kept. */
  bytes = 0;

  /** Keeps (or replaces) the lines of rows just read. */
  take(rows: readonly { gameId: number; plies: Uint8Array; written: string }[]): void {
    for (const row of rows) {
      const plies = new Uint8Array(row.plies); // its own copy: not a view that keeps a whole answer's buffer alive
      const old = this.lines.get(row.gameId);
      if (old) this.bytes -= old.plies.length;
      this.lines.set(row.gameId, { plies, written: row.written, ever: everOf(plies) });
      this.bytes += plies.length;
    }
  }

  /** Lets go of the games not among `stored`. */
  keepOnly(stored: ReadonlySet<number>): void {
    for (const [id, line] of this.lines) {
      if (stored.has(id)) continue;
      this.bytes -= line.plies.length;
      this.lines.delete(id);
    }
  }
}

/** What stood on each square at some ply of a line (see {@link DraughtsLine.ever}). */
export function everOf(plies: Uint8Array): Int32Array {
  const view = new DataView(plies.buffer, plies.byteOffset, plies.byteLength);
  const ever = new Int32Array(5);
  for (let at = 0; at + BOARD_MASKS_BYTES <= plies.length; at += BOARD_MASKS_BYTES) {
    let occupied = 0;
    for (let k = 0; k < 4; k++) {
      const mask = view.getInt32(at + 4 * k);
      ever[k] |= mask;
      occupied |= mask;
    }
    ever[4] |= ~occupied;
  }
  return ever;
}

/** Whether a line may match the query: every square it wants a piece on held that piece at some ply, every square it wants empty was empty at some ply. */
export function mayMatch(query: DraughtsQuery, ever: Int32Array): boolean {
  const { hold, empty } = query;
  return (ever[0] & hold[0]) === hold[0] && (ever[1] & hold[1]) === hold[1] && (ever[2] & hold[2]) === hold[2] && (ever[3] & hold[3]) === hold[3] && (ever[4] & empty) === empty;
}
