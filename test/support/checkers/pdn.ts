import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { legalMoves } from '../../../src/rules/checkers/legal-moves.js';
import { Move, isCapture, moveNotation } from '../../../src/rules/checkers/move.js';
import { BLACK_KING, BLACK_MAN, Colour, Piece, WHITE_KING, WHITE_MAN, colourOf, isKing, kingOf, promotionRow } from '../../../src/rules/checkers/pieces.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { Square, columnOf, parseSquareName, rowOf, squareAt } from '../../../src/rules/checkers/squares.js';

/**
 * PDN (Portable Draughts Notation) games of Russian checkers and their conversion to BARS move
 * numbers. PDN writes a capture by its start and end only (`c3:g7`) or with every landing
 * (`c3:e5:g7`); the intermediate landings and the captured pieces are found by asking the rules
 * engine which legal move fits. Plain functions, no test framework: benchmarks reuse them.
 */

export interface PdnGame {
  readonly tags: Readonly<Record<string, string>>;
  /** Move tokens in order, move numbers and the result removed; anything else is kept to be reported. */
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
  /** Plies whose short PDN form fitted several legal moves capturing the same pieces (harmless). */
  readonly ambiguousPlies: number[];
}

const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '2-0', '0-2', '1-1', '*']);

/** Splits a PDN file into games: tag pairs, then the move text up to the next tag section. */
export function parsePdn(text: string): PdnGame[] {
  const games: PdnGame[] = [];
  let tags: Record<string, string> = {};
  let moveText = '';
  let inTags = false;
  const flush = () => {
    if (Object.keys(tags).length > 0 || moveText.trim() !== '') games.push({ tags, tokens: moveTokens(moveText), index: games.length + 1 });
    tags = {};
    moveText = '';
  };
  for (const line of text.split(/\r\n|\n|\r/)) {
    const tag = /^\s*\[(\w+)\s+"(.*)"\]\s*$/.exec(line);
    if (tag) {
      if (!inTags) flush();
      inTags = true;
      tags[tag[1]] = tag[2];
    } else {
      if (line.trim() !== '') inTags = false;
      moveText += `${line}\n`;
    }
  }
  flush();
  return games;
}

function moveTokens(moveText: string): string[] {
  const withoutComments = moveText.replace(/\{[^}]*\}/g, ' ').replace(/\([^)]*\)/g, ' ');
  return withoutComments
    .split(/\s+/)
    .map((token) => token.replace(/^\d+\.(\.\.)?/, ''))
    .filter((token) => token !== '' && !RESULTS.has(token));
}

/**
 * The position of a PDN FEN tag such as `W:W21,22,K30:B1,2`: side to move, then each side's squares
 * by their 1-32 numbers (square 1 is b8, 4 is h8, 29 is a1, 32 is g1) or names, kings with K.
 */
export function positionFromFen(fen: string): Position {
  const [turn, ...sides] = fen.replace(/\.$/, '').split(':');
  const pieces: [Square, Piece][] = [];
  for (const side of sides) {
    const colour: Colour = side[0] === 'W' ? 'white' : 'black';
    for (const entry of side.slice(1).split(',').filter((e) => e.trim() !== '')) {
      const king = entry.trim().startsWith('K');
      const name = entry.trim().replace(/^K/, '');
      const square = /^\d+$/.test(name) ? squareOfNumber(Number(name)) : parseSquareName(name);
      if (square === undefined) throw new Error(`FEN square "${entry}" is not understood`);
      pieces.push([square, colour === 'white' ? (king ? WHITE_KING : WHITE_MAN) : king ? BLACK_KING : BLACK_MAN]);
    }
  }
  return Position.of(pieces, turn.trim() === 'B' ? 'black' : 'white');
}

/** PDN numbers the 32 dark squares row by row from black's side, left to right. */
export function squareOfNumber(n: number): Square | undefined {
  if (!Number.isInteger(n) || n < 1 || n > 32) return undefined;
  const row = Math.floor((n - 1) / 4);
  const column = 2 * ((n - 1) % 4) + (row % 2 === 0 ? 1 : 0);
  return squareAt(row, column);
}

/** Converts a game's moves to BARS numbers, stopping at the first token no legal move fits. */
export function convertGame(game: PdnGame): ConvertedGame {
  const start = game.tags.FEN ? positionFromFen(game.tags.FEN) : Position.initial();
  let position = start;
  const go: number[][] = [];
  const notation: string[] = [];
  const ambiguousPlies: number[] = [];
  let problem: ConversionProblem | null = null;
  for (let i = 0; i < game.tokens.length; i++) {
    const token = game.tokens[i];
    const ply = i + 1;
    const found = findMove(position, token);
    if (typeof found === 'string') {
      problem = { ply, token, reason: found };
      break;
    }
    if (found.ambiguous) ambiguousPlies.push(ply);
    go.push(barsNumbers(position, found.move));
    notation.push(moveNotation(found.move));
    position = applyMove(position, found.move);
  }
  return { game, go, notation, start, end: position, problem, ambiguousPlies };
}

function findMove(position: Position, token: string): { move: Move; ambiguous: boolean } | string {
  const match = /^([a-h][1-8])((?:[-:x][a-h][1-8])+)$/.exec(token);
  if (!match) return `"${token}" is not a move`;
  const squares = token.split(/[-:x]/).map((name) => parseSquareName(name) as Square);
  const capture = /[:x]/.test(token);
  const from = squares[0];
  const to = squares[squares.length - 1];
  const via = squares.slice(1, -1);
  const candidates = legalMoves(position).filter(
    (move) =>
      move.from === from &&
      move.landings[move.landings.length - 1] === to &&
      isCapture(move) === capture &&
      (via.length === 0 || (move.landings.length === via.length + 1 && via.every((s, k) => move.landings[k] === s))),
  );
  if (candidates.length === 0) {
    const legal = legalMoves(position).map(moveNotation);
    return `no legal move of ${position.toMove} fits ${token} (legal: ${legal.slice(0, 12).join(' ')}${legal.length > 12 ? ' …' : ''})`;
  }
  const capturedSets = new Set(candidates.map((move) => [...move.captured].sort((a, b) => a - b).join(',')));
  if (capturedSets.size > 1) return `${token} fits several moves capturing different pieces: ${candidates.map(moveNotation).join(', ')}`;
  return { move: candidates[0], ambiguous: candidates.length > 1 };
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
