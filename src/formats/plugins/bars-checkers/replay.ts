import type { GameAnalysis, Problem } from '../../plugin.js';
import { ProposedMove, judgeMove } from '../../../rules/checkers/judge-move.js';
import type { Move } from '../../../rules/checkers/move.js';
import { describeGameOver, gameOver } from '../../../rules/checkers/outcome.js';
import { CheckersLedger, outcomesOf, rulesDecision, russianDraughtsFacts } from '../../families/checkers/ledger.js';
import { checkersIllegalMove, notReplayedProblem } from '../../families/checkers/problems.js';
import { byPly, cacheProblem } from '../../families/problem.js';
import { Piece, colourOf, isKing, kingOf, promotionRow } from '../../../rules/checkers/pieces.js';
import { Position } from '../../../rules/checkers/position.js';
import { rowOf } from '../../../rules/checkers/squares.js';
import { BarsMove, BarsRecord, firstToMove } from './model.js';
import { PieceNumber, describeNumber, encodeNumber } from './numbers.js';
import { writtenTexts } from '../../families/texts.js';

export interface BarsReplay {
  readonly analysis: GameAnalysis;
  /** The numbers of each move as the replay derives them; null for moves not replayed (after an illegal one). */
  readonly regenerated: readonly (readonly number[] | null)[];
}

/**
 * Replays a record with the rules engine. The squares of each move say what was played and are
 * judged for legality; the piece codes and capture flags are the record's cached description of the
 * board and are only compared (consistency). Replay stops at the first illegal move: after it the
 * position is no longer known.
 */
export function replayBars(record: BarsRecord): BarsReplay {
  const first = firstToMove(record);
  const ledger = new CheckersLedger((record.start ?? Position.initial()).withToMove(first));
  const legalityProblems: Problem[] = [];
  const consistencyProblems: Problem[] = [];
  const notes: Problem[] = [];
  const regenerated: (number[] | null)[] = [];
  let stopped = false;

  record.moves.forEach((written, index) => {
    const ply = index + 1;
    if (stopped) {
      regenerated.push(null);
      return;
    }
    const position = ledger.position;
    const side = position.toMove;
    const judgement = judgeMove(position, proposedMove(written));
    if (!judgement.legal) {
      legalityProblems.push(checkersIllegalMove(judgement, ply, side));
      const rest = record.moves.length - ply;
      if (rest > 0) notes.push(notReplayedProblem(ply, rest));
      stopped = true;
      regenerated.push(null);
      return;
    }
    const move = judgement.move;
    const truth = describeMove(position, move);
    regenerated.push(truth.map(encodeNumber));
    truth.forEach((expected, i) => {
      const actual = written.numbers[i];
      // The squares already agree (the move was matched by them); the codes and flags are the cache.
      if (actual.piece !== expected.piece || actual.captured !== expected.captured) {
        consistencyProblems.push(
          cacheProblem(
            'cache.pieces',
            ply,
            `ply ${ply}: ${actual.token.value} says ${describeNumber(actual)}, but it is a ${describeNumber(expected)} (${encodeNumber(expected)})`,
          ),
        );
      }
    });
    ledger.play(move, ply);
  });

  // The outcome is the rules' verdict on the last position the replay knows (before an illegal
  // move, if any): a side to move without a legal move lost. Only a move written after the end
  // (`checkers.game_over`) leaves that position decided; any other illegal move leaves it open.
  const decided = gameOver(ledger.position);
  const over = stopped ? null : decided;
  return {
    regenerated,
    analysis: {
      players: ledger.players(outcomesOf(rulesDecision(decided))),
      moveCount: record.moves.length,
      result: over ? describeGameOver(over) : null,
      verdict: {
        legal: legalityProblems.length === 0,
        consistent: consistencyProblems.length === 0,
        problems: byPly([...legalityProblems, ...notes, ...consistencyProblems]),
      },
      // BARS is a Russian-draughts program's record: its board is always 8x8 and every file is
      // replayed under those rules, so the format itself names them; it records no date or event.
      facts: russianDraughtsFacts(null, null),
      details: {
        start: record.start ? 'area_monitor' : 'standard',
        firstToMove: first,
        ...ledger.details(),
        sideToMove: stopped ? null : ledger.position.toMove,
      },
      replay: ledger.replay,
      // The `#` comments are about the whole game (the model keeps no place in the moves for them).
      texts: writtenTexts(record.comments.map((text) => ({ ply: 0, text }))),
    },
  };
}

/** `[z1, z2]` is a quiet move; longer moves alternate the mover's squares (even indices) and captured pieces (odd). */
export function proposedMove(written: BarsMove): ProposedMove {
  const squares = written.numbers.map((number) => number.square);
  if (squares.length === 2) return { from: squares[0], landings: [squares[1]], captured: [] };
  return {
    from: squares[0],
    landings: squares.filter((_, i) => i > 0 && i % 2 === 0),
    captured: squares.filter((_, i) => i % 2 === 1),
  };
}

/**
 * The numbers a faithful record writes for a legal move: the mover as it stands on each of its
 * squares (a man until it reaches the last row, a king from that landing on), each captured piece
 * with its own code and the captured flag.
 */
export function describeMove(position: Position, move: Move): PieceNumber[] {
  let piece = position.at(move.from) as Piece;
  const colour = colourOf(piece);
  const numbers: PieceNumber[] = [{ captured: false, piece, square: move.from }];
  move.landings.forEach((landing, i) => {
    if (!isKing(piece) && rowOf(landing) === promotionRow(colour)) piece = kingOf(colour);
    if (move.captured.length > 0) numbers.push({ captured: true, piece: position.at(move.captured[i]) as Piece, square: move.captured[i] });
    numbers.push({ captured: false, piece, square: landing });
  });
  return numbers;
}
