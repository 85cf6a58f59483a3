import { FormatError } from '../../../core/errors.js';
import { LIGHT_SQUARE } from '../../families/checkers/ledger.js';
import { ReadLimits, checkBoard, checkLineLengths } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { Position } from '../../../rules/checkers/position.js';
import { Cell, Colour, BLACK_MAN, WHITE_MAN, colourOf, isPiece } from '../../../rules/checkers/pieces.js';
import { BOARD_SIZE, isDarkSquare, squareAt } from '../../../rules/checkers/squares.js';
import { squareName } from '../../families/checkers/notation.js';
import { ArrayNode, BarsForm, BarsSyntax, NumberToken, parseBarsSyntax } from './read.js';
import { PieceNumber, decodeNumber, numberProblem } from './numbers.js';

/** One number of a move with where it is written. */
export interface WrittenNumber extends PieceNumber {
  readonly token: NumberToken;
}

/** A move as written: the mover's squares at even indices, the captured pieces at odd ones. */
export interface BarsMove {
  readonly numbers: readonly WrittenNumber[];
}

export interface BarsRecord {
  readonly form: BarsForm;
  /** The given starting board (without side to move), or null for the standard initial position. */
  readonly start: Position | null;
  readonly moves: readonly BarsMove[];
  /** `go` was written as one move (`go = [156, 145]`), which the original allows. */
  readonly singleMove: boolean;
  /** The source text of the area_monitor value (null when absent) and of the go value. */
  readonly headerText: string | null;
  readonly bodyText: string;
  /** The text of the `#` comments, without the `#`, in file order. */
  readonly comments: readonly string[];
}

/**
 * Parses and checks a whole file: the bounds (line lengths and the 8x8 board before parsing, plies
 * while parsing), syntax, the board, every number. Malformed input throws a FormatError.
 */
export function readBarsRecord(text: string, limits: ReadLimits): BarsRecord {
  checkLineLengths(text, limits);
  checkBoard(limits, BOARD_SIZE, BOARD_SIZE);
  const syntax: BarsSyntax = parseBarsSyntax(text, limits);
  const fail: Fail = (message, offset, ply) => FormatError.at(message, ply === undefined ? locate(text, offset) : { ...locate(text, offset), ply });
  const start = syntax.areaMonitor ? readBoard(syntax.areaMonitor, fail) : null;
  const { moves, singleMove } = readMoves(syntax.go, fail);
  return {
    form: syntax.form,
    start,
    moves,
    singleMove,
    headerText: syntax.areaMonitor ? text.slice(syntax.areaMonitor.offset, syntax.areaMonitor.end) : null,
    bodyText: text.slice(syntax.go.offset, syntax.go.end),
    comments: syntax.comments,
  };
}

type Fail = (message: string, offset: number, ply?: number) => FormatError;

function readBoard(node: ArrayNode, fail: Fail): Position {
  if (node.items.length !== BOARD_SIZE) throw fail(`area_monitor has ${node.items.length} rows, expected 8`, node.offset);
  const cells: [number, Cell][] = [];
  node.items.forEach((rowNode, row) => {
    if (rowNode.kind !== 'array') throw fail(`area_monitor row ${row} must be an array of 8 numbers`, rowNode.offset);
    if (rowNode.items.length !== BOARD_SIZE) throw fail(`area_monitor row ${row} has ${rowNode.items.length} values, expected 8`, rowNode.offset);
    rowNode.items.forEach((cell, column) => {
      if (cell.kind !== 'number') throw fail(`area_monitor[${row}][${column}] must be a number`, cell.offset);
      const where = `area_monitor[${row}][${column}]`;
      if (!isDarkSquare(row, column)) {
        if (cell.value !== LIGHT_SQUARE) throw fail(`${where} is a light square and must be 9, found ${cell.value}`, cell.offset);
        return;
      }
      const value = cell.value;
      if (value === 0) return;
      if (!isPiece(value)) throw fail(`${where} (${squareName(squareAt(row, column))}) is ${value}: expected 0, 1, 2, 11 or 12`, cell.offset);
      // A man on its last row would already have been crowned; no game reaches such a board.
      if ((value === WHITE_MAN && row === 0) || (value === BLACK_MAN && row === BOARD_SIZE - 1)) {
        throw fail(`${where}: a ${colourOf(value)} man on ${squareName(squareAt(row, column))} would be a king (${value + 10})`, cell.offset);
      }
      cells.push([squareAt(row, column), value]);
    });
  });
  return Position.of(cells as [number, 1 | 2 | 11 | 12][], 'white');
}

function readMoves(go: ArrayNode, fail: Fail): { moves: BarsMove[]; singleMove: boolean } {
  const singleMove = go.items.length > 0 && go.items.every((item) => item.kind === 'number');
  const moveNodes = singleMove ? [go] : go.items;
  const moves = moveNodes.map((node, index) => {
    const ply = index + 1;
    if (node.kind !== 'array') throw fail(`go: move ${ply} must be an array of numbers`, node.offset);
    const count = node.items.length;
    if (count < 2 || (count > 2 && count % 2 === 0)) {
      throw fail(`go: move ${ply} has ${count} numbers; a move has 2 (a quiet move) or an odd number of at least 3 (a capture)`, node.offset);
    }
    const numbers = node.items.map((item) => {
      if (item.kind !== 'number') throw fail(`go: move ${ply} must hold numbers, not nested arrays`, item.offset);
      const problem = numberProblem(item.value);
      if (problem) throw fail(`go: move ${ply}: ${problem}`, item.offset, ply);
      const decoded = decodeNumber(item.value);
      return { captured: decoded.captured, piece: decoded.piece, square: decoded.square, token: item };
    });
    return { numbers };
  });
  return { moves, singleMove };
}

/** Who moves first: white from the standard position; with a given board, the colour of the first move's piece. */
export function firstToMove(record: BarsRecord): Colour {
  if (!record.start || record.moves.length === 0) return 'white';
  const first = record.moves[0].numbers[0];
  const onBoard = record.start.at(first.square);
  // The board is the truth; the number's own colour digit decides only when the square is empty.
  return onBoard !== 0 ? colourOf(onBoard) : colourOf(first.piece);
}
