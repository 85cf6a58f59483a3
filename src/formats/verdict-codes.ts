/**
 * The stable, machine-readable codes a verdict's problems carry (`Problem.code`). Three kinds, told
 * apart by the part before the dot:
 *
 * - `<family>.<rule>` (`go.`, `dots.`, `checkers.`, `peg.`): an illegal move; the verdict is not
 *   `legal`. The rule part is the rules engine's own reason code, taken from the engine's list, so
 *   the two cannot drift apart.
 * - `move.<what>`: a move the record writes but the plugin cannot turn into one definite move (its
 *   notation is unreadable, or fits several moves); the verdict is not `legal` (no move can be
 *   judged there) and the replay stops at it.
 * - `cache.<value>`: a value the file caches disagrees with the one the replay regenerates; the
 *   verdict is not `consistent`. One code per kind of cached value, shared by every format that
 *   caches it.
 * - `note.<what>`: worth knowing, but neither flag changes (a broken convention, moves left unread).
 *
 * Codes are never renamed or removed; new ones are added at the end of their group.
 */
import { CHECKERS_ILLEGAL } from '../rules/checkers/illegal.js';
import { DOTS_ILLEGAL } from '../rules/dots/illegal.js';
import { GO_ILLEGAL } from '../rules/go/illegal.js';
import { PEG_ILLEGAL } from '../rules/peg-solitaire/illegal.js';

function prefixed<P extends string, C extends string>(prefix: P, codes: readonly C[]): `${P}.${C}`[] {
  return codes.map((code) => `${prefix}.${code}` as `${P}.${C}`);
}

export const GO_PROBLEM_CODES = prefixed('go', GO_ILLEGAL);
export const DOTS_PROBLEM_CODES = prefixed('dots', DOTS_ILLEGAL);
export const CHECKERS_PROBLEM_CODES = prefixed('checkers', CHECKERS_ILLEGAL);
export const PEG_PROBLEM_CODES = prefixed('peg', PEG_ILLEGAL);

/**
 * Cached values a file holds and the replay regenerates:
 * - `cache.points`: a player's points or score (GoFans `points`, a VK record's score, Dots server `SCR`);
 * - `cache.removes`: the stones a move takes off (GoFans 2.x `<removes>`);
 * - `cache.surrounds`: the surrounds a move makes or a board shows (VK surround records, Dots server
 *   points marked surrounded);
 * - `cache.pieces`: which piece a move's number names and whether it is captured (BARS piece codes
 *   and capture flags);
 * - `cache.result`: the result a record states (PDN `Result`) against the one the rules establish,
 *   or against another statement of it in the same record.
 */
export const CACHE_PROBLEM_CODES = ['cache.points', 'cache.removes', 'cache.surrounds', 'cache.pieces', 'cache.result'] as const;

/**
 * Moves that cannot be judged:
 * - `move.unreadable`: a token where a move belongs that names no move in the format's notation
 *   (PDN `-` placeholders, garbage);
 * - `move.ambiguous`: a move written so briefly (PDN start and end of a capture) that several legal
 *   moves with different results fit it.
 */
export const MOVE_PROBLEM_CODES = ['move.unreadable', 'move.ambiguous'] as const;

/**
 * Remarks that change neither flag:
 * - `note.resigned_without_pass`: a player marked resigned whose last move is not the pass the
 *   format writes for a resignation (GoFans);
 * - `note.not_replayed`: moves after an illegal move that were not replayed, the position being
 *   unknown from there on (BARS);
 * - `note.charset`: the file's text could not be read exactly as it declares: a charset (SGF `CA`)
 *   the archive cannot decode, or bytes that are not text in the declared charset (read with
 *   replacement characters).
 */
export const NOTE_PROBLEM_CODES = ['note.resigned_without_pass', 'note.not_replayed', 'note.charset'] as const;

export type IllegalMoveCode =
  | (typeof GO_PROBLEM_CODES)[number]
  | (typeof DOTS_PROBLEM_CODES)[number]
  | (typeof CHECKERS_PROBLEM_CODES)[number]
  | (typeof PEG_PROBLEM_CODES)[number];
export type MoveProblemCode = (typeof MOVE_PROBLEM_CODES)[number];
export type CacheProblemCode = (typeof CACHE_PROBLEM_CODES)[number];
export type NoteProblemCode = (typeof NOTE_PROBLEM_CODES)[number];

export type VerdictProblemCode = IllegalMoveCode | MoveProblemCode | CacheProblemCode | NoteProblemCode;

/** Every code a verdict problem may carry, grouped: illegal moves by family, unjudgeable moves, cache, notes. */
export const VERDICT_PROBLEM_CODES: readonly VerdictProblemCode[] = Object.freeze([
  ...GO_PROBLEM_CODES,
  ...DOTS_PROBLEM_CODES,
  ...CHECKERS_PROBLEM_CODES,
  ...PEG_PROBLEM_CODES,
  ...MOVE_PROBLEM_CODES,
  ...CACHE_PROBLEM_CODES,
  ...NOTE_PROBLEM_CODES,
]);

export function isVerdictProblemCode(value: string): value is VerdictProblemCode {
  return (VERDICT_PROBLEM_CODES as readonly string[]).includes(value);
}
