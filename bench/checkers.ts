import { DEFAULT_LIMITS } from '../src/core/limits.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { barsCheckersPlugin } from '../src/formats/plugins/bars-checkers/plugin.js';
import { applyMove } from '../src/rules/checkers/apply-move.js';
import { replayInterchange } from '../src/formats/families/checkers/interchange.js';
import { ProposedMove, judgeMove } from '../src/rules/checkers/judge-move.js';
import type { Position } from '../src/rules/checkers/position.js';
import { RealGame, realGamesAsBars } from '../test/support/checkers/real-games.js';
import { measure, measureAsync } from './timing.js';

const FOLDER = 'test/fixtures/realdata/checkers/russian';
/** Repeat each measurement until it has run this long, so the figure is not noise. */

/**
 * Replaying the real Russian checkers games (every convertible game of the PDN files):
 * the rules engine alone (judge each recorded move, apply it), then the whole BARS plugin
 * (parse the text, decode the numbers, replay, verdict, index). Target: 100,000 moves/s.
 */
export async function run(): Promise<void> {
  const games: RealGame[] = [];
  for (const name of readdirSync(FOLDER).filter((file) => file.endsWith('.pdn')).sort()) {
    games.push(...(await realGamesAsBars(join(FOLDER, name))));
  }
  const replayable = games.filter((game) => game.model !== null && game.model.main.moves.length > 0);
  const plies = replayable.reduce((sum, game) => sum + game.model!.main.moves.length, 0);
  // The model's moves are already in engine squares: the engine judges them as a record proposes them.
  const proposals = replayable.map((game) => ({ start: replayInterchange(game.model!).start, moves: game.model!.main.moves }));
  const uploads = replayable.map((game) => ({ bytes: Buffer.from(game.bars!) }));

  const engine = measure(() => {
    for (const { start, moves } of proposals) replayWithEngine(start, moves);
  });
  const plugin = await measureAsync(async () => {
    for (const upload of uploads) await barsCheckersPlugin.read(upload, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
  });

  console.log(`checkers: ${replayable.length} real games (${games.length - replayable.length} unreadable), ${plies} moves`);
  console.log(`checkers: rules engine replay  ${format(plies * engine.rounds, engine.ms)} moves/s (target 100,000)`);
  console.log(`checkers: BARS plugin read     ${format(plies * plugin.rounds, plugin.ms)} moves/s (parse, replay, verdict, index)`);
}

function replayWithEngine(start: Position, moves: readonly ProposedMove[]): void {
  let position = start;
  for (const proposed of moves) {
    const judgement = judgeMove(position, proposed);
    if (!judgement.legal) throw new Error(`benchmark game is illegal: ${judgement.reason}`);
    position = applyMove(position, judgement.move);
  }
}

function format(moves: number, ms: number): string {
  return Math.round((moves / ms) * 1000).toLocaleString('en-US');
}
