import { readFileSync } from 'node:fs';
import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import type { GameAnalysis } from '../../../../src/formats/plugin.js';
import { Position } from '../../../../src/rules/checkers/position.js';
import { rowOf, columnOf, Square } from '../../../../src/rules/checkers/squares.js';
import { applyMove } from '../../../../src/rules/checkers/apply-move.js';
import { judgeMove } from '../../../../src/rules/checkers/judge-move.js';
import type { Move } from '../../../../src/rules/checkers/move.js';
import { describeIllegal, moveNotation, squareName } from '../../../../src/formats/families/checkers/notation.js';
import { quietMoves } from '../../../../src/rules/checkers/quiet-moves.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { RealGame, realGamesAsBars } from '../../../support/checkers/real-games.js';

/** The BARS number of the piece on `from`, placed on `to` (a quiet move keeps its code). */
function encodeQuiet(position: Position, from: Square, to: Square = from): number {
  return position.at(from) * 100 + rowOf(to) * 10 + columnOf(to);
}

/**
 * A BARS number read as the datasheet spells it, digit by digit from the written decimal (leading
 * zeros restored): a captured, b king, c colour, y row, x column; the square as its name.
 */
function spelled(n: number): { captured: boolean; square: string } {
  const [a, , , y, x] = String(n).padStart(5, '0').split('').map(Number);
  return { captured: a === 1, square: 'abcdefgh'[x] + String(8 - y) };
}

const folder = 'test/fixtures/realdata/checkers/russian';
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

/** The `go` numbers of a BARS file, read from its text. */
const goOf = (bars: string): number[][] => JSON.parse(/^go = (\[[\s\S]*\])$/m.exec(bars)![1]) as number[][];

async function readBack(bars: string): Promise<GameAnalysis> {
  return (await barsCheckersPlugin.read({ bytes: Buffer.from(bars) }, options)).analysis!;
}

/** The PDN plugin's own reading of each game of the file, for comparison. */
async function pdnAnalyses(name: string): Promise<GameAnalysis[]> {
  const bytes = readFileSync(`${folder}/${name}`);
  const slices = pdnDraughtsPlugin.split!({ bytes }, options);
  return Promise.all(slices.map(async (slice) => (await pdnDraughtsPlugin.read({ bytes: bytes.subarray(slice.start, slice.end) }, options)).analysis!));
}

describe('USSR championship games (ussr1947.pdn) converted to BARS', () => {
  let games: RealGame[];
  let pdn: GameAnalysis[];
  beforeAll(async () => {
    games = await realGamesAsBars(`${folder}/ussr1947.pdn`);
    pdn = await pdnAnalyses('ussr1947.pdn');
  });

  it('converts all 153 games, every move of them', () => {
    expect(games).toHaveLength(153);
    expect(games.filter((game) => game.refusal !== null).map((game) => [game.index, game.refusal!.message])).toEqual([]);
    expect(games.map((game) => goOf(game.bars!).length)).toEqual(pdn.map((analysis) => analysis.moveCount));
  });

  it('writes numbers whose digits name the squares the PDN replay moved through and captured', () => {
    for (const [i, game] of games.entries()) {
      const numbers = goOf(game.bars!).map((move) => move.map(spelled));
      const replay = pdn[i].replay;
      numbers.forEach((move, p) => {
        const ply = replay[p];
        // Two numbers: a quiet move. Longer: the mover's squares (start, landings) at even positions,
        // unflagged, the captured pieces at odd ones, flagged.
        const stops = move.length === 2 ? move : move.filter((_, k) => k % 2 === 0);
        const taken = move.length === 2 ? [] : move.filter((_, k) => k % 2 === 1);
        const written = { game: game.index, ply: p + 1, move: stops.map((n) => n.square).join(taken.length > 0 ? ':' : '-'), captured: taken.map((n) => n.square) };
        expect(written).toEqual({ game: game.index, ply: p + 1, move: ply.move, captured: ply.captured });
        expect(stops.every((n) => !n.captured) && taken.every((n) => n.captured)).toBe(true);
      });
    }
  });

  it('replays every game through the BARS plugin as legal and consistent', async () => {
    let plies = 0;
    for (const game of games) {
      const analysis = await readBack(game.bars!);
      expect({ game: game.index, verdict: analysis.verdict }).toEqual({ game: game.index, verdict: { legal: true, consistent: true, problems: [] } });
      // The games ended by resignation or agreement: none by the rules, so the replay gives no result.
      expect(analysis.result).toBeNull();
      // Their PDN results (1-0, 0-1, 1/2-1/2) are resignations and agreed draws, which BARS cannot record.
      expect(analysis.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
      plies += analysis.moveCount;
    }
    expect(plies).toBe(8730);
  });

  it('catches a tampered game: a quiet move where the players captured, a capture flag dropped', async () => {
    const game = games[0];
    const go = goOf(game.bars!);
    const firstCapture = go.findIndex((numbers) => numbers.length > 2);
    // Replay up to the first capture, then play some quiet move of the same side instead.
    let position = Position.initial();
    let capture: Move | null = null;
    for (const [i, move] of game.model!.main.moves.entries()) {
      const judgement = judgeMove(position, move);
      if (!judgement.legal) throw new Error(describeIllegal(judgement));
      if (i === firstCapture) {
        capture = judgement.move;
        break;
      }
      position = applyMove(position, judgement.move);
    }
    const quiet = quietMoves(position)[0];
    const write = (moves: number[][]) => `go = ${JSON.stringify(moves)}`;
    const illegal = await readBack(write([...go.slice(0, firstCapture), [encodeQuiet(position, quiet.from), encodeQuiet(position, quiet.from, quiet.landings[0])]]));
    expect(illegal.verdict.problems).toEqual([
      {
        code: 'checkers.must_capture',
        ply: firstCapture + 1,
        message: `ply ${firstCapture + 1} (${position.toMove}): capture was mandatory: ${moveNotation(capture!)} available`,
      },
    ]);

    const inconsistent = await readBack(write(go.map((numbers, i) => (i === firstCapture ? numbers.map((n, k) => (k === 1 ? n - 10000 : n)) : numbers))));
    expect(inconsistent.verdict.legal).toBe(true);
    expect(inconsistent.verdict.problems).toHaveLength(1);
    expect(inconsistent.verdict.problems[0]).toMatchObject({ code: 'cache.pieces', ply: firstCapture + 1 });
    expect(squareName(capture!.captured[0])).toBe(spelled(go[firstCapture][1]).square);
  });

  it('counts the same remaining pieces as the captures the replay reports', async () => {
    for (const game of games.slice(0, 20)) {
      const analysis = await readBack(game.bars!);
      const remaining = analysis.details.remaining as Record<string, { men: number; kings: number }>;
      const [white, black] = analysis.players.map((player) => player.captures!);
      expect(remaining.white.men + remaining.white.kings).toBe(12 - black);
      expect(remaining.black.men + remaining.black.kings).toBe(12 - white);
    }
  });
});

describe('games of N. Abatsiev (abatsiev.pdn, from the upstream "fail" folder) converted to BARS', () => {
  let games: RealGame[];
  beforeAll(async () => {
    games = await realGamesAsBars(`${folder}/abatsiev.pdn`);
  });

  it('has one game whose moves are all "-" placeholders, which does not convert; the other 55 convert completely', () => {
    expect(games).toHaveLength(56);
    const failed = games.filter((game) => game.refusal !== null);
    expect(failed.map((game) => [game.index, game.refusal!.code])).toEqual([[36, 'export.does_not_fit']]);
    expect(failed[0].refusal!.message).toContain('ply 1 (white): "-" is not a move');
  });

  it('replays the 55 complete games as legal and consistent', async () => {
    for (const game of games.filter((g) => g.refusal === null)) {
      const analysis = await readBack(game.bars!);
      expect({ game: game.index, legal: analysis.verdict.legal, consistent: analysis.verdict.consistent }).toEqual({
        game: game.index,
        legal: true,
        consistent: true,
      });
      // Every game ended by resignation or agreement (its PDN Result), which BARS cannot record, with
      // the side to move still able to play: no outcome by the rules, so both players are unfinished.
      expect({ game: game.index, outcomes: analysis.players.map((p) => p.outcome) }).toEqual({ game: game.index, outcomes: ['unfinished', 'unfinished'] });
    }
  });
});
