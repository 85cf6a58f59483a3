import type { Problem } from '../plugin.js';
import type { CacheProblemCode, MoveProblemCode, NoteProblemCode } from '../verdict-codes.js';

/**
 * Builders for the problems that are not illegal moves, so that every plugin attaches a code from
 * the same list. Illegal moves are built by the family modules beside this file (`go.ts`,
 * `dots.ts`, `checkers.ts`), which turn an engine's reason into the family's code and words.
 */

/** A value the file caches disagrees with the replay's: the verdict is not consistent. */
export function cacheProblem(code: CacheProblemCode, ply: number | null, message: string): Problem {
  return { code, ply, message };
}

/** A move that cannot be judged (unreadable, ambiguous): the verdict is not legal. */
export function moveProblem(code: MoveProblemCode, ply: number, message: string): Problem {
  return { code, ply, message };
}

/** A remark that changes neither `legal` nor `consistent`. */
export function noteProblem(code: NoteProblemCode, ply: number | null, message: string): Problem {
  return { code, ply, message };
}

/** Problems in ply order (whole-file problems, ply null, first); the order within one ply is kept. */
export function byPly(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => (a.ply ?? 0) - (b.ply ?? 0));
}
