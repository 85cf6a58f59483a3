/*
 * Pattern search within a span of plies, with the side to move and numbered moves, by brute force,
 * for the pattern tests: the boards of a game (rows of X, O, `.`) after the start and each ply, and
 * its list of moves with their colours; every board of the span turned by hand through the board's
 * symmetries (grids.ts), the pattern as written looked for at the anchor's offsets (its numbered
 * cells empty), the side to move read from the list of colours, the numbered moves looked for in
 * the list of moves after that ply. Nothing of src/rules is used but the names.
 */
import { namesFor, turnRows } from './grids.js';

export type Colour = 'X' | 'O';
export const other = (colour: Colour): Colour => (colour === 'X' ? 'O' : 'X');

/** A game as the brute force reads it. */
export interface SpanGame {
  /** The board after the start (0) and after each ply, as rows of X, O and `.` (and `-`, a point only `*` matches). */
  readonly boards: readonly (readonly (readonly string[])[])[];
  /** Ply q's move (index q - 1): its colour and point, null a pass. */
  readonly moves: readonly { readonly colour: Colour; readonly point: readonly [number, number] | null }[];
}

/** What is sought: `to` may be Infinity, `toMove` the side of the pattern's X ('X') or O ('O'). */
export interface SpanSought {
  readonly pattern: readonly string[];
  readonly sequence: readonly string[] | null;
  readonly anchor: 'anywhere' | 'corner' | 'edge';
  readonly anyColors: boolean;
  readonly from: number;
  readonly to: number;
  readonly toMove: Colour | null;
  readonly strict: boolean;
}

/** Who moves after ply p, from the game's list: the next ply's colour, or at the end the other colour than the last. */
export const toMoveAfter = (game: SpanGame, p: number): Colour => (p < game.moves.length ? game.moves[p].colour : other(game.moves[game.moves.length - 1].colour));

/** Whether the numbered moves (board points in order, with colours) are played after ply p as asked. */
export function follows(game: SpanGame, p: number, wanted: readonly { x: number; y: number; colour: Colour }[], strict: boolean): boolean {
  let q = p;
  for (const move of wanted) {
    if (strict) {
      q++;
      const played = game.moves[q - 1];
      if (!played || played.point === null || played.point[0] !== move.x || played.point[1] !== move.y || played.colour !== move.colour) return false;
    } else {
      let r = q + 1;
      while (r <= game.moves.length && !(game.moves[r - 1].point?.[0] === move.x && game.moves[r - 1].point?.[1] === move.y && game.moves[r - 1].colour === move.colour)) r++;
      if (r > game.moves.length) return false;
      q = r;
    }
  }
  return true;
}

/** The brute force: the first ply of the span at which the pattern lies on the board turned by hand, with the side to move and the numbered moves; -1 for none. */
export function bruteFirst(game: SpanGame, s: SpanSought): number {
  const [width, height] = [game.boards[0][0].length, game.boards[0].length];
  const [pw, ph] = [s.pattern[0].length, s.pattern.length];
  const index = Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => [x, y] as [number, number]));
  for (let p = s.from; p <= Math.min(s.to, game.moves.length); p++) {
    const board = game.boards[p];
    for (const name of namesFor(width, height)) {
      const turned = turnRows(board.map((row) => [...row]), name);
      const where = turnRows(index, name);
      // The board turned: its width and height exchanged by the turns that swap the axes.
      const [tw, th] = [turned[0].length, turned.length];
      if (pw > tw || ph > th) continue;
      for (let top = 0; top <= (s.anchor === 'anywhere' ? th - ph : 0); top++) {
        for (let left = 0; left <= (s.anchor === 'corner' ? 0 : tw - pw); left++) {
          for (const swap of s.anyColors ? [false, true] : [false]) {
            const colourOf = (c: string): string => (swap && (c === 'X' || c === 'O') ? other(c as Colour) : c);
            let all = true;
            const numbered: { digit: number; x: number; y: number; colour: Colour }[] = [];
            for (let y = 0; all && y < ph; y++) {
              for (let x = 0; x < pw; x++) {
                const digit = s.sequence?.[y][x] ?? '.';
                const c = s.pattern[y][x];
                if (digit !== '.') {
                  const [bx, by] = where[top + y][left + x];
                  numbered.push({ digit: Number(digit), x: bx, y: by, colour: colourOf(c) as Colour });
                  if (turned[top + y][left + x] !== '.') all = false;
                } else if (c !== '*' && turned[top + y][left + x] !== colourOf(c)) all = false;
                if (!all) break;
              }
            }
            if (!all) continue;
            if (s.toMove !== null && toMoveAfter(game, p) !== (swap ? other(s.toMove) : s.toMove)) continue;
            if (!follows(game, p, numbered.sort((a, b) => a.digit - b.digit), s.strict)) continue;
            return p;
          }
        }
      }
    }
  }
  return -1;
}

