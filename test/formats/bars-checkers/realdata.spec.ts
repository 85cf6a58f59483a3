import { readFileSync } from 'node:fs';
import { barsCheckersPlugin } from '../../../src/formats/bars-checkers/plugin.js';
import { ConvertedGame, convertGame, parsePdn, positionFromFen, squareOfNumber, toBarsText } from '../../support/checkers/pdn.js';
import { Position } from '../../../src/rules/checkers/position.js';
import { squareName, rowOf, columnOf, Square } from '../../../src/rules/checkers/squares.js';
import { applyMove } from '../../../src/rules/checkers/apply-move.js';
import { legalMoves as legalMovesOf } from '../../../src/rules/checkers/legal-moves.js';
import { moveNotation } from '../../../src/rules/checkers/move.js';
import { quietMoves } from '../../../src/rules/checkers/quiet-moves.js';
import { DEFAULT_LIMITS } from '../../../src/formats/limits.js';

/** The BARS number of the piece on `from`, placed on `to` (a quiet move keeps its code). */
function encodeQuiet(position: Position, from: Square, to: Square = from): number {
  return position.at(from) * 100 + rowOf(to) * 10 + columnOf(to);
}

const folder = 'test/fixtures/realdata/checkers/russian';
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

function convertFile(name: string): ConvertedGame[] {
  return parsePdn(readFileSync(`${folder}/${name}`, 'utf8')).map(convertGame);
}

/** Reads the converted game back through the plugin, as an upload would be. */
async function readBack(converted: ConvertedGame) {
  const record = await barsCheckersPlugin.read({ bytes: Buffer.from(toBarsText(converted)) }, options);
  return record.analysis!;
}

describe('the PDN converter', () => {
  it('numbers the 32 PDN squares from b8 (1) to g1 (32)', () => {
    expect([1, 4, 5, 21, 29, 32].map((n) => squareName(squareOfNumber(n)!))).toEqual(['b8', 'h8', 'a7', 'a3', 'a1', 'g1']);
  });

  it('reads the standard FEN of the 1947 file as the initial position', () => {
    const fen = positionFromFen('W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.');
    expect(fen.rows()).toEqual(Position.initial().rows());
    expect(fen.toMove).toBe('white');
  });

  it('finds the landings of a capture written by its ends only', () => {
    // The white king on e1 (31) takes d2 (26), d4 (18) and d6 (10); only one route ends on c7.
    const [game] = parsePdn('[FEN "W:WK31:B26,18,10."]\n1. e1:c7 *\n');
    const converted = convertGame(game);
    expect(converted.problem).toBeNull();
    expect(converted.notation).toEqual(['e1:c3:e5:c7']);
  });
});

describe('USSR championship games (ussr1947.pdn)', () => {
  const converted = convertFile('ussr1947.pdn');

  it('holds 153 games, every move of which fits a legal move of the engine', () => {
    expect(converted).toHaveLength(153);
    expect(converted.filter((game) => game.problem !== null).map((game) => game.problem)).toEqual([]);
    expect(converted.every((game) => game.go.length === game.game.tokens.length)).toBe(true);
  });

  it('replays every game through the BARS plugin as legal and consistent', async () => {
    let plies = 0;
    for (const game of converted) {
      const analysis = await readBack(game);
      expect({ game: game.game.index, verdict: analysis.verdict }).toEqual({ game: game.game.index, verdict: { legal: true, consistent: true, problems: [] } });
      expect(analysis.moveCount).toBe(game.go.length);
      // The games ended by resignation or agreement: none by the rules, so the replay gives no result.
      expect(analysis.result).toBeNull();
      // Their PDN results (1-0, 0-1, 1/2-1/2) are resignations and agreed draws, which BARS cannot record.
      expect(analysis.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
      plies += analysis.moveCount;
    }
    expect(plies).toBe(8730);
  });

  it('regenerates every game to the very text it was given, its numbers being faithful', async () => {
    for (const game of converted) {
      const text = toBarsText(game);
      const file = await barsCheckersPlugin.regenerate({ bytes: Buffer.from(text) }, options);
      if (file.content !== text) expect({ game: game.game.index, content: file.content }).toEqual({ game: game.game.index, content: text });
    }
  });

  it('catches a tampered game: a quiet move where the players captured, a capture flag dropped', async () => {
    const game = converted[0];
    const firstCapture = game.go.findIndex((numbers) => numbers.length > 2);
    // Replay up to the first capture, then play some quiet move of the same side instead.
    let position = game.start;
    for (const notation of game.notation.slice(0, firstCapture)) {
      position = applyMove(position, legalMovesOf(position).find((move) => moveNotation(move) === notation)!);
    }
    const quiet = quietMoves(position)[0];
    const tampered = { ...game, go: [...game.go.slice(0, firstCapture), [encodeQuiet(position, quiet.from), encodeQuiet(position, quiet.from, quiet.landings[0])]] };
    const illegal = await readBack(tampered);
    expect(illegal.verdict.problems).toEqual([
      {
        code: 'checkers.must_capture',
        ply: firstCapture + 1,
        message: `ply ${firstCapture + 1} (${position.toMove}): capture was mandatory: ${game.notation[firstCapture]} available`,
      },
    ]);

    const unflagged = { ...game, go: game.go.map((numbers, i) => (i === firstCapture ? numbers.map((n, k) => (k === 1 ? n - 10000 : n)) : numbers)) };
    const inconsistent = await readBack(unflagged);
    expect(inconsistent.verdict.legal).toBe(true);
    expect(inconsistent.verdict.problems).toHaveLength(1);
    expect(inconsistent.verdict.problems[0]).toMatchObject({ code: 'cache.pieces', ply: firstCapture + 1 });
  });

  it('counts the same remaining pieces as the captures the replay reports', async () => {
    for (const game of converted.slice(0, 20)) {
      const analysis = await readBack(game);
      const remaining = analysis.details.remaining as Record<string, { men: number; kings: number }>;
      const [white, black] = analysis.players.map((player) => player.captures!);
      expect(remaining.white.men + remaining.white.kings).toBe(12 - black);
      expect(remaining.black.men + remaining.black.kings).toBe(12 - white);
    }
  });
});

describe('games of N. Abatsiev (abatsiev.pdn, from the upstream "fail" folder)', () => {
  const converted = convertFile('abatsiev.pdn');

  it('has one game whose moves are all "-" placeholders; the other 55 convert completely', () => {
    expect(converted).toHaveLength(56);
    const failed = converted.filter((game) => game.problem !== null);
    expect(failed.map((game) => [game.game.index, game.problem!.ply, game.problem!.token])).toEqual([[36, 1, '-']]);
    expect(failed[0].game.tokens.every((token) => token === '-')).toBe(true);
  });

  it('replays the 55 complete games as legal and consistent', async () => {
    for (const game of converted.filter((g) => g.problem === null)) {
      const analysis = await readBack(game);
      expect({ game: game.game.index, legal: analysis.verdict.legal, consistent: analysis.verdict.consistent }).toEqual({
        game: game.game.index,
        legal: true,
        consistent: true,
      });
      // Every game ended by resignation or agreement (its PDN Result), which BARS cannot record, with
      // the side to move still able to play: no outcome by the rules, so both players are unfinished.
      expect({ game: game.game.index, outcomes: analysis.players.map((p) => p.outcome) }).toEqual({ game: game.game.index, outcomes: ['unfinished', 'unfinished'] });
    }
  });
});
