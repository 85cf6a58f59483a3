import { DotsGame } from '../../../rules/dots/index.js';
import type { DotsEnd, IllegalReason, Surround } from '../../../rules/dots/index.js';
import { FormatError } from '../../../core/errors.js';
import type { Transcript } from '../../families/dots/transcript.js';

export interface ReplayedMove {
  /** 1-based among the dots. */
  readonly ply: number;
  readonly seat: number;
  readonly x: number;
  readonly y: number;
  readonly illegal?: IllegalReason;
  readonly surrounds: readonly Surround[];
  readonly scores: readonly number[];
}

export interface TranscriptReplay {
  readonly moves: readonly ReplayedMove[];
  /** Captures by surround, per seat. */
  readonly captures: readonly number[];
  /** How the rules see the end after the last event (null: the game could go on). */
  readonly ending: DotsEnd | null;
  /** The seat left alone when the ending is `last_player`, and the dots it can still surround. */
  readonly lastPlayer: { readonly seat: number; readonly surroundable: number } | null;
  /** The final score: captures, plus the last player's surroundable dots. */
  readonly scores: readonly number[];
}

/**
 * Replays a transcript with the rules engine under the options it states. The transcript names
 * who moved: a move by a seat that does not have the turn, or a stop of a seat already stopped,
 * is refused as a malformed transcript (the server never writes either). An illegal dot is
 * replayed as the engine does (it uses the turn, places nothing) and reported by the caller.
 */
export function replayTranscript(t: Transcript): TranscriptReplay {
  const engine = new DotsGame({ width: t.width, height: t.height, players: t.players.length, extraMove: t.extraMove, centralStart: t.centralStart });
  const moves: ReplayedMove[] = [];
  t.events.forEach((event, index) => {
    const where = `event ${index + 1}`;
    if (engine.ending() !== null) throw new FormatError(`${where}: the game had already ended under the rules (${engine.ending()})`);
    if (event.kind === 'stop') {
      if (engine.isStopped(event.seat)) throw new FormatError(`${where}: player ${event.seat + 1} has already stopped`);
      engine.stop(event.seat);
      return;
    }
    if (engine.toMove !== event.seat) {
      throw new FormatError(`${where}: player ${event.seat + 1} moves, but it is player ${engine.toMove + 1}'s turn`);
    }
    const outcome = engine.play(event.y, event.x);
    moves.push({
      ply: moves.length + 1,
      seat: event.seat,
      x: event.x,
      y: event.y,
      illegal: outcome.legal ? undefined : outcome.reason,
      surrounds: outcome.legal ? outcome.surrounds : [],
      scores: outcome.scores,
    });
  });
  return { moves, captures: engine.scores, ending: engine.ending(), ...engine.finalScore() };
}
