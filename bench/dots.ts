import { DEFAULT_LIMITS } from '../src/core/limits.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DotsGame } from '../src/rules/dots/index.js';
import { vkDotsPlugin } from '../src/formats/plugins/vk-dots/plugin.js';
import { loadDotsSgfCorpus, movesOnly, vkCodeOf } from '../test/support/dots/corpus.js';
import type { DotsSgfGame } from '../test/support/dots/dots-sgf.js';
import { parsePointsXt } from '../test/support/dots/pointsxt.js';

/** Repeat each measurement until it has run this long, so the figure is not noise. */
const MIN_MS = 1000;
const POINTSXT_FOLDER = 'test/fixtures/realdata/dots/KvanTTT-Dots-Game-AI';

/**
 * Replaying the real Dots games (SGF and PointsXT, test/fixtures/realdata/dots): the rules engine
 * alone on the games' own fields — the 39x32 classic-field games (2 SGF, 7 PointsXT) separately,
 * target 200,000 moves/s — and the whole VK Dots plugin on the SGF games converted to VK codes
 * (parse, replay, regenerate every record, verdict, index).
 */
export async function run(): Promise<void> {
  const corpus = loadDotsSgfCorpus().filter(({ game }) => game.width > 0 && game.moves.length > 0);
  const pointsXt = readdirSync(POINTSXT_FOLDER)
    .filter((name) => name.endsWith('.sav'))
    .map((name) => parsePointsXt(readFileSync(join(POINTSXT_FOLDER, name))));
  const all = [...corpus.map(({ game }) => game), ...pointsXt];
  const classic = all.filter((game) => game.width === 39 && game.height === 32);
  report('dots engine, 39x32 games', classic.length, measure(() => replayAll(classic)));
  report('dots engine, all games (SGF and PointsXT)', all.length, measure(() => replayAll(all)));

  const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
  // The SGF games as VK codes (PointsXT's 39x32 games do not fit one), moves only.
  const codes: Buffer[] = [];
  for (const { name } of corpus) {
    const code = await vkCodeOf(name);
    if (code !== null) codes.push(Buffer.from(movesOnly(code)));
  }
  const moves = codes.reduce((sum, code) => sum + code.length / 2, 0);
  const plugin = await measureAsync(async () => {
    for (const bytes of codes) await vkDotsPlugin.read({ bytes }, options);
    return moves;
  });
  report('VK Dots plugin read (converted games)', codes.length, plugin);
}

function replayAll(games: readonly DotsSgfGame[]): number {
  let moves = 0;
  for (const game of games) {
    const engine = new DotsGame({ width: game.width, height: game.height, players: 2, extraMove: false });
    for (const dot of game.setup) engine.place(dot.colour, dot.row, dot.col);
    for (const move of game.moves) engine.place(move.colour, move.row, move.col);
    moves += game.moves.length;
  }
  return moves;
}

interface Measurement {
  readonly moves: number;
  readonly ms: number;
}

function measure(pass: () => number): Measurement {
  pass(); // warm-up
  let moves = 0;
  const start = performance.now();
  do moves += pass();
  while (performance.now() - start < MIN_MS);
  return { moves, ms: performance.now() - start };
}

async function measureAsync(pass: () => Promise<number>): Promise<Measurement> {
  await pass();
  let moves = 0;
  const start = performance.now();
  do moves += await pass();
  while (performance.now() - start < MIN_MS);
  return { moves, ms: performance.now() - start };
}

function report(label: string, games: number, { moves, ms }: Measurement): void {
  const perSecond = Math.round((moves / ms) * 1000);
  console.log(`${label}: ${games} games, ${perSecond.toLocaleString('en-US')} moves/s`);
}
