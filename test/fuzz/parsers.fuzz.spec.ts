import fc from 'fast-check';
import { FormatReader } from '../../src/formats/format-reader.js';
import type { FormatPlugin } from '../../src/formats/plugin.js';
import { FORMAT_PLUGINS } from '../../src/formats/registry.js';
import { FUZZ_OPTIONS, FUZZ_SCALE, arbitraryBytes, arbitraryText, formatWords, mutatedFixture, onlyFormatErrors, readAndRegenerate } from '../support/fuzz.js';

/*
 * Every plugin, on any bytes: read and regenerate return or throw a FormatError, never another
 * error (TypeError, RangeError, a stack overflow…). Runs are few per property so the folder stays
 * quick; fast-check prints the seed and the shrunk input of any failure, which becomes a regression
 * test beside the plugin's others.
 */

/** GoFans validates with libxml2 on every run and peg boards are solved: fewer runs for them. */
const RUNS: Record<string, number> = { 'gofans-xml': 60, 'bars-checkers': 200, 'vk-dots': 200, 'dots-server': 200, 'peg-solitaire': 40, 'sgf-go': 100, 'sgf-dots': 100, 'pdn-draughts': 100 };

describe.each(FORMAT_PLUGINS.map((plugin): [string, FormatPlugin] => [plugin.id, plugin]))('fuzzing %s', (id, plugin) => {
  const numRuns = (RUNS[id] ?? 50) * FUZZ_SCALE;

  it('arbitrary bytes', async () => {
    await fc.assert(fc.asyncProperty(arbitraryBytes, (bytes) => readAndRegenerate(plugin, bytes)), { numRuns });
  });

  it('arbitrary unicode text', async () => {
    await fc.assert(fc.asyncProperty(arbitraryText, (bytes) => readAndRegenerate(plugin, bytes)), { numRuns });
  });

  it('random sequences of the format’s own words', async () => {
    await fc.assert(fc.asyncProperty(formatWords(id), (bytes) => readAndRegenerate(plugin, bytes)), { numRuns });
  });

  it('mutations of its real files (byte flips, truncations, insertions, deletions, repeated lines)', async () => {
    await fc.assert(fc.asyncProperty(mutatedFixture(id), (bytes) => readAndRegenerate(plugin, bytes)), { numRuns: numRuns * 2 });
  });
});

describe('fuzzing the format reader (detection, then the claiming plugin)', () => {
  const reader = new FormatReader(FORMAT_PLUGINS);
  const read = (bytes: Buffer) => onlyFormatErrors(() => reader.read({ bytes }, { timeBudgetMs: FUZZ_OPTIONS.timeBudgetMs, limits: FUZZ_OPTIONS.limits }));
  const anyFixture = fc.constantFrom(...FORMAT_PLUGINS.map((plugin) => plugin.id)).chain(mutatedFixture);

  it('arbitrary bytes and text', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(arbitraryBytes, arbitraryText), read), { numRuns: 200 * FUZZ_SCALE });
  });

  it('mutations of every format’s real files', async () => {
    await fc.assert(fc.asyncProperty(anyFixture, read), { numRuns: 150 * FUZZ_SCALE });
  });
});
