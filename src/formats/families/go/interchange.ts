import type { InterchangeGame } from '../../plugin.js';
import type { GoPoint } from './replay.js';
import type { GoColor, GoResult } from './result.js';

/**
 * A Go game in plain terms, the common ground of GoFans XML and SGF: what either format can say,
 * without notation. Points are the rules engine's: 0-based column `x` and row `y` from the top left.
 * Caches (GoFans Points and Removes) are not in it: a writer regenerates them by replaying the moves.
 * Annotations (SGF comments, markup, node names) are not in it either: no conversion carries them.
 */
export interface GoInterchangeGame extends InterchangeGame {
  readonly family: 'go';
  readonly boardWidth: number;
  readonly boardHeight: number;
  /** Komi in points; null when the file gives none or gives text that is not a number (see `komiText`). */
  readonly komi: number | null;
  /** Komi as written, when the file writes one. */
  readonly komiText: string | null;
  /** Handicap as the file states it (SGF `HA`); null when it does not. The stones themselves are `setup`. */
  readonly handicap: number | null;
  /** In the source's order: SGF's black then white; GoFans' `<players>` order. */
  readonly players: readonly GoInterchangePlayer[];
  /** Stones set up before the first move (handicap stones…). */
  readonly setup: readonly GoInterchangeSetupPoint[];
  /** First moves of the tree: the first starts the main line, the others are alternatives to it. */
  readonly moves: readonly GoInterchangeMove[];
  /** The result as the file records it (not as a count of the final position would give it); null when none. */
  readonly result: GoResult | null;
  /** The result as written (SGF `RE`, GoFans `<result>`), when written. */
  readonly resultText: string | null;
  /**
   * Further game information, by the family's names, in the source's order: `event`, `date` (as
   * written), `place`, `rules`, `round`, `gameName`, `source`, `annotator`, `copyright`, `user`,
   * `timeLimit`, `overtime`, `opening`, `gameComment`; a GoFans Header element of another name
   * keeps its own name.
   */
  readonly info: Readonly<Record<string, string>>;
}

export interface GoInterchangePlayer {
  /** The colour the player's stones have; null when the file shows none (GoFans: a player who never plays). */
  readonly color: GoColor | null;
  readonly name: string | null;
  /** The player's id in the source (GoFans `id`); null where the format has none (SGF). */
  readonly id: string | null;
  /** Rating or rank as written (`5d`, `2100`). */
  readonly rating: string | null;
  readonly team: string | null;
}

export interface GoInterchangeMove {
  /** Index of the player in `players`. */
  readonly player: number;
  /** The stone's colour; for a pass the player's colour, null when the player has none. */
  readonly color: GoColor | null;
  /** null for a pass. */
  readonly point: GoPoint | null;
  /** Points set up just before the move (SGF setup in a node without a move); absent when none. */
  readonly setup?: readonly GoInterchangeSetupPoint[];
  /** The moves after this one: the first continues the line, the others are variations. */
  readonly next: readonly GoInterchangeMove[];
}

export interface GoInterchangeSetupPoint {
  readonly x: number;
  readonly y: number;
  /** What the point holds afterwards. */
  readonly cell: GoColor | 'empty';
}

/** Every move of the tree, depth-first in document order (main line first at each branch), iteratively. */
export function* interchangeMoves(game: GoInterchangeGame): Generator<{ move: GoInterchangeMove; ply: number }> {
  const stack = [...game.moves].reverse().map((move) => ({ move, ply: 1 }));
  while (stack.length > 0) {
    const item = stack.pop()!;
    yield item;
    for (let i = item.move.next.length - 1; i >= 0; i--) stack.push({ move: item.move.next[i], ply: item.ply + 1 });
  }
}

/** Lines besides the main line: every alternative at a branch (and every first move after the first) starts one. */
export function countVariations(game: GoInterchangeGame): number {
  let variations = Math.max(0, game.moves.length - 1);
  for (const { move } of interchangeMoves(game)) variations += Math.max(0, move.next.length - 1);
  return variations;
}

/** Set-up points of the game: before the first move and inside the tree. */
export function interchangeSetupCount(game: GoInterchangeGame): number {
  let count = game.setup.length;
  for (const { move } of interchangeMoves(game)) count += move.setup?.length ?? 0;
  return count;
}

/** The game with its main line only (each move's first follow-up); for flat formats when the caller asks for it. */
export function withoutVariations(game: GoInterchangeGame): GoInterchangeGame {
  const line: GoInterchangeMove[] = [];
  for (let move = game.moves[0]; move !== undefined; move = move.next[0]) line.push(move);
  let next: GoInterchangeMove[] = [];
  for (let i = line.length - 1; i >= 0; i--) next = [{ ...line[i], next }];
  return { ...game, moves: next };
}

/** A format's move tree as interchange moves, iteratively (a tree may be thousands of moves deep). */
export function interchangeTree<N extends { readonly children: readonly N[] }>(
  roots: readonly N[],
  move: (node: N) => Omit<GoInterchangeMove, 'next'>,
): GoInterchangeMove[] {
  const top: GoInterchangeMove[] = [];
  const stack = [...roots].reverse().map((node) => ({ node, into: top }));
  while (stack.length > 0) {
    const { node, into } = stack.pop()!;
    const built: GoInterchangeMove & { next: GoInterchangeMove[] } = { ...move(node), next: [] };
    into.push(built);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i], into: built.next });
  }
  return top;
}
