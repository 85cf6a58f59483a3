import type { UploadedFile } from '../../plugin.js';

/** How much of the file detection looks at: a game's tags and first move are near its start. */
const SNIFF_BYTES = 4096;

const LEADING_COMMENTS = /^(?:\s+|\{[^}]*\}|;[^\n\r]*)*/;
const TAGS = /^(?:\[[A-Za-z][A-Za-z0-9_]*[ \t]*"(?:[^"\\\r\n]|\\.)*"[ \t]*\]\s*)+/;
const GAME_TYPE = /\[GameType[ \t]*"[0-9]/;
const DRAUGHTS_FEN = /\[FEN[ \t]*"[WB]:[WB]/;
/** A dark square by name (files a, c, e, g on odd ranks, b, d, f, h on even ones, like a1) or a square number. */
const SQUARE = '(?:[aceg][1357]|[bdfh][2468]|[1-9][0-9]?)';
const FIRST_MOVE = new RegExp(`^(?:[0-9]+\\.(?:\\.\\.)?\\s*)?${SQUARE}(?:[-x:]${SQUARE})+(?![A-Za-z0-9])`);
const NUMBERED_MOVE = new RegExp(`^[0-9]+\\.(?:\\.\\.)?\\s*${SQUARE}(?:[-x:]${SQUARE})+(?![A-Za-z0-9])`);

/** How many games of the sniffed bytes detection looks at, when the first ones say nothing. */
const SNIFF_GAMES = 8;

/**
 * A PDN draughts file starts (after blank space and comments) with tag pairs `[Name "value"]`
 * followed by draughts move text (a move between dark squares or numbered squares, `1. c3-d4`,
 * `1. 32-28`), or naming a GameType or a draughts FEN; or, without tags, with numbered draughts
 * move text (`1. c3-d4`). A game whose moves say nothing (a database's `1. - - 2. - -` for a game
 * whose moves were never written) leaves it to the next games within the sniffed bytes. Chess PGN
 * (`1. e4`, `1. e2-e4` between light squares) is not claimed.
 */
export function looksLikePdn(file: UploadedFile): boolean {
  try {
    const head = file.bytes.subarray(0, SNIFF_BYTES).toString('utf8').replace(/^\uFEFF/, '');
    const start = head.slice(LEADING_COMMENTS.exec(head)![0].length);
    if (TAGS.exec(start) === null) return NUMBERED_MOVE.test(start);
    let game = start;
    for (let games = 0; games < SNIFF_GAMES; games++) {
      const tags = TAGS.exec(game)?.[0];
      if (tags === undefined) return false;
      if (GAME_TYPE.test(tags) || DRAUGHTS_FEN.test(tags)) return true;
      const moves = game.slice(tags.length);
      if (FIRST_MOVE.test(moves.slice(LEADING_COMMENTS.exec(moves)![0].length))) return true;
      // The next game: its tags at the start of a later line.
      const next = /[\r\n]\[[A-Za-z]/.exec(moves);
      if (next === null) return false;
      game = moves.slice(next.index + 1);
    }
    return false;
  } catch {
    return false;
  }
}
