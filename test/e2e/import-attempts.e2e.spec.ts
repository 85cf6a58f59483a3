import { jest } from '@jest/globals';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { ImportsRepository } from '../../src/imports/imports.repository.js';
import { tarOf } from '../support/archive-entries.js';

/*
 * An import whose runs fail every time at the same entry: here no file's record can be written
 * (the database refuses it), so each run ends in an error outside the file's own tries, and the
 * import is taken up again where it was. With IMPORT_ATTEMPTS=2 the third run ends it as failed
 * (500 import.stuck) instead of taking it up forever; once records can be written again, a new
 * import goes through.
 */

async function finished(archive: TestArchive, id: number): Promise<{ state: string; problem: { status: number; code: string; detail: string } | null }> {
  for (;;) {
    const answer = await fetch(`${archive.baseUrl}/imports/${id}`);
    expect(answer.status).toBe(200);
    const state = (await answer.json()) as { state: string; problem: { status: number; code: string; detail: string } | null };
    if (state.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an import that fails at the same entry every time', () => {
  let archive: TestArchive;
  beforeAll(async () => {
    archive = await startArchive({ IMPORT_ATTEMPTS: '2' });
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('ends as failed once its runs have failed IMPORT_ATTEMPTS times in a row there, and the next import goes through', async () => {
    const imports = archive.app.get(ImportsRepository);
    const record = jest.spyOn(imports, 'record').mockRejectedValue(new Error('the database refused the record'));
    // A group of files is recorded at once, then (refused) file by file.
    const recordMany = jest.spyOn(imports, 'recordMany').mockRejectedValue(new Error('the database refused the records'));
    const body = await tarOf([
      { name: 'a.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[ee];W[cc])') },
      { name: 'b.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[gg])') },
    ]);
    const answer = await post(archive, '/imports', body, { 'Content-Type': 'application/x-tar' });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: number };
    const ended = await finished(archive, id);
    expect(ended.state).toBe('failed');
    expect(ended.problem).toMatchObject({ status: 500, code: 'import.stuck' });
    expect(ended.problem!.detail).toContain('failed 2 times in a row at its entry in position 0');
    // Two runs, each trying the first file's record before giving up on the import.
    const tries = record.mock.calls.length;
    expect(tries).toBeGreaterThanOrEqual(2);
    // Ended: not taken up again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(record.mock.calls.length).toBe(tries);

    record.mockRestore();
    recordMany.mockRestore();
    const again = await post(archive, '/imports', await tarOf([{ name: 'c.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[dd])') }]), { 'Content-Type': 'application/x-tar' });
    expect(again.status).toBe(202);
    const next = await finished(archive, ((await again.json()) as { id: number }).id);
    expect(next).toMatchObject({ state: 'done', problem: null });
  }, 60_000);
});
