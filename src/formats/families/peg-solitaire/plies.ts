import type { PlayedJump } from '../../../rules/peg-solitaire/play.js';
import type { ReplayPly } from '../../plugin.js';
import { jumpName, slotName } from './notation.js';
import type { PegPlyDetails } from './ply-details.js';

export type { PegPlyDetails } from './ply-details.js';

/** The replay row of the `index`-th (0-based) jump of a solution: no player, the running total as its score. */
export function pegReplayPly(jump: PlayedJump, index: number): ReplayPly {
  const details: PegPlyDetails = {
    from: { x: jump.from.x, y: jump.from.y },
    over: { x: jump.over.x, y: jump.over.y },
    to: { x: jump.to.x, y: jump.to.y },
    stone: jump.stone,
    capturedStone: jump.captured,
    points: jump.points,
    stonesLeft: jump.stonesLeft,
  };
  return { ply: index + 1, player: null, move: jumpName(jump.from, jump.to), captured: [slotName(jump.over)], score: [jump.total], details };
}

/** The details of a replayed jump, read as written (absent fields stay absent). */
export function pegPlyDetails(ply: Pick<ReplayPly, 'details'>): Partial<PegPlyDetails> {
  return (ply.details ?? {}) as Partial<PegPlyDetails>;
}
