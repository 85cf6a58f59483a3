/**
 * Piece codes. The engine uses the same small integers as the BARS board (1 white man, 2 black man,
 * 11 white king, 12 black king, 0 empty) because they are compact and self-describing:
 * the last digit is the colour, the tens digit says king.
 */
export type Colour = 'white' | 'black';
export type Piece = 1 | 2 | 11 | 12;
export type Cell = 0 | Piece;

export const EMPTY = 0;
export const WHITE_MAN = 1;
export const BLACK_MAN = 2;
export const WHITE_KING = 11;
export const BLACK_KING = 12;

export function colourOf(piece: Piece): Colour {
  return piece % 10 === 1 ? 'white' : 'black';
}

export function isKing(piece: Piece): boolean {
  return piece > 10;
}

export function manOf(colour: Colour): Piece {
  return colour === 'white' ? WHITE_MAN : BLACK_MAN;
}

export function kingOf(colour: Colour): Piece {
  return colour === 'white' ? WHITE_KING : BLACK_KING;
}

export function opponentOf(colour: Colour): Colour {
  return colour === 'white' ? 'black' : 'white';
}

export function isPiece(value: number): value is Piece {
  return value === WHITE_MAN || value === BLACK_MAN || value === WHITE_KING || value === BLACK_KING;
}

/** `white man`, `black king`. */
export function describePiece(piece: Piece): string {
  return `${colourOf(piece)} ${isKing(piece) ? 'king' : 'man'}`;
}

/** Men move towards the opponent: white up the array (towards row 0), black down. */
export function forwardRowStep(colour: Colour): number {
  return colour === 'white' ? -1 : 1;
}

/** The row where a man of this colour is crowned. */
export function promotionRow(colour: Colour): number {
  return colour === 'white' ? 0 : 7;
}
