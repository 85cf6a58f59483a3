import { IDENTITY, Transform } from '../symmetry.js';
import { CHECKERS_VALUES, CanonicalKey, PositionKeys, SymmetricKeys, zobristTable } from '../zobrist.js';
import type { Move } from './move.js';
import { BLACK_KING, BLACK_MAN, Cell, Colour, EMPTY, Piece, WHITE_KING, WHITE_MAN, colourOf, kingOf } from './pieces.js';
import type { Position } from './position.js';
import { SQUARE_COUNT, Square } from './squares.js';

/**
 * Position keys of Russian draughts (see `src/rules/zobrist.ts` and docs/positions.md): a position is
 * the men and kings of each side on their squares and the side to move. The board has a side for
 * each colour, so no rotation or reflection keeps a position what it is: the identity is the only
 * symmetry and the canonical key is the exact key.
 *
 * The generator's values for draughts, from {@link CHECKERS_VALUES} on: a piece on square s (the
 * engine's `row * 8 + column`) is value `s · 4 + k`, k being 0 white man, 1 black man, 2 white king,
 * 3 black king; black to move is value 256.
 */
const BLACK_TO_MOVE = SQUARE_COUNT * 4;

/** The only symmetry of a draughts board. */
export const CHECKERS_SYMMETRIES: readonly Transform[] = Object.freeze([IDENTITY] as Transform[]);

let table: { readonly hi: Int32Array; readonly lo: Int32Array } | null = null;

function values(): { readonly hi: Int32Array; readonly lo: Int32Array } {
  return (table ??= zobristTable(CHECKERS_VALUES, BLACK_TO_MOVE + 1));
}

function pieceIndex(cell: number): number {
  switch (cell) {
    case WHITE_MAN:
      return 0;
    case BLACK_MAN:
      return 1;
    case WHITE_KING:
      return 2;
    case BLACK_KING:
      return 3;
    default:
      throw new RangeError(`a square holds ${cell}: expected 0, 1, 2, 11 or 12`);
  }
}

/** The keys of a position from nothing but the position (for positions typed in by hand and for the tests). */
export function checkersPositionKeys(position: Position): PositionKeys {
  const { hi, lo } = values();
  const keys = new SymmetricKeys(CHECKERS_SYMMETRIES);
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = position.cells[square];
    if (cell === EMPTY) continue;
    const value = square * 4 + pieceIndex(cell);
    keys.hi[IDENTITY] ^= hi[value];
    keys.lo[IDENTITY] ^= lo[value];
  }
  if (position.toMove === 'black') keys.toggleInvariant(hi[BLACK_TO_MOVE], lo[BLACK_TO_MOVE]);
  return keys.keys();
}

/**
 * The key of a draughts position kept up to date move by move by XOR. It holds its own copy of the
 * squares, so a square is told its new content only. Starts as an empty board with white to move.
 */
export class CheckersPositionHasher {
  readonly transforms = CHECKERS_SYMMETRIES;
  /** The squares as the hasher knows them, by square index. */
  readonly cells = new Uint8Array(SQUARE_COUNT);
  /** The position's keys under each of the board's symmetries (read them; the hasher keeps them). */
  readonly keys = new SymmetricKeys(CHECKERS_SYMMETRIES);
  private side: Colour = 'white';

  static of(position: Position): CheckersPositionHasher {
    const hasher = new CheckersPositionHasher();
    hasher.load(position);
    return hasher;
  }

  get toMove(): Colour {
    return this.side;
  }

  setToMove(colour: Colour): void {
    if (colour === this.side) return;
    const { hi, lo } = values();
    this.keys.toggleInvariant(hi[BLACK_TO_MOVE], lo[BLACK_TO_MOVE]);
    this.side = colour;
  }

  /** The square now holds `cell`. */
  set(square: Square, cell: Cell): void {
    const old = this.cells[square];
    if (old === cell) return;
    if (cell !== EMPTY) pieceIndex(cell); // refuses what is no piece before anything changes
    if (old !== EMPTY) this.toggle(square, old);
    if (cell !== EMPTY) this.toggle(square, cell);
    this.cells[square] = cell;
  }

  /**
   * A legal move, as {@link applyMove} plays it on the position the hasher holds: the piece leaves
   * `from`, the captured pieces leave, it lands (crowned if the move promotes), the other side moves.
   */
  play(move: Move): void {
    const cell = this.cells[move.from];
    if (cell === EMPTY) throw new RangeError(`no piece on square ${move.from} to move`);
    this.set(move.from, EMPTY);
    for (const square of move.captured) this.set(square, EMPTY);
    const piece = cell as Piece;
    this.set(move.landings[move.landings.length - 1], move.promotes ? kingOf(colourOf(piece)) : piece);
    this.setToMove(colourOf(piece) === 'white' ? 'black' : 'white');
  }

  load(position: Position): void {
    for (let square = 0; square < SQUARE_COUNT; square++) this.set(square, position.cells[square] as Cell);
    this.setToMove(position.toMove);
  }

  key(): bigint {
    return this.keys.key(IDENTITY)!;
  }

  canonical(): CanonicalKey {
    return this.keys.canonical();
  }

  /** The transforms that reach the canonical key (several for a symmetric position), lowest id first. */
  leastTransforms(): Transform[] {
    return this.keys.leastTransforms();
  }

  /** The same answer as {@link checkersPositionKeys} for the position the hasher holds. */
  positionKeys(): PositionKeys {
    return this.keys.keys();
  }

  private toggle(square: Square, cell: number): void {
    const { hi, lo } = values();
    const value = square * 4 + pieceIndex(cell);
    this.keys.hi[IDENTITY] ^= hi[value];
    this.keys.lo[IDENTITY] ^= lo[value];
  }
}
