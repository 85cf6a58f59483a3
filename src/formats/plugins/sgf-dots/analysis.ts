import { SGF_PLAYER_COLOURS } from '../../syntaxes/sgf/index.js';
import type { GameAnalysis, GameFacts, JsonValue, PlayerEntry, PlayerOutcome, Problem, ReplayPly } from '../../plugin.js';
import { dotsReplayPly, dotsResultText, dotsScoreText, surroundingMoves } from '../../families/dots/index.js';
import type { DotsEnding } from '../../families/dots/index.js';
import { declaredResultProblem, dotsIllegalMove, dotsOutcomes, writtenChainsProblem } from '../../families/dots/problems.js';
import { byPly } from '../../families/problem.js';
import { sgfChain } from './chains.js';
import type { Cell } from '../../../rules/dots/index.js';
import type { SgfDotsGame } from './model.js';
import { parseResult, pointName, scoreResult, SgfResult, writeMoveValue } from './notation.js';
import type { SgfReplay, SgfReplayedPly } from './replay.js';

/** A replayed side line (a variation), numbered from 1 in file order. */
export interface SideLineReplay {
  readonly index: number;
  readonly replay: SgfReplay;
  /** Plies shared with the main line (not checked again). */
  readonly shared: number;
}

/** Index rows, verdict and replay plies of a replayed Dots SGF game. */
export function analyse(game: SgfDotsGame, main: SgfReplay, sides: readonly SideLineReplay[], recordsChains: boolean): GameAnalysis {
  const problems: Problem[] = [];
  const check = (plies: readonly SgfReplayedPly[], from: number, where: string): { legal: boolean; consistent: boolean } => {
    let legal = true;
    let consistent = true;
    for (const p of plies.slice(from)) {
      const who = `${where}${SGF_PLAYER_COLOURS[p.move.seat]} ${moveText(p)}`;
      if (p.illegal !== undefined) {
        legal = false;
        problems.push(dotsIllegalMove(p.illegal, p.ply, who));
      }
      if (!recordsChains || p.move.dot === null || p.illegal !== undefined) continue;
      const written = pointList(p.writtenCaptures ?? []);
      const regenerated = pointList(p.surrounds.flatMap((s) => s.captured));
      const mismatch = writtenChainsProblem(p.ply, who, written, regenerated);
      if (mismatch === null) continue;
      consistent = false;
      problems.push(mismatch);
    }
    return { legal, consistent };
  };
  const mainCheck = check(main.plies, 0, '');
  let legal = mainCheck.legal;
  let consistent = mainCheck.consistent;
  for (const side of sides) {
    const sideCheck = check(side.replay.plies, side.shared, `variation ${side.index}, `);
    legal &&= sideCheck.legal;
    consistent &&= sideCheck.consistent;
  }
  const declared = game.root.RE === undefined ? null : parseResult(game.root.RE);
  const regeneratedResult = scoreResult(main.scores);
  if (declared !== null && (declared.kind === 'score' || declared.kind === 'draw')) {
    const margin = declared.kind === 'draw' ? 0 : declared.winner === 0 ? declared.margin : -declared.margin;
    if (margin !== main.scores[0] - main.scores[1]) {
      consistent = false;
      problems.push(declaredResultProblem('RE', game.root.RE!.trim(), regeneratedResult));
    }
  }
  const outcomes = playerOutcomes(declared, main);
  const players: PlayerEntry[] = [0, 1].map((seat) => ({
    seat,
    name: nonEmpty(game.root[seat === 0 ? 'PB' : 'PW']),
    externalId: null,
    rating: nonEmpty(game.root[seat === 0 ? 'BR' : 'WR']),
    color: SGF_PLAYER_COLOURS[seat],
    declaredPoints: null,
    points: main.scores[seat],
    captures: main.scores[seat],
    outcome: outcomes[seat],
  }));
  const details: Record<string, JsonValue> = {
    width: game.width,
    height: game.height,
    moves: main.plies.length,
    surrounds: surroundingMoves(main.plies),
    setupDots: setupCount(game),
    passes: main.passes,
    grounding: main.grounding === null ? null : { by: SGF_PLAYER_COLOURS[main.grounding.seat], given: main.grounding.given.map(pointName) },
    score: [...main.scores],
    declaredResult: game.root.RE ?? null,
    regeneratedResult,
    recordsChains,
    variations: sides.length,
    application: game.root.AP ?? null,
  };
  return {
    players,
    moveCount: main.plies.length,
    result: resultText(declared, main),
    verdict: { legal, consistent, problems: byPly(problems) },
    facts: { ...facts(game), ...recordedEnding(declared) },
    details,
    replay: main.plies.map((p) => replayPly(p, main)),
  };
}

function moveText(p: SgfReplayedPly): string {
  return p.move.dot === null ? '[]' : pointName(p.move.dot);
}

function replayPly(p: SgfReplayedPly, main: SgfReplay): ReplayPly {
  const { move } = p;
  if (move.dot === null) {
    const grounding = main.grounding !== null && p.ply === main.plies.length;
    const given = grounding ? main.grounding!.given.map(pointName) : [];
    return {
      ply: p.ply,
      player: move.seat,
      move: grounding ? 'ground' : 'pass',
      captured: given,
      score: [...p.scores],
      details: grounding ? { grounding: true, given } : { pass: true },
    };
  }
  const chains = p.surrounds.map(sgfChain);
  return dotsReplayPly(
    {
      ply: p.ply,
      seat: move.seat,
      move: pointName(move.dot),
      row: move.dot.row,
      col: move.dot.col,
      cell: move.dot,
      illegal: p.illegal,
      surrounds: p.surrounds,
      scores: p.scores,
      // The chains as an SGF file writes them (the value a regenerated file holds).
      surroundExtras: { chains: chains.map((c) => c.map(pointName).join('')), value: writeMoveValue(move.dot, chains) },
    },
    pointName,
  );
}

function playerOutcomes(declared: SgfResult | null, main: SgfReplay): PlayerOutcome[] {
  if (declared !== null) {
    switch (declared.kind) {
      case 'score':
      case 'win':
      case 'resign':
      case 'time':
      case 'forfeit':
        return [0, 1].map((seat) => (seat === declared.winner ? 'won' : 'lost'));
      case 'draw':
        return ['drawn', 'drawn'];
      case 'void':
      case 'unknown':
        break;
    }
  }
  // Without a result, a game that ended by grounding is decided by the replayed captures.
  return dotsOutcomes(main.scores, main.grounding !== null);
}

function resultText(declared: SgfResult | null, main: SgfReplay): string | null {
  if (main.grounding !== null) return dotsResultText(SGF_PLAYER_COLOURS, { kind: 'grounded', seat: main.grounding.seat }, main.scores);
  if (declared === null) return null;
  const loser = (winner: number): number => 1 - winner;
  let ending: DotsEnding | null = null;
  switch (declared.kind) {
    case 'resign':
      ending = { kind: 'resigned', seat: loser(declared.winner) };
      break;
    case 'time':
      ending = { kind: 'time', seat: loser(declared.winner) };
      break;
    case 'forfeit':
      return `${SGF_PLAYER_COLOURS[loser(declared.winner)]} forfeited`;
    case 'score':
      return `${SGF_PLAYER_COLOURS[declared.winner]} wins by ${declared.margin}`;
    case 'win':
      return `${SGF_PLAYER_COLOURS[declared.winner]} wins`;
    case 'draw':
      return `draw; ${dotsScoreText(SGF_PLAYER_COLOURS, main.scores)}`;
    case 'void':
    case 'unknown':
      return null;
  }
  return dotsResultText(SGF_PLAYER_COLOURS, ending, main.scores);
}

function setupCount(game: SgfDotsGame): number {
  let count = 0;
  const stack = [game.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count += node.setup.length;
    stack.push(...node.children);
  }
  return count;
}

function nonEmpty(value: string | undefined): string | null {
  const text = value?.trim();
  return text === undefined || text === '' ? null : text;
}

/** Board size from `SZ`, the day from `DT` (its first `YYYY-MM-DD`), `EV`, `RU` as written. */
function facts(game: SgfDotsGame): GameFacts {
  const date = /^(\d{4}-\d{2}-\d{2})/.exec(game.root.DT?.trim() ?? '');
  return {
    boardWidth: game.width,
    boardHeight: game.height,
    datePlayed: date === null ? null : date[1],
    event: nonEmpty(game.root.EV),
    rules: nonEmpty(game.root.RU),
  };
}

/** Dots as a sorted list of point names: what a move's written and replayed captures are compared by. */
function pointList(cells: readonly Cell[]): string {
  return cells.map(pointName).sort().join(' ');
}

/** How the recorded `RE` came about, in the facts' terms (null: no result, `Void` or `?`). */
function recordedEnding(declared: SgfResult | null): Pick<GameFacts, 'ending' | 'margin'> {
  switch (declared?.kind) {
    case 'score':
      return { ending: 'score', margin: declared.margin };
    case 'draw':
      return { ending: 'draw', margin: 0 };
    case 'resign':
      return { ending: 'resignation', margin: null };
    case 'time':
    case 'forfeit':
      return { ending: declared.kind, margin: null };
    case 'win':
      return { ending: 'unknown', margin: null };
    default:
      return { ending: null, margin: null };
  }
}
