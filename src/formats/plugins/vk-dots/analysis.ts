import type { GameAnalysis, JsonValue, PlayerEntry, Problem, ReplayPly } from '../../plugin.js';
import { dotsReplayPly, dotsResultText, surroundingMoves } from '../../families/dots/index.js';
import type { CodeToken, WrittenRecord } from './read.js';
import { cellCode } from './notation.js';
import type { VkReplay } from './replay.js';
import type { VkSource } from './model.js';
import { dotsIllegalMove, dotsOutcomes, surroundRecordProblem } from '../../families/dots/problems.js';

/** VK's two players by seat: red moves first, blue second. */
export const VK_COLOURS = ['red', 'blue'] as const;

/** Index rows, verdict and replay plies of a replayed VK upload. */
export function analyse(source: VkSource, tokens: readonly CodeToken[], replay: VkReplay, field: { width: number; height: number }): GameAnalysis {
  const problems: Problem[] = [];
  let legal = true;
  let consistent = true;
  for (const move of replay.moves) {
    const who = `${VK_COLOURS[move.seat]} ${move.text}`;
    if (move.illegal !== undefined) {
      legal = false;
      problems.push(dotsIllegalMove(move.illegal, move.ply, who));
    }
    const mismatch = surroundRecordProblem(move.ply, who, move.written, move.record);
    if (mismatch === null) continue;
    consistent = false;
    problems.push(mismatch);
  }
  const lastWritten = lastRecord(tokens);
  const names = source.kind === 'save' ? [source.red, source.blue] : [null, null];
  // The game is over once a player wrote 0f/0s (the other made the final moves): the replayed score decides.
  const outcomes = dotsOutcomes(replay.scores, replay.stops.length > 0);
  const players: PlayerEntry[] = [0, 1].map((seat) => ({
    seat,
    name: names[seat]?.name ?? null,
    externalId: names[seat]?.vkId ?? null,
    color: VK_COLOURS[seat],
    declaredPoints: lastWritten?.score[seat] ?? null,
    points: replay.scores[seat],
    captures: replay.scores[seat],
    outcome: outcomes[seat],
  }));
  const stop = replay.stops[0];
  const details: Record<string, JsonValue> = {
    field: { width: field.width, height: field.height },
    moves: replay.moves.length,
    surrounds: surroundingMoves(replay.moves),
    endedBy: stop === undefined ? null : VK_COLOURS[stop.seat],
    endedAfterMove: stop === undefined ? null : stop.afterPly,
    score: [...replay.scores],
    declaredScore: lastWritten === undefined ? null : [...lastWritten.score],
  };
  if (source.kind === 'save') {
    details.flags = { extraMove: source.flags.extraMove, fieldSize: source.flags.fieldSize, crossStart: source.flags.crossStart };
  }
  return {
    players,
    moveCount: replay.moves.length,
    result: stop === undefined ? null : dotsResultText(VK_COLOURS, { kind: 'ended', seat: stop.seat }, replay.scores),
    verdict: { legal, consistent, problems },
    // The real sizes of the app's s/m/b fields are unknown and the 35x35 replay field is the
    // archive's choice, not the game's; a VK file records no date, event or rules.
    facts: { boardWidth: null, boardHeight: null, datePlayed: null, event: null, rules: null },
    details,
    replay: replay.moves.map(
      (move): ReplayPly =>
        dotsReplayPly(
          {
            ply: move.ply,
            seat: move.seat,
            move: move.text,
            row: parseInt(move.text[0], 36),
            col: parseInt(move.text[1], 36),
            // VK codes count rows and columns from 1.
            cell: { row: parseInt(move.text[0], 36) - 1, col: parseInt(move.text[1], 36) - 1 },
            illegal: move.illegal,
            surrounds: move.surrounds,
            scores: move.scores,
            surroundExtras: { record: move.record },
          },
          cellCode,
        ),
    ),
  };
}

function lastRecord(tokens: readonly CodeToken[]): WrittenRecord | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token.kind === 'move' && token.record !== undefined) return token.record;
  }
  return undefined;
}
