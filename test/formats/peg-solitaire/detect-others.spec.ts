import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pegSolitairePlugin } from '../../../src/formats/peg-solitaire/peg-solitaire.plugin.js';

/** Every fixture file of the other formats: real data, seeds and examples outside the peg folder. */
function otherFixtures(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path.endsWith(join('realdata', 'peg')) ? [] : otherFixtures(path);
    return [path];
  });
}

describe('peg solitaire detection against the other fixtures', () => {
  const paths = otherFixtures(join('test', 'fixtures')).filter((p) => !/PROVENANCE|README/.test(p));

  it('has other fixtures to look at', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  it('claims none of them', () => {
    const claimed = paths.filter((path) => pegSolitairePlugin.detect({ bytes: readFileSync(path) }));
    expect(claimed).toEqual([]);
  });
});
