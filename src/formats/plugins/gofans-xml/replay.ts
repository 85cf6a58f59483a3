import type { AreaScore, GoPosition, IllegalReason } from '../../../rules/go/index.js';
import { replayGoGame } from '../../families/go/index.js';
import type { GoFansGame, GoFansMove, GoFansPoint } from './model.js';

/** What replaying one move gave. */
export interface ReplayedGoFansMove {
  readonly move: GoFansMove;
  readonly ply: number;
  /** 0 = main line, then variations numbered depth-first. */
  readonly line: number;
  readonly illegal: IllegalReason | null;
  /** Removes as regenerated: the stones the move captured, sorted by y then x. */
  readonly removes: readonly GoFansPoint[];
}

export interface GoFansReplay {
  readonly moves: readonly ReplayedGoFansMove[];
  /** The main line, in order. */
  readonly mainLine: readonly ReplayedGoFansMove[];
  readonly lines: number;
  readonly finalPosition: GoPosition;
  readonly area: AreaScore;
  /** Per seat: the colour the player's stones have (first coloured move, else by seat), null if none. */
  readonly colors: readonly ('black' | 'white' | null)[];
  /** Per seat: Points as the archive regenerates them (area, + komi for white; -1 kept for resigned). */
  readonly points: readonly (number | null)[];
}

/** Replays every line of the game tree and regenerates Removes and Points. */
export function replayGoFans(game: GoFansGame): GoFansReplay {
  const replay = replayGoGame(game.boardSize, game.roots);
  const moves: ReplayedGoFansMove[] = replay.moves.map((m) => ({ move: m.node, ply: m.ply, line: m.line, illegal: m.illegal, removes: m.captured }));
  const mainLine = moves.filter((m) => m.line === 0);
  const colors = playerColors(game);
  const { lines, finalPosition, area } = replay;
  const points = game.players.map((player, seat) => {
    if (player.points === -1) return -1;
    const color = colors[seat];
    if (color === null) return null;
    return color === 'black' ? area.black : area.white + game.komi;
  });
  return { moves, mainLine, lines, finalPosition, area, colors, points };
}

function playerColors(game: GoFansGame): ('black' | 'white' | null)[] {
  const colors: ('black' | 'white' | null)[] = game.players.map(() => null);
  // Document order (main line first), so a player's colour is that of their first coloured move.
  const stack = [...game.roots].reverse();
  while (stack.length > 0) {
    const move = stack.pop()!;
    if (move.color !== null && colors[move.seat] === null) colors[move.seat] = move.color;
    for (let i = move.children.length - 1; i >= 0; i--) stack.push(move.children[i]);
  }
  // A player who never shows a colour (only passes) gets black as the first seat, white as the
  // second, when the other player does not already have that colour.
  for (let seat = 0; seat < Math.min(2, colors.length); seat++) {
    const fallback = seat === 0 ? 'black' : 'white';
    if (colors[seat] === null && !colors.includes(fallback)) colors[seat] = fallback;
  }
  return colors;
}

export function samePoints(a: readonly GoFansPoint[], b: readonly GoFansPoint[]): boolean {
  if (a.length !== b.length) return false;
  const key = (p: GoFansPoint) => `${p.x},${p.y}`;
  const set = new Set(a.map(key));
  return b.every((p) => set.has(key(p))) && new Set(b.map(key)).size === b.length;
}

export function formatPoint(point: GoFansPoint): string {
  return `${point.x},${point.y}`;
}
