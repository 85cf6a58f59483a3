import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pegSolitairePlugin } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { filesUnder } from '../../../support/files.js';

/** Every fixture file of the other formats: real data, seeds and examples outside the peg folder. */
const PEG_FOLDER = `${join('realdata', 'peg')}${sep}`;

describe('peg solitaire detection against the other fixtures', () => {
  const paths = filesUnder(join('test', 'fixtures')).filter((p) => !p.includes(PEG_FOLDER) && !/PROVENANCE|README/.test(p));

  it('has other fixtures to look at', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  it('claims none of them', () => {
    const claimed = paths.filter((path) => pegSolitairePlugin.detect({ bytes: readFileSync(path) }));
    expect(claimed).toEqual([]);
  });
});
