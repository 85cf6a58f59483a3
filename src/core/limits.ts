import { FormatError, SourceLocation } from './errors.js';

/**
 * Bounds on the work one upload may cause, set by the operator (MAX_PLIES, MAX_BOARD_SIDE,
 * MAX_VARIATION_DEPTH, MAX_LINE_LENGTH) and enforced by every plugin as early as it can: before
 * a replay, before a schema validation, before building anything proportional to the input.
 */
export interface ReadLimits {
  /** Most plies (moves, passes, jumps) in one game, counting every variation. */
  readonly maxPlies: number;
  /** Largest board side, in points, squares or holes (width and height each). */
  readonly maxBoardSide: number;
  /** Deepest nesting of variations (a file without variations has depth 0). */
  readonly maxVariationDepth: number;
  /** Longest line of a line-based text format, in characters (XML formats are not line-based). */
  readonly maxLineLength: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxPlies: 10_000,
  maxBoardSide: 64,
  maxVariationDepth: 500,
  maxLineLength: 65_536,
};

/** The 422 for an upload that crosses a bound: names the setting, its value and where it was crossed. */
export function pliesExceeded(limits: ReadLimits, where: SourceLocation = {}): FormatError {
  const message = `the game has more than ${limits.maxPlies} plies, the most this archive replays (MAX_PLIES)`;
  return FormatError.at(message, { ply: limits.maxPlies + 1, ...where }, 422, 'limit.plies');
}

export function boardExceeded(limits: ReadLimits, width: number, height: number, where: SourceLocation = {}): FormatError {
  const message = `the board is ${width}x${height}: sides larger than ${limits.maxBoardSide} are not replayed (MAX_BOARD_SIDE)`;
  return FormatError.at(message, where, 422, 'limit.board');
}

export function checkBoard(limits: ReadLimits, width: number, height: number, where: SourceLocation = {}): void {
  if (width > limits.maxBoardSide || height > limits.maxBoardSide) throw boardExceeded(limits, width, height, where);
}

export function variationDepthExceeded(limits: ReadLimits, where: SourceLocation = {}): FormatError {
  const message = `variations are nested deeper than ${limits.maxVariationDepth} levels (MAX_VARIATION_DEPTH)`;
  return FormatError.at(message, where, 422, 'limit.variation_depth');
}

/**
 * Refuses text with a line longer than the bound, at that line, in one pass without splitting.
 * For line-based formats; call it before tokenising.
 */
export function checkLineLengths(text: string, limits: ReadLimits): void {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c !== 10 && c !== 13) continue;
    if (i - start > limits.maxLineLength) {
      const message = `line ${line} is ${i - start} characters long, longer than ${limits.maxLineLength} (MAX_LINE_LENGTH)`;
      throw FormatError.at(message, { line, column: limits.maxLineLength + 1, offset: start + limits.maxLineLength }, 422, 'limit.line_length');
    }
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    line++;
    start = i + 1;
  }
}

/**
 * The longest text, in bytes of UTF-8, the archive keeps in a searched column (a player's name and
 * id, the event, the rules, a rating): each has a B-tree on it, and PostgreSQL refuses a B-tree
 * entry over 2,704 bytes (a third of a page). The bound leaves room for the rest of the entry (the
 * game id) and for the database's own lower-casing, which may lengthen a few letters.
 */
export const MAX_INDEXED_TEXT_BYTES = 2_000;

/** The facts of a reading that are stored in searched columns, each with what to call it. */
export interface IndexedText {
  readonly field: string;
  readonly value: string | null | undefined;
}

/**
 * Refuses (422 `limit.indexed_text`) a value longer than {@link MAX_INDEXED_TEXT_BYTES}, counted as
 * written and as lower-cased and NFKC-normalised (the forms searched), naming the field and the bound.
 */
export function checkIndexedTexts(texts: readonly IndexedText[]): void {
  for (const { field, value } of texts) {
    if (value === null || value === undefined) continue;
    const bytes = Math.max(Buffer.byteLength(value), Buffer.byteLength(value.normalize('NFKC').toLowerCase()), Buffer.byteLength(value.toLowerCase()));
    if (bytes > MAX_INDEXED_TEXT_BYTES) {
      const message = `${field} is ${bytes.toLocaleString('en-US')} bytes long; the archive indexes values of at most ${MAX_INDEXED_TEXT_BYTES.toLocaleString('en-US')} bytes (UTF-8)`;
      throw new FormatError(message, [], 422, 'limit.indexed_text');
    }
  }
}
