import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameAnalysis, ReadOptions } from '../../../../src/formats/plugin.js';
import { vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const here = dirname(fileURLToPath(import.meta.url));
const fullGame = readFileSync(join(here, './fixtures/full-game.txt'), 'utf8');
const bareCode = readFileSync(join(here, './fixtures/bare-code.txt'), 'utf8');
const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const analyse = async (text: string): Promise<GameAnalysis> => (await vkDotsPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!;
const outcomes = async (text: string) => (await analyse(text)).players.map((p) => [p.color, p.outcome]);

// Red 23, blue 33, red 32, blue aa, red 43, blue ab, red 34 closes 23-32-43-34 around blue 33: 1:0.
const redCaptures = '233332aa43ab34#43342332#33##1@0#';

describe('VK Dots outcomes', () => {
  it('the seed games hold no 0f/0s: unfinished, whatever the score (8:29 and 0:15)', async () => {
    for (const text of [fullGame, bareCode]) {
      expect(await outcomes(text)).toEqual([
        ['red', 'unfinished'],
        ['blue', 'unfinished'],
      ]);
    }
  });

  it('the full seed game ended by red (0f) at 8:29: blue won, red lost', async () => {
    // The code's last record writes 8@29, and no later move surrounds.
    expect(await outcomes(`${fullGame.trimEnd()}0f\n`)).toEqual([
      ['red', 'lost'],
      ['blue', 'won'],
    ]);
  });

  it('red captures one blue dot, blue ends the game (0s): red won 1:0', async () => {
    const analysis = await analyse(`${redCaptures}0s`);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.players.map((p) => [p.color, p.outcome])).toEqual([
      ['red', 'won'],
      ['blue', 'lost'],
    ]);
  });

  it('an ended game without captures (0:0) is a draw for both', async () => {
    expect(await outcomes('b7a60fa5a4')).toEqual([
      ['red', 'drawn'],
      ['blue', 'drawn'],
    ]);
  });

  it('the same capture without an end is unfinished', async () => {
    expect(await outcomes(redCaptures)).toEqual([
      ['red', 'unfinished'],
      ['blue', 'unfinished'],
    ]);
  });

  it('an illegal game that ended: the replayed score decides (the illegal dot is not placed)', async () => {
    // Blue's 33 goes onto its own captured dot (occupied), then blue ends the game at 1:0.
    const analysis = await analyse(`${redCaptures}330s`);
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.players.map((p) => [p.color, p.outcome])).toEqual([
      ['red', 'won'],
      ['blue', 'lost'],
    ]);
  });
});
