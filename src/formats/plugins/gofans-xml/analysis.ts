import { drawText, endsWithTwoPasses, goCoordinate, goReplayPlies, winText } from '../../families/go/index.js';
import type { GameAnalysis, GameEnding, JsonValue, PlayerEntry, PlayerOutcome, Problem } from '../../plugin.js';
import { goIllegalMove } from '../../families/go/problems.js';
import { outcomesByScore, unfinishedOutcomes } from '../../families/outcome.js';
import { cacheProblem, noteProblem } from '../../families/problem.js';
import { goFansFacts, goFansTexts } from './facts.js';
import { writtenTexts } from '../../families/texts.js';
import type { GoFansGame } from './model.js';
import { GoFansReplay, ReplayedGoFansMove, formatPoint, samePoints } from './replay.js';

/** How the main line ends, as the format defines it. */
export type GameEnd = 'resignation' | 'two passes' | 'none';

/** Index rows, verdict and replay of a replayed GoFans game. */
export function analyseGoFans(game: GoFansGame, replay: GoFansReplay, withReplay = true, ratings: ReadonlyMap<number, string> = new Map()): GameAnalysis {
  const problems: Problem[] = [];
  let legal = true;
  let consistent = true;

  for (const m of replay.moves) {
    if (m.illegal !== null) {
      legal = false;
      problems.push(goIllegalMove(m.illegal, m.ply, where(m)));
    }
    if (m.move.removes !== null && !samePoints(m.move.removes, m.removes)) {
      consistent = false;
      problems.push(
        cacheProblem(
          'cache.removes',
          m.ply,
          `${where(m)}: the file removes [${m.move.removes.map(formatPoint).join(' ')}], the replay removes [${m.removes.map(formatPoint).join(' ')}]`,
        ),
      );
    }
  }

  const resigned = game.players.filter((p) => p.points === -1);
  for (const player of resigned) {
    const last = [...replay.mainLine].reverse().find((m) => m.move.seat === player.seat);
    // Reported, but neither flag changes: -1 is the value the archive keeps for a resigned player,
    // and the missing formal pass breaks the format's convention, not the rules or a cached value.
    if (last && last.move.point !== null) {
      problems.push(
        noteProblem(
          'note.resigned_without_pass',
          last.ply,
          `player ${player.id} (${player.name}) is marked resigned (points -1) but their last move, ${where(last)}, is not a pass`,
        ),
      );
    }
  }

  const end = gameEnd(game, replay);
  const outcomes = goOutcomes(game, end);
  const players: PlayerEntry[] = game.players.map((player, seat) => {
    const regenerated = replay.points[seat];
    if (regenerated !== null && Math.abs(regenerated - player.points) > 1e-9) {
      consistent = false;
      problems.push(
        cacheProblem(
          'cache.points',
          null,
          `player ${player.id} (${player.name}): points ${player.pointsText} in the file, ${regenerated} regenerated (${pointsBasis(game, replay, seat)})`,
        ),
      );
    }
    return {
      seat,
      name: player.name,
      externalId: player.id,
      rating: ratings.get(seat) ?? null,
      color: replay.colors[seat],
      declaredPoints: player.points,
      points: regenerated,
      captures: 0,
      outcome: outcomes[seat],
    };
  });

  const { plies, captures } = goReplayPlies(
    replay.mainLine,
    (m) => ({ ply: m.ply, seat: m.move.seat, color: m.move.color, point: m.move.point, captured: m.removes, illegal: m.illegal, m }),
    { seats: game.players.length, height: game.boardSize },
    // GoFans writes points as attributes only: the replay names them as players do (`B9`, `Q16`).
    (point) => goCoordinate(point, game.boardSize) ?? formatPoint(point),
    ({ m }) => (m.move.removes === null ? undefined : { fileRemoves: m.move.removes.map((p) => ({ x: p.x, y: p.y })) }),
    withReplay,
  );

  const passes = replay.mainLine.filter((m) => m.move.point === null).length;
  const details: Record<string, JsonValue> = {
    boardSize: game.boardSize,
    komi: game.komi,
    passes,
    end,
    header: { ...game.headerFields },
    areaScore: { black: replay.area.black, white: replay.area.white, neutral: replay.area.neutral },
    variations: replay.lines - 1 < 0 ? 0 : replay.lines - 1,
    treeMoves: replay.moves.length,
  };
  return {
    players: players.map((p, seat) => ({ ...p, captures: captures[seat] })),
    moveCount: replay.mainLine.length,
    result: resultText(game, replay, end),
    verdict: { legal, consistent, problems },
    facts: { ...goFansFacts(game), ...recordedEnding(game, end) },
    details,
    replay: plies,
    texts: writtenTexts(goFansTexts(game)),
  };
}

/**
 * How the recorded result came about, in the facts' terms: a resignation (Points -1), or the
 * declared score after two passes (margin: the best Points over the next best; equal, a draw).
 */
function recordedEnding(game: GoFansGame, end: GameEnd): { ending: GameEnding | null; margin: number | null } {
  if (end === 'resignation') return { ending: 'resignation', margin: null };
  const points = game.players.map((p) => p.points).sort((a, b) => b - a);
  if (end !== 'two passes' || points.every((p) => p === 0) || points.length < 2) return { ending: null, margin: null };
  const margin = points[0] - points[1];
  return margin === 0 ? { ending: 'draw', margin: 0 } : { ending: 'score', margin };
}

function where(m: ReplayedGoFansMove): string {
  const move = m.move.point === null ? 'pass' : `${m.move.color ?? ''} x=${m.move.point.x} y=${m.move.point.y}`.trim();
  return `${m.line === 0 ? '' : `variation ${m.line}, `}ply ${m.ply} (${move})`;
}

function pointsBasis(game: GoFansGame, replay: GoFansReplay, seat: number): string {
  const color = replay.colors[seat];
  if (color === 'black') return `black area ${replay.area.black}`;
  return `white area ${replay.area.white} + komi ${game.komiText ?? '0'}`;
}

export function gameEnd(game: GoFansGame, replay: GoFansReplay): GameEnd {
  if (game.players.some((p) => p.points === -1)) return 'resignation';
  return endsWithTwoPasses(replay.mainLine.map((m) => m.move)) ? 'two passes' : 'none';
}

/**
 * Each player's outcome as the file records it; the area count of the replay (no dead stones
 * removed) never decides. A resignation (Points -1): the resigned lost, and the one player still
 * standing won (several still standing: they stay `unfinished`). Two passes: the declared Points are
 * the recorded score (highest won, equal drawn), unless every player has 0, which records no score
 * (`unfinished`). No end: `unfinished`. Legality does not change this (the file's record stands).
 */
export function goOutcomes(game: GoFansGame, end: GameEnd): PlayerOutcome[] {
  const points = game.players.map((p) => p.points);
  if (end === 'resignation') {
    const standing = points.filter((p) => p !== -1).length;
    return points.map((p) => (p === -1 ? 'lost' : standing === 1 ? 'won' : 'unfinished'));
  }
  if (end === 'two passes' && points.some((p) => p !== 0)) return outcomesByScore(points);
  return unfinishedOutcomes(points.length);
}

function resultText(game: GoFansGame, replay: GoFansReplay, end: GameEnd): string | null {
  if (end === 'resignation') {
    return game.players
      .filter((p) => p.points === -1)
      .map((p) => `${p.name || `player ${p.id}`}${replay.colors[p.seat] ? ` (${replay.colors[p.seat]})` : ''} resigned`)
      .join(', ');
  }
  if (end === 'none') return null;
  const margin = replay.area.black - (replay.area.white + game.komi);
  if (Math.abs(margin) < 1e-9) return drawText('equal area score');
  return winText(margin > 0 ? 'black' : 'white', { how: 'score', margin: Math.abs(margin), basis: `area score${game.komi !== 0 ? ', komi included' : ''}` });
}
