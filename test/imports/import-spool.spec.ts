import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spoolChunks, spoolFiles, unspool } from '../../src/imports/import-body.js';

/**
 * An import's spool folder as the database keeps it (issue 32): its files one after the other, cut
 * into chunks of one size, and written back into a folder of another node's from those chunks.
 */
describe('the spool folder kept in chunks', () => {
  let scratch: string;
  const contents: Record<string, Buffer> = {
    body: randomBytes(3000),
    'parts.json': Buffer.from('[{"a":1}]'),
    'part-0': Buffer.alloc(0),
    'part-1': randomBytes(1500),
  };

  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tabula-spool-chunks-'));
    await mkdir(join(scratch, 'in'));
    for (const [name, bytes] of Object.entries(contents)) await writeFile(join(scratch, 'in', name), bytes);
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  async function chunksOf(size: number): Promise<Buffer[]> {
    const files = await spoolFiles(join(scratch, 'in'));
    const chunks: Buffer[] = [];
    for await (const chunk of spoolChunks(join(scratch, 'in'), files, size)) chunks.push(Buffer.from(chunk));
    return chunks;
  }

  it('lists the files by name with their sizes', async () => {
    expect(await spoolFiles(join(scratch, 'in'))).toEqual([
      { name: 'body', bytes: 3000 },
      { name: 'part-0', bytes: 0 },
      { name: 'part-1', bytes: 1500 },
      { name: 'parts.json', bytes: 9 },
    ]);
  });

  it('cuts the files, one after the other, into chunks of the size asked (the last one shorter)', async () => {
    const chunks = await chunksOf(1024);
    // 3000 + 0 + 1500 + 9 = 4509 bytes: four chunks of 1024 and one of 413.
    expect(chunks.map((chunk) => chunk.length)).toEqual([1024, 1024, 1024, 1024, 413]);
    expect(Buffer.concat(chunks).equals(Buffer.concat([contents.body, contents['part-0'], contents['part-1'], contents['parts.json']]))).toBe(true);
  });

  it('writes the same files back from the chunks, into a folder of their own', async () => {
    const chunks = await chunksOf(1024);
    const files = await spoolFiles(join(scratch, 'in'));
    const out = join(scratch, 'out');
    expect(await unspool(out, files, async (seq) => chunks[seq])).toBe(true);
    for (const [name, bytes] of Object.entries(contents)) expect((await readFile(join(out, name))).equals(bytes)).toBe(true);
  });

  it('answers false and leaves no folder when a chunk is missing', async () => {
    const chunks = await chunksOf(1024);
    const files = await spoolFiles(join(scratch, 'in'));
    const out = join(scratch, 'out');
    expect(await unspool(out, files, async (seq) => (seq === 3 ? undefined : chunks[seq]))).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a listed name that is not a plain file name of the folder', async () => {
    const out = join(scratch, 'out');
    await expect(unspool(out, [{ name: '../escape', bytes: 1 }], async () => Buffer.from('x'))).rejects.toThrow(/not a spool file's name/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(scratch, 'escape'))).toBe(false);
  });
});
