import { DotsGame, IllegalReason, Surround } from '../../../rules/dots/index.js';
import type { CodeToken } from './read.js';
import { cellCode } from './notation.js';
import { recordText } from './record-text.js';

export interface VkField {
  readonly width: number;
  readonly height: number;
  readonly extraMove: boolean;
}

/** One dot of the code after replay. */
export interface ReplayedMove {
  /** 1-based number of the dot in the code (stops are not counted). */
  readonly ply: number;
  readonly seat: number;
  readonly text: string;
  /** Why the move is illegal; an illegal move places nothing. */
  readonly illegal?: IllegalReason;
  readonly surrounds: readonly Surround[];
  /** The record the replay writes after this move, or '' when it surrounds nothing. */
  readonly record: string;
  /** The record the file writes, or '' when it has none. */
  readonly written: string;
  readonly scores: readonly number[];
}

export interface VkReplay {
  readonly moves: readonly ReplayedMove[];
  readonly scores: readonly number[];
  /** Seat that wrote `0f`/`0s` first, and after how many dots. */
  readonly stops: readonly { readonly seat: number; readonly afterPly: number; readonly text: string }[];
  /** The code with every record regenerated. */
  readonly code: string;
}

/**
 * Replays a parsed code: red (seat 0) first, strictly alternating unless the extra-move flag is
 * set; after `0f`/`0s` the other player makes every later move. Records are regenerated from the
 * bare moves; the written ones are only compared.
 */
export function replayGameCode(tokens: readonly CodeToken[], field: VkField): VkReplay {
  const game = new DotsGame({ width: field.width, height: field.height, players: 2, extraMove: field.extraMove });
  const moves: ReplayedMove[] = [];
  const stops: { seat: number; afterPly: number; text: string }[] = [];
  const code: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'stop') {
      game.stop(token.seat);
      stops.push({ seat: token.seat, afterPly: moves.length, text: token.text });
      code.push(token.text);
      continue;
    }
    const outcome = game.play(token.row - 1, token.col - 1);
    const written = token.record?.text ?? '';
    if (!outcome.legal) {
      moves.push({ ply: moves.length + 1, seat: outcome.player, text: token.text, illegal: outcome.reason, surrounds: [], record: '', written, scores: outcome.scores });
      code.push(token.text);
      continue;
    }
    const record = outcome.surrounds.length > 0 ? recordText(outcome.surrounds, outcome.scores) : '';
    moves.push({ ply: moves.length + 1, seat: outcome.player, text: token.text, surrounds: outcome.surrounds, record, written, scores: outcome.scores });
    code.push(token.text, record);
  }
  return { moves, scores: game.scores, stops, code: code.join('') };
}

export { cellCode };
