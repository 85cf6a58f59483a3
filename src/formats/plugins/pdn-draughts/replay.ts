import type { GameAnalysis, JsonValue, Problem } from '../../plugin.js';
import { CheckersLedger, Decision, outcomesOf, rulesDecision, russianDraughtsFacts } from '../../families/checkers/ledger.js';
import type { CheckersPlyExtras } from '../../families/checkers/ledger.js';
import { moveNotation } from '../../families/checkers/notation.js';
import { checkersIllegalMove, notReplayedProblem } from '../../families/checkers/problems.js';
import { byPly, cacheProblem, moveProblem, noteProblem } from '../../families/problem.js';
import { locate } from '../../text/decode.js';
import { applyMove } from '../../../rules/checkers/apply-move.js';
import type { Move } from '../../../rules/checkers/move.js';
import { GameOver, describeGameOver, gameOver } from '../../../rules/checkers/outcome.js';
import type { Position } from '../../../rules/checkers/position.js';
import { pdnTexts } from './model.js';
import type { Line, MoveNode, PdnGame } from './model.js';
import { writtenTexts } from '../../families/texts.js';
import { matchMove } from './match-move.js';
import { readMoveToken } from './notation.js';
import type { GameSetup } from './setup.js';

/** What a replay found for one written move: the legal move, or the problem that stopped its line. */
type Step = { readonly move: Move; readonly routes: number; readonly abbreviated: boolean } | { readonly problem: Problem };

export interface PdnReplay {
  readonly analysis: GameAnalysis;
  /** The legal move each replayed move node names (main line and variations). */
  readonly resolved: ReadonlyMap<MoveNode, Move>;
  /** The result the replay establishes or the record states, as PDN writes it; null when unknown. */
  readonly result: string | null;
}

const DECISIONS: Readonly<Record<string, Decision>> = { '1-0': 'white', '2-0': 'white', '0-1': 'black', '0-2': 'black', '1/2-1/2': 'draw', '1-1': 'draw', '*': null };

/** What a PDN result says, or undefined when the text is no PDN result. */
function decisionOf(result: string | undefined): Decision | undefined {
  return result !== undefined && Object.hasOwn(DECISIONS, result) ? DECISIONS[result] : undefined;
}

/** The result the record states: its Result tag's when that is a PDN result, else its terminator's. */
export function recordedDecision(tag: string | undefined, terminator: string | undefined): Decision {
  const stated = decisionOf(tag);
  return stated !== undefined ? stated : decisionOf(terminator) ?? null;
}

/** A decision as PDN writes it (`*` when unknown). */
export function resultText(decision: Decision): string {
  if (decision === null) return '*';
  return decision === 'draw' ? '1/2-1/2' : decision === 'white' ? '1-0' : '0-1';
}

/**
 * Replays the main line with the rules engine (it stops at the first move it cannot replay: the
 * position after it is unknown) and checks every variation from the position before the move it
 * replaces. The Result tag and the terminator are the record's statements of the result, checked
 * against each other and against the rules where the rules decide.
 */
export function replayPdn(game: PdnGame, setup: GameSetup, text: string): PdnReplay {
  const ledger = new CheckersLedger(setup.start);
  const resolved = new Map<MoveNode, Move>();
  const illegal: Problem[] = [];
  const notes: Problem[] = [];
  const consistency: Problem[] = [];
  let abbreviated = 0;
  let severalRoutes = 0;

  const step = (position: Position, node: MoveNode, where: string): Step => {
    const side = position.toMove;
    const written = readMoveToken(node.text);
    const at = locate(text, node.offset);
    const place = `${where}ply ${node.ply} (${side})`;
    if ('unreadable' in written) {
      return { problem: moveProblem('move.unreadable', node.ply, `${place}: ${written.unreadable} (line ${at.line}, column ${at.column})`) };
    }
    const match = matchMove(position, written, node.text);
    if (match.kind === 'ambiguous') {
      const routes = match.moves.map(moveNotation).join(', ');
      return { problem: moveProblem('move.ambiguous', node.ply, `${place}: ${node.text} fits several legal moves that take different pieces (${routes}); PDN must name the landings between`) };
    }
    if (match.kind === 'illegal') {
      const problem = checkersIllegalMove(match.judgement, node.ply, side, match.detail);
      return { problem: { ...problem, message: `${where}${problem.message}` } };
    }
    resolved.set(node, match.move);
    return { move: match.move, routes: match.routes, abbreviated: match.move.landings.length + 1 > written.squares.length };
  };

  /** Checks a variation line from `position`; its problems count like the main line's. */
  const checkVariation = (line: Line, position: Position, depth: number): void => {
    const where = `variation${depth > 1 ? ` (depth ${depth})` : ''} at `;
    for (let i = 0; i < line.moves.length; i++) {
      const node = line.moves[i];
      for (const variation of node.variations) checkVariation(variation, position, depth + 1);
      const result = step(position, node, where);
      if ('problem' in result) {
        illegal.push(result.problem);
        const rest = line.moves.length - i - 1;
        if (rest > 0) notes.push(noteProblem('note.not_replayed', node.ply, `${where}ply ${node.ply}: the ${rest} move(s) after it in the variation were not replayed`));
        return;
      }
      position = applyMove(position, result.move);
    }
  };

  const moves = game.main.moves;
  let stopped = false;
  for (let i = 0; i < moves.length; i++) {
    const node = moves[i];
    for (const variation of node.variations) checkVariation(variation, ledger.position, 1);
    const result = step(ledger.position, node, '');
    if ('problem' in result) {
      illegal.push(result.problem);
      if (i + 1 < moves.length) notes.push(notReplayedProblem(node.ply, moves.length - i - 1));
      stopped = true;
      break;
    }
    if (result.abbreviated) abbreviated++;
    if (result.routes > 1) severalRoutes++;
    const extra: CheckersPlyExtras = { written: node.text };
    if (node.comments.length > 0) extra.comments = node.comments;
    if (node.nags.length > 0) extra.nags = node.nags;
    if (node.variations.length > 0) extra.variations = node.variations.length;
    ledger.play(result.move, node.ply, extra);
  }

  // The rules decide on the last position the replay knows: a side to move without a legal move lost.
  const over = gameOver(ledger.position);
  const resultTag = game.tags.find((tag) => tag.name === 'Result')?.value;
  const terminator = game.terminator?.text;
  const recorded = recordedDecision(resultTag, terminator);
  consistency.push(...resultProblems(resultTag, terminator, over));
  const decision = rulesDecision(over) ?? recorded;

  const details: Record<string, JsonValue> = {
    ...setup.details,
    ...ledger.details(),
    sideToMove: stopped ? null : ledger.position.toMove,
    resultTag: resultTag ?? null,
    terminator: terminator ?? null,
    variations: game.variationCount,
    writtenPlies: game.plies,
    abbreviatedCaptures: abbreviated,
    capturesWithSeveralRoutes: severalRoutes,
  };
  return {
    resolved,
    result: over ? resultText(over.winner) : recordedResult(resultTag, terminator),
    analysis: {
      players: ledger.players(outcomesOf(decision), setup.names, setup.ratings),
      moveCount: moves.length,
      result: over ? describeGameOver(over) : resultWords(recorded),
      verdict: {
        legal: illegal.length === 0,
        consistent: consistency.length === 0,
        problems: byPly([...consistency, ...illegal, ...notes]),
      },
      facts: russianDraughtsFacts(setup.datePlayed, setup.event),
      details,
      replay: ledger.replay,
      texts: writtenTexts(pdnTexts(game)),
    },
  };
}

function resultWords(decision: Decision): string | null {
  if (decision === null) return null;
  return decision === 'draw' ? 'draw' : `${decision} won`;
}

/** The record's result as it should be written: the tag's when it is a PDN result, else the terminator's. */
function recordedResult(tag: string | undefined, terminator: string | undefined): string | null {
  if (decisionOf(tag) !== undefined) return tag as string;
  return terminator ?? null;
}

/**
 * The record's result statements against each other and against the rules: a Result tag and a
 * terminator that differ; a stated win or draw where the rules end the game otherwise. `*`
 * (unknown) claims nothing.
 */
function resultProblems(tag: string | undefined, terminator: string | undefined, over: GameOver | null): Problem[] {
  const problems: Problem[] = [];
  if (decisionOf(tag) !== undefined && terminator !== undefined && tag !== terminator) {
    problems.push(cacheProblem('cache.result', null, `the Result tag says ${tag}, the move text ends with ${terminator}`));
  }
  if (over) {
    const statements = [['the Result tag', tag], ['the terminator', terminator]] as const;
    for (const [source, value] of tag === terminator ? statements.slice(0, 1) : statements) {
      const decision = decisionOf(value);
      if (decision === undefined || decision === null || decision === over.winner) continue;
      problems.push(cacheProblem('cache.result', null, `${source} says ${value}, but the rules end the game: ${describeGameOver(over)}`));
    }
  }
  return problems;
}
