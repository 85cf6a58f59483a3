import { Cell, Colour, EMPTY, Piece, BLACK_MAN, WHITE_MAN, colourOf, isKing } from './pieces.js';
import { BOARD_SIZE, SQUARE_COUNT, Square, isDarkSquare, squareAt } from './squares.js';

/**
 * A position: what stands on every square and who is to move. Immutable by convention; moves are
 * applied by copying (64 bytes, cheaper than undo bookkeeping at this board size).
 */
export class Position {
  constructor(
    /** One cell per square index; light squares are always EMPTY. */
    readonly cells: Uint8Array,
    readonly toMove: Colour,
  ) {}

  at(square: Square): Cell {
    return this.cells[square] as Cell;
  }

  withToMove(colour: Colour): Position {
    return new Position(this.cells, colour);
  }

  /** Men and kings of one colour. */
  count(colour: Colour): { men: number; kings: number } {
    let men = 0;
    let kings = 0;
    for (let square = 0; square < SQUARE_COUNT; square++) {
      const cell = this.cells[square];
      if (cell === EMPTY || colourOf(cell as Piece) !== colour) continue;
      if (isKing(cell as Piece)) kings++;
      else men++;
    }
    return { men, kings };
  }

  /** The board as rows of cells, row 0 first (the BARS `area_monitor` shape, with 0 on light squares). */
  rows(): Cell[][] {
    const rows: Cell[][] = [];
    for (let row = 0; row < BOARD_SIZE; row++) {
      const cells: Cell[] = [];
      for (let column = 0; column < BOARD_SIZE; column++) cells.push(this.cells[row * BOARD_SIZE + column] as Cell);
      rows.push(cells);
    }
    return rows;
  }

  static empty(toMove: Colour = 'white'): Position {
    return new Position(new Uint8Array(SQUARE_COUNT), toMove);
  }

  /** A position from a list of pieces, for building test and puzzle positions. */
  static of(pieces: Iterable<readonly [Square, Piece]>, toMove: Colour): Position {
    const cells = new Uint8Array(SQUARE_COUNT);
    for (const [square, piece] of pieces) cells[square] = piece;
    return new Position(cells, toMove);
  }

  /** Twelve men each on the three rows nearest their side; white moves first. */
  static initial(): Position {
    const cells = new Uint8Array(SQUARE_COUNT);
    for (let row = 0; row < BOARD_SIZE; row++) {
      for (let column = 0; column < BOARD_SIZE; column++) {
        if (!isDarkSquare(row, column)) continue;
        if (row <= 2) cells[squareAt(row, column)] = BLACK_MAN;
        else if (row >= 5) cells[squareAt(row, column)] = WHITE_MAN;
      }
    }
    return new Position(cells, 'white');
  }
}
