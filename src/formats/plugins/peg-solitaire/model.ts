import type { Board } from '../../../rules/peg-solitaire/board.js';

/** A board file as read: the board plus the text parts the archive stores. */
export interface ParsedBoardFile {
  readonly formatVersion: 1 | 2;
  readonly board: Board;
  /** The header line(s) as written (version 1: up to and including `~`). */
  readonly header: string;
  /** The matrix text as written, after the header's line end. */
  readonly body: string;
  /**
   * How version-2 dots were read: `shift` (current program: a dot shifts the row by half a cell) or
   * `cell` (first version-2 program: a dot is a half-width locked cell). Null for version 1.
   */
  readonly dotReading: 'shift' | 'cell' | null;
}
