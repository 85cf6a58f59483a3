import { DEFAULT_LIMITS } from '../src/formats/limits.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { barsCheckersPlugin } from '../src/formats/bars-checkers/plugin.js';
import { applyMove } from '../src/rules/checkers/apply-move.js';
import { ProposedMove, judgeMove } from '../src/rules/checkers/judge-move.js';
import type { Position } from '../src/rules/checkers/position.js';
import { ConvertedGame, convertGame, parsePdn, toBarsText } from '../test/support/checkers/pdn.js';

const FOLDER = 'test/fixtures/realdata/checkers/russian';
/** Repeat each measurement until it has run this long, so the figure is not noise. */
const MIN_MS = 1000;

/**
 * Replaying the real Russian checkers games (every convertible game of the PDN files):
 * the rules engine alone (judge each recorded move, apply it), then the whole BARS plugin
 * (parse the text, decode the numbers, replay, verdict, index). Target: 100,000 moves/s.
 */
export async function run(): Promise<void> {
  const games: ConvertedGame[] = [];
  for (const name of readdirSync(FOLDER).filter((file) => file.endsWith('.pdn')).sort()) {
    games.push(...parsePdn(readFileSync(join(FOLDER, name), 'utf8')).map(convertGame));
  }
  const replayable = games.filter((game) => game.go.length > 0);
  const plies = replayable.reduce((sum, game) => sum + game.go.length, 0);
  const proposals = replayable.map((game) => ({ start: game.start, moves: game.go.map(toProposed) }));
  const uploads = replayable.map((game) => ({ bytes: Buffer.from(toBarsText(game)) }));

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

/** Squares of BARS numbers (the last two digits), split as the format lays them out. */
function toProposed(numbers: readonly number[]): ProposedMove {
  const squares = numbers.map((n) => Math.floor((n % 100) / 10) * 8 + (n % 10));
  if (squares.length === 2) return { from: squares[0], landings: [squares[1]], captured: [] };
  return { from: squares[0], landings: squares.filter((_, i) => i > 0 && i % 2 === 0), captured: squares.filter((_, i) => i % 2 === 1) };
}

function measure(work: () => void): { rounds: number; ms: number } {
  work(); // warm-up
  const started = performance.now();
  let rounds = 0;
  while (performance.now() - started < MIN_MS) {
    work();
    rounds++;
  }
  return { rounds, ms: performance.now() - started };
}

async function measureAsync(work: () => Promise<void>): Promise<{ rounds: number; ms: number }> {
  await work();
  const started = performance.now();
  let rounds = 0;
  while (performance.now() - started < MIN_MS) {
    await work();
    rounds++;
  }
  return { rounds, ms: performance.now() - started };
}

function format(moves: number, ms: number): string {
  return Math.round((moves / ms) * 1000).toLocaleString('en-US');
}
