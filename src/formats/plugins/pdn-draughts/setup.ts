import type { JsonValue } from '../../plugin.js';
import { Position } from '../../../rules/checkers/position.js';
import type { Colour } from '../../../rules/checkers/pieces.js';
import type { Line, PdnGame } from './model.js';
import { NUMBERED_SQUARES, largestSquareNumber, positionFromFen } from './notation.js';

/** PDN's number for Russian draughts in the GameType tag. */
export const RUSSIAN_GAME_TYPE = 25;

/** What the tags say about the game before any move: the start, the players, the facts. */
export interface GameSetup {
  readonly start: Position;
  readonly names: Readonly<Record<Colour, string | null>>;
  /** The players' ratings as the WhiteRating and BlackRating tags write them (null where none says anything). */
  readonly ratings: Readonly<Record<Colour, string | null>>;
  readonly datePlayed: string | null;
  readonly event: string | null;
  readonly details: Readonly<Record<string, JsonValue>>;
}

/**
 * Why the game is not Russian draughts, or null when it is: GameType 25, or no GameType and move
 * squares numbered at most 32 (PDN's default GameType is 20, International draughts on 10x10, whose
 * squares run to 50; files of Russian games commonly leave the tag out).
 */
export function otherVariant(game: PdnGame): string | null {
  const gameType = game.tags.find((tag) => tag.name === 'GameType')?.value;
  if (gameType !== undefined) {
    const type = gameType.split(',')[0].trim();
    if (type !== String(RUSSIAN_GAME_TYPE)) return `GameType "${gameType}" is not Russian draughts (25), the only PDN variant this archive replays: stored verbatim, not indexed`;
    const [width, height] = gameType.split(',').slice(2, 4).map((field) => field.trim());
    if ((width !== undefined && width !== '8') || (height !== undefined && height !== '8')) {
      return `GameType "${gameType}" names a ${width}x${height} board, not the 8x8 of Russian draughts: stored verbatim, not indexed`;
    }
    return null;
  }
  const largest = Math.max(0, ...allMoves(game.main).map(largestSquareNumber));
  if (largest > NUMBERED_SQUARES) {
    return `no GameType and a move to square ${largest}: a 10x10 game (PDN's default, International draughts), which this archive does not replay: stored verbatim, not indexed`;
  }
  return null;
}

function allMoves(line: Line): string[] {
  return line.moves.flatMap((move) => [move.text, ...move.variations.flatMap(allMoves)]);
}

export function gameSetup(game: PdnGame, text: string): GameSetup {
  const tag = (name: string) => game.tags.find((t) => t.name === name);
  const fen = tag('FEN');
  const start = fen ? positionFromFen(fen.value, text, fen.valueOffset) : Position.initial();
  const tags: Record<string, string> = {};
  for (const t of game.tags) tags[t.name] = t.value;
  const date = tag('Date')?.value;
  const parsed = date === undefined ? { day: null, year: null } : readDate(date);
  return {
    start,
    names: { white: known(tag('White')?.value), black: known(tag('Black')?.value) },
    ratings: { white: known(tag('WhiteRating')?.value), black: known(tag('BlackRating')?.value) },
    datePlayed: parsed.day,
    event: known(tag('Event')?.value),
    details: {
      tags,
      start: fen ? 'fen' : 'standard',
      firstToMove: start.toMove,
      year: parsed.year,
      site: known(tag('Site')?.value),
      round: known(tag('Round')?.value),
      whiteRating: rating(tag('WhiteRating')?.value),
      blackRating: rating(tag('BlackRating')?.value),
    },
  };
}

/** A tag value that says something: not empty, not PDN's `?` for unknown. */
export function known(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || /^\?+$/.test(trimmed) ? null : trimmed;
}

export function rating(value: string | undefined): number | null {
  const trimmed = value?.trim() ?? '';
  return /^[0-9]{1,5}$/.test(trimmed) ? Number(trimmed) : null;
}

/**
 * The day a Date tag names, as `YYYY-MM-DD`, when all three parts are known and make a real day;
 * its year whenever that is known. PDN writes `YYYY.MM.DD` with `?` for unknown digits
 * (`1973.??.??`); some programs write `D.M.YYYY` (`10.11.1968`), and a year alone (`1950.`).
 */
export function readDate(value: string): { day: string | null; year: number | null } {
  const { year, month, day } = readDateParts(value);
  if (year === null || month === null || day === null) return { day: null, year };
  const real = new Date(Date.UTC(year, month - 1, day));
  if (real.getUTCFullYear() !== year || real.getUTCMonth() !== month - 1 || real.getUTCDate() !== day) return { day: null, year };
  return { day: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, year };
}

/** The parts of a Date tag that are known (in the forms {@link readDate} takes), each null when unknown. */
export function readDateParts(value: string): { year: number | null; month: number | null; day: number | null } {
  const parts = value.trim().replace(/\.$/, '').split('.');
  let [year, month, day]: (string | undefined)[] = [];
  if (parts.length === 3 && /^[0-9?]{4}$/.test(parts[0])) [year, month, day] = parts;
  else if (parts.length === 3 && /^[0-9]{4}$/.test(parts[2])) [day, month, year] = parts;
  else if (parts.length === 1 && /^[0-9?]{4}$/.test(parts[0])) [year] = parts;
  const number = (part: string | undefined, pattern: RegExp, low: number, high: number): number | null => {
    if (part === undefined || !pattern.test(part)) return null;
    const n = Number(part);
    return n >= low && n <= high ? n : null;
  };
  return { year: number(year, /^[0-9]{4}$/, 0, 9999), month: number(month, /^[0-9]{1,2}$/, 1, 12), day: number(day, /^[0-9]{1,2}$/, 1, 31) };
}
