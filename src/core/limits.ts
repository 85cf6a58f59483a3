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
