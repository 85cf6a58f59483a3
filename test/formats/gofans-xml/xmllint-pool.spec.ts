import { readFileSync } from 'node:fs';
import { FormatError } from '../../../src/formats/errors.js';
import { GOFANS_SCHEMAS } from '../../../src/formats/gofans-xml/schemas.js';
import { validateWithSchema } from '../../../src/formats/gofans-xml/validation.js';
import { XmllintJob, XmllintPool } from '../../../src/formats/gofans-xml/xmllint-pool.js';

const EXAMPLE = readFileSync(new URL('../../fixtures/gofans-examples/ex_2.2.xml', import.meta.url), 'utf8');
const SCHEMA = GOFANS_SCHEMAS['2.2'];
/** About 9 MB of elements: more than libxml2 can hold in the validator's 64 MiB. */
const OVERSIZED = `<?xml version="1.0"?><a>${'<b c="1234567890">x</b>'.repeat(400_000)}</a>`;

function job(xml: string, memory = { initialMemoryPages: 256, maxMemoryPages: 1024 }): XmllintJob {
  return {
    files: [
      { fileName: 'game.xml', contents: xml },
      { fileName: 'schema.xsd', contents: SCHEMA.text },
    ],
    args: ['--schema', 'schema.xsd', '--noout', 'game.xml'],
    ...memory,
  };
}

describe('the xmllint worker pool', () => {
  it('answers many concurrent jobs, each with its own document’s outcome', async () => {
    const pool = new XmllintPool(2);
    const documents = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0 ? EXAMPLE.replace('<Header>', `<Header><Stray${i}/>`) : EXAMPLE,
    );
    const runs = await Promise.all(documents.map((xml) => pool.run(job(xml))));
    runs.forEach((run, i) => {
      if (i % 3 === 0) {
        expect(run.exitCode).toBe(3);
        expect(run.stderr).toContain(`Element 'Stray${i}'`);
        expect(run.stderr).not.toMatch(new RegExp(`Stray(?!${i}')`));
      } else {
        expect(run).toEqual({ exitCode: 0, stderr: 'game.xml validates\n' });
      }
    });
  });

  it('reports a document that exhausts the memory cap, and keeps validating afterwards', async () => {
    const pool = new XmllintPool(1);
    expect((await pool.run(job(OVERSIZED))).exitCode).toBe(9);
    expect((await pool.run(job(EXAMPLE))).exitCode).toBe(0);
  });

  it('fails the jobs of a worker that dies and starts a new worker for the next job', async () => {
    const pool = new XmllintPool(1);
    // A memory whose initial size exceeds its maximum cannot be created: the worker throws and dies.
    await expect(pool.run(job(EXAMPLE, { initialMemoryPages: 2048, maxMemoryPages: 1024 }))).rejects.toThrow();
    expect((await pool.run(job(EXAMPLE))).exitCode).toBe(0);
  });
});

describe('XSD validation through the pool', () => {
  it('refuses a document too large for the validator with a clear reason', async () => {
    const refusal = await validateWithSchema(OVERSIZED, SCHEMA).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FormatError);
    expect((refusal as FormatError).message).toContain('too large');
    expect((refusal as FormatError).issues[0].message).toContain('memory cap');
  });

  it('gives line and column for a schema violation', async () => {
    const text = EXAMPLE.replace('<Header>', '<Header><Stray/>');
    const refusal = (await validateWithSchema(text, SCHEMA).catch((error: unknown) => error)) as FormatError;
    expect(refusal).toBeInstanceOf(FormatError);
    const line = text.split('\n').findIndex((l) => l.includes('<Stray/>')) + 1;
    const column = text.split('\n')[line - 1].indexOf('<Stray/>') + 1;
    expect(refusal.issues[0]).toMatchObject({ line, column });
    expect(refusal.issues[0].message).toContain("Element 'Stray'");
  });
});
