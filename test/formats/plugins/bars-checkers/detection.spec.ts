import { readFileSync } from 'node:fs';
import { filesUnder } from '../../../support/files.js';
import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';

const BARS_SAMPLES = [
  'go = [[156, 145], [223, 234]]',
  '# a game\narea_monitor = [[9, 2, 9, 2, 9, 2, 9, 2], [2, 9, 2, 9, 2, 9, 2, 9], [9, 2, 9, 2, 9, 2, 9, 2], [0, 9, 0, 9, 0, 9, 0, 9],\n [9, 0, 9, 0, 9, 0, 9, 0], [1, 9, 1, 9, 1, 9, 1, 9], [9, 1, 9, 1, 9, 1, 9, 1], [1, 9, 1, 9, 1, 9, 1, 9]]\ngo = []\n',
  '{"go": [[156, 145]], "area_monitor": null}',
];

describe('detection among all the archive\'s formats', () => {
  it('claims none of the fixture files of the other formats (nor the seeds)', () => {
    const files = filesUnder('test/fixtures');
    expect(files.length).toBeGreaterThan(10);
    const claimed = files.filter((path) => barsCheckersPlugin.detect({ bytes: readFileSync(path), filename: path }));
    expect(claimed).toEqual([]);
  });

  it('leaves BARS files to this plugin alone', () => {
    for (const text of BARS_SAMPLES) {
      const claimants = FORMAT_PLUGINS.filter((plugin) => plugin.detect({ bytes: Buffer.from(text) })).map((plugin) => plugin.id);
      expect({ text, claimants }).toEqual({ text, claimants: ['bars-checkers'] });
    }
  });
});
