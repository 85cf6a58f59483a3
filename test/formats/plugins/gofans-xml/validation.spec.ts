import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { GOFANS_SCHEMAS, STANDARD_SCHEMA } from '../../../../src/formats/plugins/gofans-xml/schemas.js';
import { validateWithSchema, validatorMemoryPages } from '../../../../src/formats/plugins/gofans-xml/validation.js';
import { runXmllint } from '../../../../src/formats/plugins/gofans-xml/xmllint.js';

const EXAMPLE = readFileSync(new URL('../../../fixtures/gofans-examples/ex_2.2.xml', import.meta.url), 'utf8');
const SCHEMA = GOFANS_SCHEMAS['2.2'];
const MIB = 1024 * 1024;
/** About 9 MB of elements: more than libxml2 can hold in 64 MiB. */
const OVERSIZED = `<?xml version="1.0"?><a>${'<b c="1234567890">x</b>'.repeat(400_000)}</a>`;

const outcome = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'valid', (error: unknown) => error);

describe('xmllint in the calling thread', () => {
  it('answers many concurrent validations, each with its own document’s outcome', async () => {
    const documents = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? EXAMPLE.replace('<Header>', `<Header><Stray${i}/>`) : EXAMPLE));
    const results = await Promise.all(documents.map((xml) => outcome(validateWithSchema(xml, SCHEMA))));
    results.forEach((result, i) => {
      if (i % 3 === 0) {
        expect(result).toBeInstanceOf(FormatError);
        expect((result as FormatError).message).toContain(`Element 'Stray${i}'`);
        expect((result as FormatError).issues.map((issue) => issue.message).join()).not.toMatch(new RegExp(`Stray(?!${i}')`));
      } else {
        expect(result).toBe('valid');
      }
    });
  });

  it('runs the program with the memory it is given: libxml2 reports running out (exit 9), and the next run is fresh', async () => {
    const files = [
      { fileName: 'game.xml', contents: OVERSIZED },
      { fileName: 'schema.xsd', contents: SCHEMA.text },
    ];
    const args = ['--schema', 'schema.xsd', '--noout', 'game.xml'];
    expect((await runXmllint(files, args, { initialPages: 256, maxPages: 1024 })).exitCode).toBe(9);
    const valid = [{ fileName: 'game.xml', contents: EXAMPLE }, files[1]];
    expect(await runXmllint(valid, args, { initialPages: 256, maxPages: 1024 })).toEqual({ exitCode: 0, stderr: 'game.xml validates\n' });
  });

  it('fails with a plain Error when the program cannot even start', async () => {
    const failure = await outcome(runXmllint([{ fileName: 'game.xml', contents: EXAMPLE }], ['--noout', 'game.xml'], { initialPages: 2048, maxPages: 1024 }));
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(FormatError);
  });
});

describe('the validator’s memory', () => {
  it('grows with the document from 64 MiB up to a 1 GiB ceiling', () => {
    expect(validatorMemoryPages(0)).toBe(64 * 16); // 16 pages of 64 KiB per MiB
    expect(validatorMemoryPages(10 * MIB)).toBeGreaterThan(validatorMemoryPages(MIB));
    expect(validatorMemoryPages(100 * MIB)).toBe(1024 * 16);
  });

  it('lets a document that needs more than 64 MiB reach a verdict on its content', async () => {
    const verdict = await outcome(validateWithSchema(OVERSIZED, SCHEMA));
    expect(verdict).toBeInstanceOf(FormatError);
    expect((verdict as FormatError).message).toContain("No matching global declaration available for the validation root");
  });

  it('blames the validator, not the document, when its memory runs out: a plain Error, not a FormatError', async () => {
    const failure = await outcome(validateWithSchema(OVERSIZED, SCHEMA, 1024));
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(FormatError);
    expect((failure as Error).message).toContain('memory');
  });

  it('validates the densest markup at the default upload limit (10 MB of empty elements) within its memory', async () => {
    const filler = '<a/>'.repeat((10 * 1000 * 1000) / 4 - 30);
    const xml = `<Game><Publisher>X</Publisher><Version>1</Version><Header>${filler}</Header><Body/></Game>`;
    expect(xml.length).toBeLessThanOrEqual(10 * 1000 * 1000);
    await expect(validateWithSchema(xml, STANDARD_SCHEMA)).resolves.toBeUndefined();
  });
});

describe('schema errors', () => {
  it('gives line and column for a schema violation', async () => {
    const text = EXAMPLE.replace('<Header>', '<Header><Stray/>');
    const refusal = (await outcome(validateWithSchema(text, SCHEMA))) as FormatError;
    expect(refusal).toBeInstanceOf(FormatError);
    const line = text.split('\n').findIndex((l) => l.includes('<Stray/>')) + 1;
    const column = text.split('\n')[line - 1].indexOf('<Stray/>') + 1;
    expect(refusal.issues[0]).toMatchObject({ line, column });
    expect(refusal.issues[0].message).toContain("Element 'Stray'");
  });
});
