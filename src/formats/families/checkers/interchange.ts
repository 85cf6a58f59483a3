import { FormatError, doesNotFit } from '../../../core/errors.js';
import type { FormatDescriptor, InterchangeGame, Problem, RegeneratedFile } from '../../plugin.js';
import { judgeMove } from '../../../rules/checkers/judge-move.js';
import { applyMove } from '../../../rules/checkers/apply-move.js';
import type { Move } from '../../../rules/checkers/move.js';
import { GameOver, gameOver } from '../../../rules/checkers/outcome.js';
import { BLACK_MAN, Colour, WHITE_MAN, isPiece } from '../../../rules/checkers/pieces.js';
import { Position } from '../../../rules/checkers/position.js';
import { BOARD_SIZE, SQUARE_COUNT, Square, columnOf, isDarkSquare, rowOf } from '../../../rules/checkers/squares.js';
import type { Decision } from './ledger.js';
import { describeIllegal, squareName } from './notation.js';

/**
 * A Russian-draughts game in plain terms, the common ground of BARS and PDN: what either format can
 * say, without notation. Squares are the rules engine's indices, `row * 8 + column`, row 0 being
 * rank 8 (black's back row) and column 0 file a (so c3 is 42, b8 is 1). Caches (piece codes, capture
 * flags, results the rules decide) are not in it: a writer regenerates them by replaying the moves.
 */
export interface CheckersInterchange extends InterchangeGame {
  readonly family: 'checkers';
  /** The board is always 8x8 and the rules Russian draughts in both formats. */
  readonly boardSize: 8;
  /** The starting position when the record gives one other than the standard start; null for the standard start. */
  readonly setup: CheckersSetup | null;
  /** White (seat 0), then black (seat 1). */
  readonly players: readonly [CheckersPlayer, CheckersPlayer];
  /**
   * The moves, each one the rules engine accepted, with the variations hung on the moves they
   * replace; the main line's comments are about the whole game (PDN comments before the first
   * move, BARS `#` comments).
   */
  readonly main: CheckersLine;
  /** The result as the record states it (a resignation or an agreed draw included); null when it states none. */
  readonly result: Decision;
  readonly date: CheckersDate | null;
  readonly event: string | null;
  readonly site: string | null;
  readonly round: string | null;
  /** Metadata the model has no field for, under the source's own names (PDN tags such as Opening), in order. */
  readonly other: readonly { readonly name: string; readonly value: string }[];
}

export interface CheckersSetup {
  /** 64 cells by square index: 0 empty, 1 white man, 2 black man, 11 white king, 12 black king. */
  readonly cells: readonly number[];
  readonly toMove: Colour;
}

export interface CheckersPlayer {
  readonly colour: Colour;
  readonly name: string | null;
  /** The player's id in the source system; neither BARS nor PDN has one, other sources may. */
  readonly externalId: string | null;
  readonly rating: number | null;
}

/** A date with any part unknown (`1950`, `1973-05`), as records of old games often give it. */
export interface CheckersDate {
  readonly year: number | null;
  readonly month: number | null;
  readonly day: number | null;
}

export interface CheckersLine {
  /** Text before the line's first move. */
  readonly comments: readonly string[];
  readonly moves: readonly CheckersMove[];
}

/** A move as the engine states it: every stop and, for a capture, the captured square of each jump. */
export interface CheckersMove {
  readonly from: Square;
  readonly landings: readonly Square[];
  readonly captured: readonly Square[];
  /** Marks on the move as the source wrote them: strength marks (`!`, `?!`) and numbered ones (`$3`). */
  readonly annotations: readonly string[];
  readonly comments: readonly string[];
  /** Alternatives to this move, each from the position before it. */
  readonly variations: readonly CheckersLine[];
}

/**
 * The game as a checkers game of the model, for a plugin asked to write `format` (one of `own`):
 * a game of another family, or a format the plugin does not write, is `export.unsupported`.
 */
export function checkersGameFor(game: InterchangeGame, format: FormatDescriptor, own: FormatDescriptor): CheckersInterchange {
  if (format.publisher !== own.publisher || format.version !== own.version) {
    throw new FormatError(`this plugin writes ${own.publisher}/${own.version}, not ${format.publisher}/${format.version}`, [], 422, 'export.unsupported');
  }
  if (game.family !== 'checkers') throw new FormatError(`a ${game.family} game cannot be written as ${own.publisher}/${own.version}, a checkers format`, [], 422, 'export.unsupported');
  return game as CheckersInterchange;
}

/** The file a conversion gives: text in `format`, named `game` with the format's usual extension. */
export function convertedFile(format: FormatDescriptor, extension: string, content: string): RegeneratedFile {
  return { publisher: format.publisher, version: format.version, mediaType: 'text/plain; charset=utf-8', filename: `game${extension}`, content };
}

/**
 * Why a record cannot be converted when its replay stopped: the first problem that stopped it. A
 * conversion carries only moves the rules engine accepted (their squares are what the model holds).
 */
export function notReplayable(problems: readonly Problem[]): FormatError {
  const problem = problems.find((p) => !p.code.startsWith('note.') && !p.code.startsWith('cache.'));
  const what = problem ? `${problem.message} (${problem.code})` : 'a move does not replay';
  return doesNotFit(`the game does not replay, so it cannot be converted: ${what}; only games whose every move the rules accept are converted`);
}

/** The players of a record that names none: white and black, nothing known. */
export function unnamedPlayers(): [CheckersPlayer, CheckersPlayer] {
  return [
    { colour: 'white', name: null, externalId: null, rating: null },
    { colour: 'black', name: null, externalId: null, rating: null },
  ];
}

/** `1950`, `1973-05`, `1968-11-10`, `????-05-12`: the known parts, unknown ones as `?`. */
export function dateWords(date: CheckersDate): string {
  const parts = [date.year === null ? '????' : String(date.year).padStart(4, '0'), date.month, date.day].map((part) =>
    typeof part === 'number' ? String(part).padStart(2, '0') : part,
  );
  while (parts.length > 1 && parts[parts.length - 1] === null) parts.pop();
  return parts.map((part) => part ?? '??').join('-');
}

/** The setup of a starting position: null for the standard start with white to move. */
export function setupOf(position: Position): CheckersSetup | null {
  const standard = Position.initial();
  const same = position.toMove === standard.toMove && position.cells.every((cell, i) => cell === standard.cells[i]);
  return same ? null : { cells: Array.from(position.cells), toMove: position.toMove };
}

/** The move of the model for a move the engine accepted, with what the source says about it. */
export function interchangeMove(move: Pick<Move, 'from' | 'landings' | 'captured'>, extra: Partial<Pick<CheckersMove, 'annotations' | 'comments' | 'variations'>> = {}): CheckersMove {
  return {
    from: move.from,
    landings: [...move.landings],
    captured: [...move.captured],
    annotations: extra.annotations ?? [],
    comments: extra.comments ?? [],
    variations: extra.variations ?? [],
  };
}

/** One main-line move as the replay of the model found it. */
export interface ReplayedMove {
  /** The position before the move. */
  readonly before: Position;
  readonly move: Move;
  readonly source: CheckersMove;
}

export interface InterchangeReplay {
  readonly start: Position;
  readonly main: readonly ReplayedMove[];
  /** The engine's move for every move of the tree (main line and variations). */
  readonly moves: ReadonlyMap<CheckersMove, Move>;
  /** The rules' end of the game after the main line, or null while the side to move can play. */
  readonly over: GameOver | null;
  /** The result to write: the rules' when they end the game, else the one recorded. */
  readonly result: Decision;
  readonly variationCount: number;
  /** 1-based ply of the first move that has variations, or null. */
  readonly firstVariationPly: number | null;
}

/**
 * Replays a game of the model with the rules engine, main line and every variation, and regenerates
 * what a writer needs: each move as the engine plays it (with its promotion), the positions, the end
 * of the game. A game that is no legal Russian-draughts game (a bad board, an illegal move) is a 422.
 */
export function replayInterchange(game: CheckersInterchange): InterchangeReplay {
  const start = game.setup ? setupPosition(game.setup) : Position.initial();
  const moves = new Map<CheckersMove, Move>();
  let variationCount = 0;
  let firstVariationPly: number | null = null;
  const walk = (line: CheckersLine, from: Position, firstPly: number, where: string, main: ReplayedMove[] | null): Position => {
    let position = from;
    line.moves.forEach((source, i) => {
      const ply = firstPly + i;
      for (const variation of source.variations) {
        variationCount++;
        firstVariationPly ??= ply;
        walk(variation, position, ply, `a variation at ply ${ply}`, null);
      }
      const judgement = judgeMove(position, source);
      if (!judgement.legal) throw new FormatError(`${where}, ply ${ply} (${position.toMove}) is not a legal move: ${describeIllegal(judgement)}`);
      moves.set(source, judgement.move);
      main?.push({ before: position, move: judgement.move, source });
      position = applyMove(position, judgement.move);
    });
    return position;
  };
  const main: ReplayedMove[] = [];
  const end = walk(game.main, start, 1, 'the main line', main);
  const over = gameOver(end);
  return { start, main, moves, over, result: over ? over.winner : game.result, variationCount, firstVariationPly };
}

/** The position of a setup, refused when no record could hold it. */
export function setupPosition(setup: CheckersSetup): Position {
  if (setup.cells.length !== SQUARE_COUNT) throw new FormatError(`the setup has ${setup.cells.length} cells, expected ${SQUARE_COUNT}`);
  const pieces: [Square, 1 | 2 | 11 | 12][] = [];
  setup.cells.forEach((cell, square) => {
    if (cell === 0) return;
    const [row, column] = [rowOf(square), columnOf(square)];
    if (!isPiece(cell)) throw new FormatError(`the setup's cell ${square} holds ${cell}: expected 0, 1, 2, 11 or 12`);
    if (!isDarkSquare(row, column)) throw new FormatError(`the setup puts a piece on a light square (row ${row}, column ${column})`);
    if ((cell === WHITE_MAN && row === 0) || (cell === BLACK_MAN && row === BOARD_SIZE - 1)) {
      throw new FormatError(`the setup puts a man on ${squareName(square)}, where it would already be a king`);
    }
    pieces.push([square, cell]);
  });
  return Position.of(pieces, setup.toMove);
}
