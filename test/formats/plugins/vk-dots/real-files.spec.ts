import { FormatReader } from '../../../../src/formats/format-reader.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { loadDotsSgfCorpus, vkCodeOf } from '../../../support/dots/corpus.js';

// VK codes made from the real Dots games (test/fixtures/realdata/dots, through the conversions):
// whatever shape a code takes, uploaded bare it is detected and read as VK Dots/code.
describe('VK codes made from the real Dots games', () => {
  it('are all detected as VK Dots/code, those of digits alone among them', async () => {
    const reader = new FormatReader(FORMAT_PLUGINS);
    let codes = 0;
    let digitsOnly = 0;
    for (const { name, game } of loadDotsSgfCorpus()) {
      const code = await vkCodeOf(name);
      if (code === null) continue;
      codes++;
      if (/^\d+$/.test(code)) digitsOnly++;
      const record = await reader.read({ bytes: Buffer.from(code) }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
      expect([name, record.publisher, record.version, record.analysis?.moveCount]).toEqual([name, 'VK Dots', 'code', game.moves.length + game.setup.length]);
    }
    expect(codes).toBeGreaterThan(0);
    // The case the fallback is for occurs among them (games without a surround).
    expect(digitsOnly).toBeGreaterThan(0);
  });
});
