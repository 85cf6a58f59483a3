import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatReader } from '../../src/formats/format-reader.js';
import { FAMILIES } from '../../src/formats/plugin.js';
import { FORMAT_PLUGINS } from '../../src/formats/registry.js';
import { filesUnder } from '../support/files.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

describe('the format registry', () => {
  it('declares every publisher/version once, with a family and media types', () => {
    const reader = new FormatReader(FORMAT_PLUGINS);
    for (const format of reader.formats) {
      expect(FAMILIES).toContain(format.family);
      expect(format.mediaTypes.length).toBeGreaterThan(0);
      expect(reader.find(format.publisher, format.version)?.format).toBe(format);
    }
    expect(new Set(FORMAT_PLUGINS.map((plugin) => plugin.id)).size).toBe(FORMAT_PLUGINS.length);
  });

  it('detects every fixture file with at most one plugin', () => {
    const ambiguous: string[] = [];
    for (const path of filesUnder(FIXTURES)) {
      const claimants = FORMAT_PLUGINS.filter((plugin) => plugin.detect({ bytes: readFileSync(path), filename: path }));
      if (claimants.length > 1) ambiguous.push(`${path}: ${claimants.map((plugin) => plugin.id).join(', ')}`);
    }
    expect(ambiguous).toEqual([]);
  });

  it('stores text that no plugin reads (a provenance list) with the reason, and refuses binary that no plugin reads', async () => {
    const reader = new FormatReader(FORMAT_PLUGINS);
    // Dots SGF (GM[40]) is read by the sgf-dots plugin since issue 11: plain text stands in.
    const text = readFileSync(join(FIXTURES, 'realdata/dots/oppai-rs/PROVENANCE.txt'));
    const record = await reader.read({ bytes: text, filename: 'PROVENANCE.txt' }, { timeBudgetMs: 100, limits: DEFAULT_LIMITS });
    expect(record).toMatchObject({ publisher: null, family: null });
    expect(record.analysis).toBeUndefined();
    expect(record.notIndexedReason).toMatch(/no format plugin recognises/);

    const pointsXt = readFileSync(join(FIXTURES, 'realdata/dots/KvanTTT-Dots-Game-AI/Data_AlphaBetaTest1.sav'));
    await expect(reader.read({ bytes: pointsXt }, { timeBudgetMs: 100, limits: DEFAULT_LIMITS })).rejects.toMatchObject({ status: 415 });
  });
});
