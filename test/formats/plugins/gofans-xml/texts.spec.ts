import { readFileSync } from 'node:fs';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const EXAMPLES = new URL('../../../fixtures/gofans-examples/', import.meta.url);
const example = (version: string): string => readFileSync(new URL(`ex_${version}.xml`, EXAMPLES), 'utf8');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const texts = async (xml: string) => (await gofansXmlPlugin.read({ bytes: Buffer.from(xml), filename: 'game.xml' }, options)).analysis!.texts;

/** An example with `fields` in place of its `<event>Vereinsabend</event>` (the free Header elements after `<players>`). */
const withFields = (version: string, fields: string): string => example(version).replace('<event>Vereinsabend</event>', fields);

describe('GoFans: the words the file writes, for the full-text index', () => {
  it('gives the game comment, place, name, annotator and source of the Header at ply 0, as written', async () => {
    const fields = [
      '<event>Vereinsabend</event>',
      '<gameComment>  Спокойная партия\n  в два ряда </gameComment>',
      '<round>3</round>',
      '<place>Köln &amp; Bonn</place>',
      '<gameName>Finale</gameName>',
      '<annotator>Иван</annotator>',
      '<source><site>holds an element</site></source>',
      '<gameComment>   </gameComment>',
    ].join('');
    for (const version of ['1.1', '2.2']) {
      expect(await texts(withFields(version, fields))).toEqual([
        { ply: 0, text: 'Спокойная партия\n  в два ряда' },
        { ply: 0, text: 'Köln & Bonn' },
        { ply: 0, text: 'Finale' },
        { ply: 0, text: 'Иван' },
      ]);
    }
  });

  it('has no texts in the examples, which write none (their event is not one)', async () => {
    for (const version of ['1.1', '1.2', '2.1', '2.2']) expect(await texts(example(version))).toEqual([]);
  });

  it('keeps 2,000 of 2,001 game comments', async () => {
    const fields = Array.from({ length: 2001 }, (_, i) => `<gameComment>c${i + 1}</gameComment>`).join('');
    const found = (await texts(withFields('2.2', fields)))!;
    expect(found).toHaveLength(2000);
    expect(found[1999]).toEqual({ ply: 0, text: 'c2000' });
  });
});
