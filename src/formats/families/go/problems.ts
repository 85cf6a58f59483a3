import type { GoIllegal } from '../../../rules/go/illegal.js';
import type { Problem } from '../../plugin.js';

/** Each Go rule in words; typed by the engine's list, so a new code cannot go without its text. */
const GO_RULE_TEXT: Readonly<Record<GoIllegal, string>> = {
  off_board: 'the point is off the board',
  occupied: 'the point is occupied',
  suicide: 'it is suicide (its group would have no liberty)',
  ko: 'it retakes a ko at once (simple ko)',
};

/** An illegal Go move; `where` names it in the format's words (`ply 7 (black x=3 y=4)`). */
export function goIllegalMove(reason: GoIllegal, ply: number, where: string): Problem {
  return { code: `go.${reason}`, ply, message: `${where}: illegal move, ${GO_RULE_TEXT[reason]}` };
}
