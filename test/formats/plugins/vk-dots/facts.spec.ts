import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadOptions } from '../../../../src/formats/plugin.js';
import { vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const here = dirname(fileURLToPath(import.meta.url));
const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const read = (name: string) => vkDotsPlugin.read({ bytes: readFileSync(join(here, './fixtures', name)) }, options);

describe('VK Dots facts', () => {
  it('a save file (flags -s-: a small field of unknown size) gives no board size, date, event or rules', async () => {
    const record = await read('full-game.txt');
    expect(record.analysis!.details.flags).toMatchObject({ fieldSize: 's' });
    expect(record.analysis!.facts).toEqual({ boardWidth: null, boardHeight: null, datePlayed: null, event: null, rules: null });
    // The 35x35 replay field stays a detail, not a fact.
    expect(record.analysis!.details.field).toEqual({ width: 35, height: 35 });
  });

  it('a bare code gives none either', async () => {
    expect((await read('bare-code.txt')).analysis!.facts).toEqual({ boardWidth: null, boardHeight: null, datePlayed: null, event: null, rules: null });
  });
});
