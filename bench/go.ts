import { createRequire } from 'node:module';
import { analyseGoFans } from '../src/formats/plugins/gofans-xml/analysis.js';
import { interpretGoFans, standardDocument } from '../src/formats/plugins/gofans-xml/import-procedure.js';
import { BLACK, GoPosition, WHITE } from '../src/rules/go/index.js';
import type { GoInterchangeMove } from '../src/formats/families/go/index.js';
import { gnugoGamesAsGoFans11, mainLineMoves } from './go-corpus.js';
import { measure } from './timing.js';

/** Repeat each measurement until it has run this long, so the figure is not noise. */
const TARGET_RATIO = 5;

// The reference implementation, loaded only here (a dev dependency, never used by the archive).
const require = createRequire(import.meta.url);
const SabakiBoard = require('@sabaki/go-board') as typeof import('@sabaki/go-board').default;

interface Game {
  readonly size: number;
  readonly moves: readonly GoInterchangeMove[];
  readonly xml: string;
}

/**
 * Replaying GNU Go's regression games (main lines without setup stones): the Go rules engine
 * (captures, suicide and ko checks) and, in the same run on the same moves, the independent
 * board implementation (`makeMove`, its usual immutable use). Then the plugin's work after XSD
 * validation (XML parse, model, replay of every line, verdict). Target: engine ≥ 5× the reference.
 */
export async function run(): Promise<void> {
  const games: Game[] = [];
  for (const { game, xml } of await gnugoGamesAsGoFans11()) games.push({ size: game.boardWidth, moves: mainLineMoves(game), xml });
  const moves = games.reduce((sum, game) => sum + game.moves.length, 0);

  const engine = measure(() => {
    for (const game of games) replayWithEngine(game);
  });
  const reference = measure(() => {
    for (const game of games) replayWithReference(game);
  });
  const plugin = measure(() => {
    for (const game of games) analyseGoFans(...interpret(game.xml));
  });

  const rate = (ms: number, rounds: number) => (moves * rounds) / (ms / 1000);
  const engineRate = rate(engine.ms, engine.rounds);
  const referenceRate = rate(reference.ms, reference.rounds);
  const pluginRate = rate(plugin.ms, plugin.rounds);
  const ratio = engineRate / referenceRate;
  console.log(`go: ${games.length} games, ${moves} moves per round`);
  console.log(`go: rules engine        ${format(engineRate)} moves/s`);
  console.log(`go: @sabaki/go-board    ${format(referenceRate)} moves/s (same moves, same run)`);
  console.log(`go: engine / reference  ${ratio.toFixed(1)}x (target ≥ ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  console.log(`go: GoFans plugin after XSD validation (parse, model, replay, verdict) ${format(pluginRate)} moves/s`);
}

function interpret(xml: string): Parameters<typeof analyseGoFans> {
  const { game, replay } = interpretGoFans(standardDocument(xml), '1.1');
  return [game, replay];
}

function replayWithEngine(game: Game): number {
  const position = new GoPosition(game.size);
  let captured = 0;
  for (const move of game.moves) {
    if (move.point === null) {
      position.pass();
      continue;
    }
    const outcome = position.play(move.color === 'black' ? BLACK : WHITE, move.point.x, move.point.y);
    if (!outcome.legal) throw new Error(`illegal move in the benchmark corpus: ${outcome.reason}`);
    captured += outcome.captured.length;
  }
  return captured;
}

function replayWithReference(game: Game): number {
  let board = SabakiBoard.fromDimensions(game.size);
  for (const move of game.moves) {
    if (move.point === null) continue;
    board = board.makeMove(move.color === 'black' ? 1 : -1, [move.point.x, move.point.y]);
  }
  return board.getCaptures(1) + board.getCaptures(-1);
}

function format(rate: number): string {
  return Math.round(rate).toLocaleString('en-US').padStart(12);
}
