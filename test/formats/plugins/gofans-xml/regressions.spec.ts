import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const example = readFileSync(new URL('../../../fixtures/gofans-examples/ex_1.1.xml', import.meta.url), 'utf8');
const read = (xml: string) => gofansXmlPlugin.read({ bytes: Buffer.from(xml, 'utf8') }, options);

/** Inputs the fuzzing in test/fuzz found, each once a crash (a plain Error or TypeError instead of a FormatError). */
describe('GoFans regressions from fuzzing', () => {
  // XML names may contain, and start with, U+FEFF (it lies in the NameStartChar range #xFDF0-#xFFFD),
  // which JavaScript's \s matches: our reader took it for white space and lost the name.
  it('a header field named with U+FEFF is read as libxml2 reads it', async () => {
    const xml = example.replace('<event>Vereinsabend</event>', '<event\uFEFF>Vereinsabend</event\uFEFF>');
    const record = await read(xml);
    expect(record.analysis!.details.header).toEqual({ 'event\uFEFF': 'Vereinsabend' });
  });

  it('an attribute whose name starts with U+FEFF is refused by the schema, not by a crash', async () => {
    const xml = example.replace('<move playerId="1"', '<move \uFEFFplayerId="1"');
    const error = await read(xml).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).message).toContain('GoFans-1.1.xsd');
  });
});
