import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { Move, isCapture, moveNotation } from '../../../src/rules/checkers/move.js';
import { Piece, colourOf, isKing, kingOf, promotionRow } from '../../../src/rules/checkers/pieces.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { Square, columnOf, rowOf } from '../../../src/rules/checkers/squares.js';
import { DEFAULT_LIMITS } from '../../../src/formats/limits.js';
import { parseGame } from '../../../src/formats/pdn-draughts/game.js';
import { Lexer } from '../../../src/formats/pdn-draughts/lexer.js';
import { matchMove } from '../../../src/formats/pdn-draughts/match-move.js';
import { positionFromFen as fenPosition, readMoveToken } from '../../../src/formats/pdn-draughts/notation.js';
import { gameSpans } from '../../../src/formats/pdn-draughts/split.js';

export { squareOfNumber } from '../../../src/formats/pdn-draughts/notation.js';

/**
 * PDN games of Russian checkers converted to BARS move numbers, for the BARS tests and benchmarks.
 * The games are read and their moves matched to legal moves by the PDN plugin's own reader
 * (`src/formats/pdn-draughts/`); the BARS numbers are spelled here, digit by digit, independently of
 * the BARS plugin. Plain functions, no test framework: benchmarks reuse them.
 */

export interface PdnGame {
  readonly tags: Readonly<Record<string, string>>;
  /** The main line's move tokens in order (move numbers, comments, variations and the result left out). */
  readonly tokens: readonly string[];
  /** The game's 1-based position in the file. */
  readonly index: number;
}

export interface ConversionProblem {
  readonly ply: number;
  readonly token: string;
  readonly reason: string;
}

export interface ConvertedGame {
  readonly game: PdnGame;
  /** BARS numbers of the plies converted, stopping at the first that could not be. */
  readonly go: number[][];
  /** The same moves in full notation (every landing written). */
  readonly notation: string[];
  readonly start: Position;
  /** Position after the converted plies. */
  readonly end: Position;
  readonly problem: ConversionProblem | null;
}

/** The games of a PDN file, as the PDN plugin splits and parses them. */
export function parsePdn(text: string): PdnGame[] {
  return gameSpans(text).map((span, i) => {
    const game = parseGame(new Lexer(text.slice(span.start, span.end)), DEFAULT_LIMITS);
    const tags: Record<string, string> = {};
    for (const tag of game.tags) tags[tag.name] = tag.value;
    return { tags, tokens: game.main.moves.map((move) => move.text), index: i + 1 };
  });
}

/** The position of a PDN FEN tag value such as `W:W21,22,K30:B1,2`. */
export function positionFromFen(fen: string): Position {
  return fenPosition(fen, fen, 0);
}

/** Converts a game's moves to BARS numbers, stopping at the first token no single legal move fits. */
export function convertGame(game: PdnGame): ConvertedGame {
  const start = game.tags.FEN ? positionFromFen(game.tags.FEN) : Position.initial();
  let position = start;
  const go: number[][] = [];
  const notation: string[] = [];
  let problem: ConversionProblem | null = null;
  for (let i = 0; i < game.tokens.length; i++) {
    const token = game.tokens[i];
    const written = readMoveToken(token);
    const match = 'unreadable' in written ? null : matchMove(position, written, token);
    if (match?.kind !== 'move') {
      const reason = match === null ? `"${token}" is not a move` : match.kind === 'ambiguous' ? 'several moves fit' : match.judgement.detail;
      problem = { ply: i + 1, token, reason };
      break;
    }
    go.push(barsNumbers(position, match.move));
    notation.push(moveNotation(match.move));
    position = applyMove(position, match.move);
  }
  return { game, go, notation, start, end: position, problem };
}

/**
 * The BARS numbers of a legal move, written out digit by digit as the spec describes them
 * (a captured, b king, c colour, y row, x column; leading zeros dropped): an independent
 * spelling of what the plugin computes arithmetically.
 */
export function barsNumbers(position: Position, move: Move): number[] {
  let piece = position.at(move.from) as Piece;
  const colour = colourOf(piece);
  const numbers = [spell(false, piece, move.from)];
  move.landings.forEach((landing, i) => {
    if (rowOf(landing) === promotionRow(colour)) piece = kingOf(colour);
    if (isCapture(move)) numbers.push(spell(true, position.at(move.captured[i]) as Piece, move.captured[i]));
    numbers.push(spell(false, piece, landing));
  });
  return numbers;
}

function spell(captured: boolean, piece: Piece, square: Square): number {
  const digits = `${captured ? 1 : 0}${isKing(piece) ? 1 : 0}${colourOf(piece) === 'white' ? 1 : 2}${rowOf(square)}${columnOf(square)}`;
  return parseInt(digits, 10);
}

/** A BARS file in the assignment form, with area_monitor only when the game does not start from the standard position. */
export function toBarsText(converted: ConvertedGame): string {
  const standard = Position.initial();
  const isStandard = converted.start.cells.every((cell, i) => cell === standard.cells[i]) && converted.start.toMove === 'white';
  const lines: string[] = [];
  const { White, Black, Event, Date } = converted.game.tags;
  lines.push(`# ${White ?? '?'} - ${Black ?? '?'}, ${Event ?? ''} ${Date ?? ''}`.trimEnd());
  if (!isStandard) {
    const rows = converted.start.rows().map((row, r) => `[${row.map((cell, c) => ((r + c) % 2 === 1 ? cell : 9)).join(', ')}]`);
    lines.push(`area_monitor = [${rows.join(',\n                ')}]`);
  }
  lines.push(`go = [${converted.go.map((move) => `[${move.join(', ')}]`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}
