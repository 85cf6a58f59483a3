import { SGF_PLAYER_COLOURS, sgfTexts } from '../../syntaxes/sgf/index.js';
import type { SgfNode } from '../../syntaxes/sgf/index.js';
import { writtenTexts } from '../../families/texts.js';
import { GoGameReplay, GoResult, drawText, endsWithTwoPasses, goEnding, goReplayPlies, outcomesForResult, sgfLetters, winText } from '../../families/go/index.js';
import type { GameAnalysis, JsonValue, PlayerEntry, Problem } from '../../plugin.js';
import { goIllegalMove } from '../../families/go/problems.js';
import { noteProblem } from '../../families/problem.js';
import type { SgfCollection } from '../../syntaxes/sgf/index.js';
import type { SgfGoGame, SgfGoMove } from './model.js';
import { setupPoint } from './interchange.js';

/**
 * Index rows, verdict and replay of a replayed SGF Go game. The result and the outcomes are the
 * file's `RE`; the replay decides legality only. The final position is never scored into a winner:
 * an area count of the stones as they stand cannot remove dead stones, so it could contradict a
 * result the players agreed on.
 */
export function analyseSgfGo(collection: SgfCollection, game: SgfGoGame, replay: GoGameReplay<SgfGoMove>, withReplay = true): GameAnalysis {
  const problems: Problem[] = [];
  if (collection.charset.ignored !== null) {
    problems.push(noteProblem('note.charset', null, `${collection.charset.ignored}: the text was read as ${collection.charset.source === 'utf-8' ? 'UTF-8' : 'Latin-1'}`));
  }
  if (collection.invalidValues > 0) {
    const where = collection.locate(collection.firstInvalidValueAt);
    problems.push(
      noteProblem(
        'note.charset',
        null,
        `${collection.invalidValues} value(s) are not valid ${collection.charset.encoding} text (the first at line ${where.line}, column ${where.column}): read with replacement characters`,
      ),
    );
  }
  let legal = true;
  for (const m of replay.moves) {
    if (m.illegal === null) continue;
    legal = false;
    problems.push(goIllegalMove(m.illegal, m.ply, where(collection, m.node, m.ply, m.line)));
  }

  const basis = outcomeBasis(game.result);
  const outcomes = outcomesForResult(SGF_PLAYER_COLOURS, basis);
  const { plies, captures } = goReplayPlies(
    replay.mainLine,
    (m) => ({ ply: m.ply, seat: seatOf(m.node), color: m.node.color, point: m.node.point, captured: m.captured, illegal: m.illegal, node: m.node }),
    { seats: 2, height: game.height },
    sgfLetters,
    ({ node }) => (node.setup ? { setup: node.setup.map((p) => ({ ...setupPoint(p) })) } : undefined),
    withReplay,
  );
  const players: PlayerEntry[] = SGF_PLAYER_COLOURS.map((color, seat) => ({
    seat,
    name: game.text(color === 'black' ? 'PB' : 'PW'),
    externalId: null,
    color,
    rating: game.text(color === 'black' ? 'BR' : 'WR'),
    declaredPoints: null,
    points: null,
    captures: captures[seat],
    outcome: outcomes[seat],
  }));

  const details: Record<string, JsonValue> = {
    boardSize: game.width,
    komi: game.komi?.value ?? null,
    komiText: game.text('KM'),
    komiForm: game.komi?.form ?? null,
    handicap: game.handicap,
    setup: { black: game.setup.black.map(sgfLetters), white: game.setup.white.map(sgfLetters) },
    // The same stones as x/y (0-based, y downwards), for viewers that know no SGF coordinates.
    setupPoints: { black: game.setup.black.map(({ x, y }) => ({ x, y })), white: game.setup.white.map(({ x, y }) => ({ x, y })) },
    passes: replay.mainLine.filter((m) => m.node.point === null).length,
    end: gameEnd(game.result, replay),
    resultText: game.text('RE'),
    ratings: { black: game.text('BR'), white: game.text('WR') },
    teams: { black: game.text('BT'), white: game.text('WT') },
    round: game.text('RO'),
    place: game.text('PC'),
    gameName: game.text('GN'),
    application: game.text('AP'),
    fileFormat: game.text('FF'),
    charset: { encoding: collection.charset.encoding, declared: collection.charset.declared },
    variations: Math.max(0, replay.lines - 1),
    treeMoves: replay.moves.length,
    gamesInFile: collection.trees.length,
  };
  return {
    players,
    moveCount: replay.mainLine.length,
    result: resultWords(game.result, game.text('RE')),
    verdict: { legal, consistent: true, problems },
    facts: {
      boardWidth: game.width,
      boardHeight: game.height,
      datePlayed: game.datePlayed,
      event: game.text('EV'),
      rules: game.text('RU'),
      ...goEnding(basis),
    },
    details,
    replay: plies,
    texts: writtenTexts(sgfTexts(game.tree, goPliesOf)),
  };
}

/** Plies a node makes, as the game is built (model.ts): one per `B` or `W` property with a value. */
function goPliesOf(node: SgfNode): number {
  let plies = 0;
  for (const property of node.properties) if ((property.id === 'B' || property.id === 'W') && property.values.length > 0) plies++;
  return plies;
}

function seatOf(move: SgfGoMove): number {
  return move.color === 'black' ? 0 : 1;
}

function where(collection: SgfCollection, move: SgfGoMove, ply: number, line: number): string {
  const at = collection.locate(move.offset);
  const written = move.point === null ? 'pass' : `${move.color === 'black' ? 'B' : 'W'}[${sgfLetters(move.point)}]`;
  return `${line === 0 ? '' : `variation ${line}, `}ply ${ply} (${written}, line ${at.line})`;
}

/** The recorded result as outcomes and facts take it: a win, `draw`, or null for none. */
function outcomeBasis(result: GoResult | null): Extract<GoResult, { kind: 'win' }> | 'draw' | null {
  if (result === null || result.kind === 'none') return null;
  return result.kind === 'draw' ? 'draw' : result;
}

/** The recorded result in words; null when the file records none. */
function resultWords(result: GoResult | null, written: string | null): string | null {
  if (result === null) return null;
  if (result.kind === 'draw') return drawText();
  if (result.kind === 'win') return winText(result.winner, result.win);
  return result.reason === 'void' ? 'void (no result)' : result.reason === 'unknown' ? 'result unknown' : `recorded as "${written}"`;
}

/** How the game ended: by the recorded result, else `two passes` when the main line ends so, else `none`. */
function gameEnd(result: GoResult | null, replay: GoGameReplay<SgfGoMove>): string {
  if (result?.kind === 'win' && result.win.how !== 'unknown' && result.win.how !== 'other') return result.win.how;
  if (result?.kind === 'draw') return 'score';
  return endsWithTwoPasses(replay.mainLine.map((m) => m.node)) ? 'two passes' : 'none';
}
