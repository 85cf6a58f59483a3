import { dotsServerPlugin } from '../../../../src/formats/plugins/dots-board-state/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

describe('Dots server facts', () => {
  it('board width = points in a GAL row, height = GAL rows; nothing else is recorded', async () => {
    // 7 points per row, 4 rows (counted by hand), so width and height cannot be swapped unnoticed.
    const text = ['204 Turnier 2024-05-01', 'ACU alice', 'AUF 1 1', 'SCR 0 0', 'GAL 0000000', 'GAL 0010200', 'GAL 0000000', 'GAL 0000000', '', ''].join('\n');
    const record = await dotsServerPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options);
    // The description is free text of the server, not a recorded date or event.
    expect(record.analysis!.facts).toEqual({ boardWidth: 7, boardHeight: 4, datePlayed: null, event: null, rules: null });
  });
});
