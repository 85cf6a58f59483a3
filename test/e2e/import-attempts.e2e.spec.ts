import { jest } from '@jest/globals';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ImportRunner } from '../../src/imports/import-runner.js';
import { ImportsRepository } from '../../src/imports/imports.repository.js';
import { UploadsService } from '../../src/uploads/uploads.service.js';
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

/*
 * A run its node stops on purpose (a shutdown: a restart, a deploy) before it gets past its first
 * entry is no failed run: it gives its count back, so restarts alone never end an import as stuck.
 * And a file whose step fails as the node stops (its reading cut short with the analysis threads,
 * say) is no refused file: it is left for the next start, not recorded.
 */
describe('an import whose node shuts down before its first entry is written', () => {
  let archive: TestArchive;
  beforeAll(async () => {
    archive = await startArchive({ IMPORT_ATTEMPTS: '2' });
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('is not counted as a failed run, records no refusal, and is left running for the next start', async () => {
    const uploads = archive.app.get(UploadsService);
    let fail!: () => void;
    const failed = new Promise<never>((_, reject) => (fail = () => reject(new Error('the analysis threads ended'))));
    failed.catch(() => undefined);
    // The file's games are being read when the node shuts down; then the reading fails.
    const read = jest.spyOn(uploads, 'read').mockImplementation(() => failed);
    const answer = await post(archive, '/imports', await tarOf([{ name: 'a.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[ee];W[cc])') }]), { 'Content-Type': 'application/x-tar' });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: number };
    while (read.mock.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const state = async () => ({
      import: ((await db.query('SELECT attempts, attempted_from, state FROM imports WHERE id = $1', [id])) as unknown[])[0],
      entries: ((await db.query('SELECT position, outcome FROM import_entries WHERE import_id = $1', [id])) as unknown[]).length,
    });
    // The run has begun at the first entry, and counted itself.
    expect(await state()).toEqual({ import: { attempts: 1, attempted_from: 0, state: 'running' }, entries: 0 });
    const stopped = archive.app.get(ImportRunner).beforeApplicationShutdown();
    fail();
    await stopped;
    expect(await state()).toEqual({ import: { attempts: 0, attempted_from: 0, state: 'running' }, entries: 0 });
    read.mockRestore();
  }, 60_000);
});
