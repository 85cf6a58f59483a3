import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { getDataSourceToken } from '@nestjs/typeorm';
import * as tar from 'tar-stream';
import type { DataSource } from 'typeorm';
import { ZipFile } from 'yazl';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { tarOf } from '../support/archive-entries.js';

/**
 * Bulk imports: archives of real files written by other programs, whose outcomes follow from the
 * files themselves — GNU Go's SGF games and the PDN databases are readable game records (the PDN
 * ones counted by their `[White` tags), a peg board is one, random bytes are none — plus hostile
 * archives built here.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../fixtures/realdata/${path}`, import.meta.url));
const GO = ['9x9-1.sgf', '9x9-2.sgf', 'ego3.sgf'].map((name) => ({ name, bytes: fixture(`go/gnugo_regression_games/${name}`) }));
const USSR_1947 = fixture('checkers/russian/ussr1947.pdn');
const ABATSIEV = fixture('checkers/russian/abatsiev.pdn');
const PEG = fixture('peg/v2_head/Arrow.brd');
const whites = (pdn: Buffer) => [...pdn.toString('latin1').matchAll(/^\[White /gm)].length;

/** Bytes no format reads: a fixed pseudo-random sequence with NULs and high bytes. */
const JUNK = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24));

interface Line {
  position: number;
  path: string;
  outcome: string;
  gameIds: number[];
  uploadId: number | null;
  problem: { code: string; status: number } | null;
}

async function zipOf(entries: { name: string; bytes: Buffer; mode?: number }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) zip.addBuffer(entry.bytes, entry.name, entry.mode === undefined ? {} : { mode: entry.mode });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A zip whose entry names are changed after the fact (yazl refuses unsafe names): same length, both headers. */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
  const text = zip.toString('latin1');
  expect(text.split(from)).toHaveLength(3);
  return Buffer.from(text.split(from).join(to), 'latin1');
}

async function started(archive: TestArchive, body: Buffer | FormData, headers: Record<string, string> = {}): Promise<{ id: number; location: string | null; body: Record<string, unknown> }> {
  const answer = await post(archive, '/imports', body, headers);
  const json = await answer.json();
  expect({ status: answer.status, json }).toMatchObject({ status: 202 });
  return { id: json.id, location: answer.headers.get('location'), body: json };
}

async function progress(archive: TestArchive, id: number): Promise<Record<string, unknown>> {
  const answer = await fetch(`${archive.baseUrl}/imports/${id}`);
  expect(answer.status).toBe(200);
  return answer.json();
}

async function finished(archive: TestArchive, id: number): Promise<Record<string, unknown>> {
  for (;;) {
    const state = await progress(archive, id);
    if (state.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function results(archive: TestArchive, id: number): Promise<Line[]> {
  const answer = await fetch(`${archive.baseUrl}/imports/${id}/results`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const text = await answer.text();
  return text.length === 0 ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
}

describe('bulk imports', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ MAX_IMPORT_EXPANDED_BYTES: String(4 * 1024 * 1024), MAX_UPLOAD_BYTES: String(512 * 1024) });
  });
  afterAll(async () => {
    await archive.close();
  });

  const realFiles = () => [
    ...GO.map(({ name, bytes }) => ({ name: `go/${name}`, bytes })),
    { name: 'checkers/ussr1947.pdn', bytes: USSR_1947 },
    { name: 'peg/Arrow.brd', bytes: PEG },
    { name: 'junk.bin', bytes: JUNK },
  ];

  /** What the real files are: the SGF and PDN records and the board are read, the junk is refused as binary. */
  function expectRealOutcomes(lines: Line[], prefix = '') {
    expect(lines.map((line) => [line.position, line.path])).toEqual(realFiles().map((file, position) => [position, prefix + file.name]));
    for (const line of lines.slice(0, 3)) expect(line).toMatchObject({ outcome: 'indexed', gameIds: [expect.any(Number)], problem: null });
    expect(lines[3].outcome).toBe('indexed');
    expect(lines[3].gameIds).toHaveLength(whites(USSR_1947));
    expect(lines[4]).toMatchObject({ outcome: 'indexed', gameIds: [expect.any(Number)] });
    expect(lines[5]).toMatchObject({ outcome: 'refused', gameIds: [], uploadId: null, problem: { code: 'upload.binary', status: 415 } });
  }

  let zipped: Buffer;
  let zipLines: Line[];

  it('imports a zip of real files in the background, one outcome per file', async () => {
    zipped = await zipOf(realFiles());
    const { id, location, body } = await started(archive, zipped, { 'Content-Type': 'application/zip' });
    expect(location).toBe(`/imports/${id}`);
    expect(body).toMatchObject({ kind: 'zip', filesTotal: 6 });
    const done = await finished(archive, id);
    const games = 3 + whites(USSR_1947) + 1;
    expect(done).toMatchObject({ state: 'done', filesTotal: 6, filesDone: 6, gamesStored: games, duplicates: 0, refused: 1, problem: null });
    zipLines = await results(archive, id);
    expectRealOutcomes(zipLines);
    // Each file is kept whole as an upload, its games served from it.
    const kept = await fetch(`${archive.baseUrl}/uploads/${zipLines[0].uploadId}/raw`);
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(GO[0].bytes);
    const pdn = await (await fetch(`${archive.baseUrl}/uploads/${zipLines[3].uploadId}`)).json();
    expect(pdn.games.map((game: { gameId: number }) => game.gameId)).toEqual(zipLines[3].gameIds);
    const game = await (await fetch(`${archive.baseUrl}/games/${zipLines[1].gameIds[0]}`)).json();
    expect(game.filename).toBe('9x9-2.sgf');
  });

  it('finds every file of the same zip a duplicate the second time, storing nothing', async () => {
    const { id } = await started(archive, zipped);
    const done = await finished(archive, id);
    expect(done).toMatchObject({ state: 'done', filesDone: 6, gamesStored: 0, duplicates: 3 + whites(USSR_1947) + 1, refused: 1 });
    const lines = await results(archive, id);
    expect(lines.map((line) => line.outcome)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'refused']);
    expect(lines.map((line) => line.gameIds)).toEqual(zipLines.map((line) => line.gameIds));
    expect(lines.map((line) => line.uploadId)).toEqual(zipLines.map((line) => line.uploadId));
  });

  it('imports a tar.gz with directories, skipping them, and refuses links, unsafe paths and nested archives per file', async () => {
    const nested = await zipOf([{ name: 'inner.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[ee])') }]);
    const fresh = '(;GM[1]FF[4]SZ[9]PB[Tar]PW[Ball]RE[B+R];B[cc];W[gg])';
    const body = gzipSync(
      await tarOf([
        { name: 'games/', type: 'directory' },
        { name: 'games/fresh.sgf', bytes: Buffer.from(fresh) },
        { name: 'games/link.sgf', type: 'symlink', linkname: 'fresh.sgf' },
        { name: '../escape.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[dd])') },
        { name: '/etc/absolute.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[de])') },
        { name: 'games/inner.zip', bytes: nested },
        { name: 'games/big.sgf', bytes: Buffer.alloc(600 * 1024, 0x20) },
        { name: 'games/ussr1947.pdn', bytes: USSR_1947 },
      ]),
    );
    const { id, body: taken } = await started(archive, body, { 'Content-Type': 'application/gzip' });
    expect(taken).toMatchObject({ kind: 'tar.gz', filesTotal: 7 });
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 7, gamesStored: 1, duplicates: whites(USSR_1947), refused: 5 });
    const lines = await results(archive, id);
    expect(lines.map((line) => [line.path, line.outcome, line.problem?.code ?? null])).toEqual([
      ['games/fresh.sgf', 'indexed', null],
      ['games/link.sgf', 'refused', 'import.not_a_file'],
      ['../escape.sgf', 'refused', 'import.unsafe_path'],
      ['/etc/absolute.sgf', 'refused', 'import.unsafe_path'],
      ['games/inner.zip', 'refused', 'import.nested_archive'],
      ['games/big.sgf', 'refused', 'upload.too_large'],
      ['games/ussr1947.pdn', 'duplicate', null],
    ]);
    expect(lines[6].gameIds).toEqual(zipLines[3].gameIds);
  });

  it('refuses unsafe names and symbolic links in a zip per file', async () => {
    const safe = '(;GM[1]FF[4]SZ[9]PB[Zip]PW[Safe];B[ff])';
    const zip = renamed(
      await zipOf([
        { name: 'xx/evil.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[ab])') },
        { name: 'link.sgf', bytes: Buffer.from('safe.sgf'), mode: 0o120777 },
        { name: 'safe.sgf', bytes: Buffer.from(safe) },
      ]),
      'xx/evil.sgf',
      '../evil.sgf',
    );
    const { id } = await started(archive, zip);
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 3, gamesStored: 1, refused: 2 });
    expect((await results(archive, id)).map((line) => [line.path, line.outcome, line.problem?.code ?? null])).toEqual([
      ['../evil.sgf', 'refused', 'import.unsafe_path'],
      ['link.sgf', 'refused', 'import.not_a_file'],
      ['safe.sgf', 'indexed', null],
    ]);
  });

  it('records an entry whose damaged name holds a NUL (which PostgreSQL cannot store) as refused, the NUL written out', async () => {
    const zip = renamed(
      await zipOf([
        { name: 'xames/one.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Nul]PW[Name];B[ag])') },
        { name: 'two.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Nul]PW[After];B[ah])') },
      ]),
      'xames/one.sgf',
      '\u0000ames/one.sgf',
    );
    const { id } = await started(archive, zip);
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 2, gamesStored: 1, refused: 1 });
    const lines = await results(archive, id);
    expect(lines.map((line) => [line.path, line.outcome, line.problem?.code ?? null])).toEqual([
      ['\\u0000ames/one.sgf', 'refused', 'import.unsafe_path'],
      ['two.sgf', 'indexed', null],
    ]);
  });

  it('refuses per file a zip entry whose CRC-32 does not match its bytes, storing the others', async () => {
    const zip = await zipOf([
      { name: 'before.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Crc]PW[Before];B[ac])') },
      { name: 'altered.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Crc]PW[Altered];B[ad])') },
      { name: 'after.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Crc]PW[After];B[ae])') },
    ]);
    // The CRC-32 of altered.sgf changed in its local header (at 14) and its central directory entry (at 16).
    let flipped = 0;
    for (const [signature, nameAt, crcAt] of [[0x04034b50, 30, 14], [0x02014b50, 46, 16]]) {
      for (let at = 0; at + nameAt <= zip.length; at++) {
        if (zip.readUInt32LE(at) !== signature) continue;
        const nameLength = zip.readUInt16LE(at + (signature === 0x04034b50 ? 26 : 28));
        if (zip.toString('latin1', at + nameAt, at + nameAt + nameLength) !== 'altered.sgf') continue;
        zip.writeUInt32LE((zip.readUInt32LE(at + crcAt) ^ 0x00ff00ff) >>> 0, at + crcAt);
        flipped++;
      }
    }
    expect(flipped).toBe(2);
    const { id } = await started(archive, zip);
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 3, gamesStored: 2, refused: 1 });
    const lines = await results(archive, id);
    expect(lines.map((line) => [line.path, line.outcome, line.problem?.code ?? null])).toEqual([
      ['before.sgf', 'indexed', null],
      ['altered.sgf', 'refused', 'import.checksum_mismatch'],
      ['after.sgf', 'indexed', null],
    ]);
    expect((await finished(archive, id)).gamesStored).toBe(2);
  });

  it.each([false, true])('refuses per file a tar entry whose header fails its checksum, storing the others (gzipped: %s)', async (gzipped) => {
    const tag = gzipped ? 'Gz' : 'Plain';
    const plain = await tarOf([
      { name: 'first.sgf', bytes: Buffer.from(`(;GM[1]FF[4]SZ[9]PB[Sum${tag}]PW[First];B[bc])`) },
      { name: 'damaged.sgf', bytes: Buffer.from(`(;GM[1]FF[4]SZ[9]PB[Sum${tag}]PW[Damaged];B[bd])`) },
      { name: 'last.sgf', bytes: Buffer.from(`(;GM[1]FF[4]SZ[9]PB[Sum${tag}]PW[Last];B[be])`) },
    ]);
    // Each entry is a header block and one data block: damaged.sgf's header is the third block.
    const header = plain.subarray(2 * 512, 3 * 512);
    expect(header.toString('latin1', 0, 11)).toBe('damaged.sgf');
    header[148] = header[148] === 0x37 ? 0x36 : header[148] + 1;
    const { id } = await started(archive, gzipped ? gzipSync(plain) : plain, gzipped ? { 'Content-Type': 'application/gzip' } : {});
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 3, gamesStored: 2, refused: 1 });
    expect((await results(archive, id)).map((line) => [line.path, line.outcome, line.problem?.code ?? null])).toEqual([
      ['first.sgf', 'indexed', null],
      ['damaged.sgf', 'refused', 'import.checksum_mismatch'],
      ['last.sgf', 'indexed', null],
    ]);
  });

  it('refuses a zip bomb and a tar.gz bomb up front, storing nothing', async () => {
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    const bomb = await zipOf([
      { name: 'a.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9];B[aa])') },
      { name: 'zeros.sgf', bytes: zeros },
    ]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const answer = await post(archive, '/imports', bomb);
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await answer.json()).code).toBe('import.expanded_too_large');

    const tarBomb = gzipSync(await tarOf([{ name: 'zeros.sgf', bytes: zeros }]));
    const again = await post(archive, '/imports', tarBomb);
    expect(again.status).toBe(422);
    expect((await again.json()).code).toBe('import.expanded_too_large');
  });

  it('writes single-game files together, each recorded with what became of it: a file sent twice, a game sent again inside a collection', async () => {
    const game = (name: string) => Buffer.from(`(;GM[1]FF[4]SZ[9]PB[${name}]PW[Grouped]RE[W+R];B[cc];W[gg])`);
    const [a, b, c] = [game('Aoi'), game('Bea'), game('Cid')];
    const body = await tarOf([
      { name: 'group/a.sgf', bytes: a },
      { name: 'group/b.sgf', bytes: b },
      // The same bytes as a.sgf: a duplicate of that file.
      { name: 'group/again-a.sgf', bytes: a },
      // A collection of b's game (the same bytes) and a new one.
      { name: 'group/b-and-c.sgf', bytes: Buffer.concat([b, Buffer.from('\n'), c]) },
    ]);
    const { id } = await started(archive, body);
    const done = await finished(archive, id);
    expect(done).toMatchObject({ state: 'done', filesDone: 4, gamesStored: 3, duplicates: 2, refused: 0 });
    const lines = await results(archive, id);
    expect(lines.map((line) => [line.path, line.outcome])).toEqual([
      ['group/a.sgf', 'indexed'],
      ['group/b.sgf', 'indexed'],
      ['group/again-a.sgf', 'duplicate'],
      ['group/b-and-c.sgf', 'indexed'],
    ]);
    const [first, second, again, both] = lines;
    expect(again.uploadId).toBe(first.uploadId);
    expect(again.gameIds).toEqual(first.gameIds);
    expect(both.gameIds[0]).toBe(second.gameIds[0]);
    expect(new Set([first.gameIds[0], second.gameIds[0], both.gameIds[1]]).size).toBe(3);
    // Each file kept once, with its games where the file has them.
    const upload = (await (await fetch(`${archive.baseUrl}/uploads/${both.uploadId}`)).json()) as { games: { outcome: string; gameId: number; start: number; end: number }[] };
    expect(upload.games.map((entry) => [entry.outcome, entry.gameId])).toEqual([
      ['duplicate', second.gameIds[0]],
      ['indexed', both.gameIds[1]],
    ]);
    expect(upload.games[1].start).toBe(b.length + 1);
  });

  it('imports a multipart batch of several files in the order sent', async () => {
    const form = new FormData();
    const one = '(;GM[1]FF[4]SZ[9]PB[Multi]PW[Part]RE[W+R];B[ee];W[ec])';
    form.append('file', new Blob([one]), 'one.sgf');
    form.append('file', new Blob([new Uint8Array(ABATSIEV)]), 'abatsiev.pdn');
    form.append('file', new Blob([new Uint8Array(JUNK)]), 'junk.bin');
    const { id, body } = await started(archive, form);
    expect(body).toMatchObject({ kind: 'multipart', filesTotal: 3 });
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 3, gamesStored: 1 + whites(ABATSIEV), refused: 1 });
    const lines = await results(archive, id);
    expect(lines.map((line) => [line.path, line.outcome, line.gameIds.length])).toEqual([
      ['one.sgf', 'indexed', 1],
      ['abatsiev.pdn', 'indexed', whites(ABATSIEV)],
      ['junk.bin', 'refused', 0],
    ]);
  });

  it('imports a PDN collection sent alone as one file of many games', async () => {
    // The first three games of the 1947 database (each game opens with its White tag): a file of its own, games the archive has.
    const fourth = [...USSR_1947.toString('latin1').matchAll(/^\[White /gm)][3].index;
    const { id, body } = await started(archive, USSR_1947.subarray(0, fourth), { 'Content-Type': 'application/x-pdn' });
    expect(body).toMatchObject({ kind: 'file', filesTotal: 1 });
    expect(await finished(archive, id)).toMatchObject({ state: 'done', filesDone: 1, gamesStored: 0, duplicates: 3, refused: 0 });
    const [line] = await results(archive, id);
    expect(line).toMatchObject({ position: 0, outcome: 'duplicate', gameIds: zipLines[3].gameIds.slice(0, 3), problem: null });
    expect(line.uploadId).not.toBe(zipLines[3].uploadId);

    // And ABATSIEV's games are new to the archive only once: the multipart batch above stored them.
    const whole = await started(archive, ABATSIEV);
    expect(await finished(archive, whole.id)).toMatchObject({ state: 'done', filesDone: 1, gamesStored: 0, duplicates: whites(ABATSIEV) });
  });

  it('tells the progress of the import in hand at once, while other transactions hold every connection to the database', async () => {
    // Several groups' worth of single-game files (the runner writes up to 250 in one transaction), so the import is still in hand after its first.
    const COUNT = 800;
    const body = await tarOf(Array.from({ length: COUNT }, (_, i) => ({ name: `held/${i}.sgf`, bytes: Buffer.from(`(;GM[1]FF[4]SZ[9]PB[Held ${i}]PW[Waiting]RE[B+R];B[ee])`) })));
    const { id } = await started(archive, body);
    let seen: Record<string, unknown>;
    do {
      seen = await progress(archive, id);
    } while ((seen.filesDone as number) < 1);
    // Every connection of the pool is taken (the embedded database's one, or a server's
    // DATABASE_POOL_SIZE): the import's next file, and any request that needs the database, wait
    // until they are given back (and fail after 5 s). The progress is answered all the same.
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const poolSize = (db.options as { extra?: { max?: number } }).extra?.max ?? 1;
    const held = Array.from({ length: poolSize }, () => db.createQueryRunner());
    let during: Record<string, unknown>;
    try {
      for (const runner of held) {
        await runner.connect();
        await runner.startTransaction();
      }
      const answer = await fetch(`${archive.baseUrl}/imports/${id}`, { signal: AbortSignal.timeout(3_000) });
      expect(answer.status).toBe(200);
      during = await answer.json();
    } finally {
      for (const runner of held) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
    expect(during).toMatchObject({ id, filesTotal: COUNT });
    expect(during.filesDone as number).toBeGreaterThanOrEqual(seen.filesDone as number);
    const done = await finished(archive, id);
    expect(done).toMatchObject({ state: 'done', filesDone: COUNT, gamesStored: COUNT, duplicates: 0, refused: 0 });
    expect((await results(archive, id)).map((line) => line.outcome)).toEqual(Array(COUNT).fill('indexed'));
  });

  it('answers unknown imports, bad ids and oversized or empty bodies as problems', async () => {
    const missing = await fetch(`${archive.baseUrl}/imports/999999`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('import.not_found');
    expect((await fetch(`${archive.baseUrl}/imports/abc/results`)).status).toBe(400);
    const noPart = new FormData();
    noPart.append('other', 'x');
    const answer = await post(archive, '/imports', noPart);
    expect(answer.status).toBe(400);
    expect((await answer.json()).code).toBe('upload.multipart');
  });
});

describe('bulk imports past MAX_IMPORT_BYTES', () => {
  it('refuses the body with 413 once it passes the limit', async () => {
    const archive = await startArchive({ MAX_IMPORT_BYTES: '1000' });
    try {
      const answer = await post(archive, '/imports', Buffer.alloc(5000, 0x41));
      expect(answer.status).toBe(413);
      expect((await answer.json()).code).toBe('import.too_large');
    } finally {
      await archive.close();
    }
  });
});

describe('an import across a restart', () => {
  const COUNT = 300;
  const game = (i: number) => `(;GM[1]FF[4]SZ[9]PB[Restart ${i}]PW[Resume]RE[B+R];B[ee];W[${String.fromCharCode(97 + (i % 9))}a])`;
  let settings: Record<string, string>;
  let scratch: ScratchDatabase | undefined;
  let folder: string | undefined;

  beforeAll(async () => {
    const server = process.env.TABULA_TEST_DATABASE_URL;
    if (server) {
      scratch = await createScratchDatabase(server, 'tabula_test');
      settings = { DATABASE_URL: scratch.url };
    } else {
      folder = await mkdtemp(join(tmpdir(), 'tabula-import-restart-'));
      settings = { DATA_DIR: folder };
    }
  });
  afterAll(async () => {
    await scratch?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('goes on after the last finished file when the archive starts again, storing no file twice', async () => {
    const body = await tarOf(Array.from({ length: COUNT }, (_, i) => ({ name: `restart/${i}.sgf`, bytes: Buffer.from(game(i)) })));
    const first = await startArchive(settings);
    let id: number;
    let seen: Record<string, unknown>;
    try {
      ({ id } = await started(first, body));
      do {
        seen = await progress(first, id);
      } while ((seen.filesDone as number) < 3);
    } finally {
      await first.close();
    }
    // Stopped part-way: the archive was closed while files were left.
    expect(seen.state).toBe('running');
    expect(seen.filesDone as number).toBeLessThan(COUNT);

    const second = await startArchive(settings);
    try {
      const done = await finished(second, id);
      expect(done).toMatchObject({ state: 'done', filesTotal: COUNT, filesDone: COUNT, gamesStored: COUNT, duplicates: 0, refused: 0 });
      const lines = await results(second, id);
      expect(lines.map((line) => line.position)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
      expect(lines.every((line) => line.outcome === 'indexed' && line.gameIds.length === 1)).toBe(true);
      expect(new Set(lines.map((line) => line.gameIds[0])).size).toBe(COUNT);
      const db = second.app.get<DataSource>(getDataSourceToken(), { strict: false });
      const [{ games, uploads }] = await db.query(`SELECT (SELECT count(*)::int FROM games) AS games, (SELECT count(*)::int FROM uploads) AS uploads`);
      expect({ games, uploads }).toEqual({ games: COUNT, uploads: COUNT });
      const playerOf = await (await fetch(`${second.baseUrl}/games/${lines[COUNT - 1].gameIds[0]}`)).json();
      expect(playerOf.players.map((player: { name: string }) => player.name)).toContain(`Restart ${COUNT - 1}`);
    } finally {
      await second.close();
    }
  }, 180_000);
});
