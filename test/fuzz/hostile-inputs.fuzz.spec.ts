import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { ZipFile } from 'yazl';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { FORMAT_PLUGINS } from '../../src/formats/registry.js';
import { FIXTURES, FUZZ_SCALE } from '../support/fuzz.js';

/**
 * The shapes of issue 31's fault run, kept in the fuzz suite: long text in every format's header
 * fields, JSON nested past any sane depth on every route that reads JSON (found in the OpenAPI spec,
 * so a new route is fuzzed without being named here), and corrupt or truncated zips, tars and
 * tar.gz files. Every answer is below 500, every error is problem+json with a code, and the archive
 * serves afterwards.
 */

interface Problem {
  status: number;
  code: string;
}

/** The answer is a success, or an error below 500 as problem+json with a code; the problem, if any. */
async function answeredWell(response: Response, what: string, success?: (body: unknown) => void): Promise<Problem | null> {
  expect([what, response.status < 500]).toEqual([what, true]);
  if (response.status < 400) {
    const text = await response.text();
    success?.(response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text);
    return null;
  }
  expect([what, response.headers.get('content-type')]).toEqual([what, expect.stringMatching(/^application\/problem\+json/)]);
  const problem = (await response.json()) as Problem;
  expect([what, typeof problem.code, problem.status]).toEqual([what, 'string', response.status]);
  return problem;
}

/** The archive still answers: /health, an upload and its read-back. */
async function stillServing(archive: TestArchive): Promise<void> {
  expect((await fetch(`${archive.baseUrl}/health`)).status).toBe(200);
  const text = `(;GM[1]FF[4]SZ[9]PB[Still]PW[Serving ${Math.random()}];B[cc])`;
  const stored = await post(archive, '/games?filename=after-fuzz.sgf', Buffer.from(text), { 'Content-Type': 'application/x-go-sgf' });
  expect(stored.status).toBe(201);
  const { id } = (await stored.json()) as { id: number };
  expect(await (await fetch(`${archive.baseUrl}/games/${id}/raw`)).text()).toBe(text);
}

let archive: TestArchive;

beforeAll(async () => {
  archive = await startArchive({ MAX_UPLOAD_BYTES: String(1024 * 1024), MAX_IMPORT_EXPANDED_BYTES: String(4 * 1024 * 1024) });
});
afterAll(async () => {
  await archive?.close();
});

// ---------------------------------------------------------------------------------------------
// Long text in header fields

const GOFANS = FIXTURES['gofans-xml'][0].toString('utf8');
const PDN_GAME = FIXTURES['pdn-draughts'][0].toString('utf8');
const VK_GAME = readFileSync(new URL('../formats/plugins/vk-dots/fixtures/full-game.txt', import.meta.url), 'utf8');
const BOARD_STATE = FIXTURES['dots-server'][0].toString('utf8');
const TRANSCRIPT = FIXTURES['dots-transcript'][0].toString('utf8');
const BARS = FIXTURES['bars-checkers'][0].toString('utf8');
const PEG = FIXTURES['peg-solitaire'][1].toString('utf8');

/** Replaces the one match of `pattern` (its first group) with the value; fails if there is not exactly one. */
function once(text: string, pattern: RegExp, value: string): string {
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  if (matches.length !== 1) throw new Error(`${pattern} matches ${matches.length} times`);
  const match = matches[0];
  const start = match.index! + match[0].indexOf(match[1]);
  return text.slice(0, start) + value + text.slice(start + match[1].length);
}

const SGF_FIELDS = ['PB', 'PW', 'BR', 'WR', 'EV', 'RU', 'GN', 'PC', 'SO', 'AN', 'DT', 'RE', 'C'];
const sgf = (gm: number, size: number, moves: string) => (field: string, value: string) =>
  `(;GM[${gm}]FF[4]SZ[${size}]${SGF_FIELDS.filter((f) => f !== field).map((f) => `${f}[${f === 'DT' ? '2001-02-03' : f === 'RE' ? 'B+R' : f.toLowerCase()}]`).join('')}${field}[${value}]${moves})`;

/** Per format, each header field and how to write a file with `value` in it (value: no markup characters). */
const HEADER_FIELDS: Record<string, Record<string, (value: string) => string>> = {
  'sgf-go': Object.fromEntries(SGF_FIELDS.map((field) => [field, (value: string) => sgf(1, 9, ';B[cc];W[gg]')(field, value)])),
  'sgf-dots': Object.fromEntries(SGF_FIELDS.map((field) => [field, (value: string) => sgf(40, 10, ';B[ee];W[ff]')(field, value)])),
  'gofans-xml': {
    'first player name': (value) => once(GOFANS, /<player id="0" name="([^"]*)"/, value),
    'second player name': (value) => once(GOFANS, /<player id="1" name="([^"]*)"/, value),
    event: (value) => once(GOFANS, /<event>([^<]*)<\/event>/, value),
  },
  'pdn-draughts': Object.fromEntries(
    ['White', 'Black', 'Event', 'Round', 'Date'].map((tag) => [tag, (value: string) => once(PDN_GAME, new RegExp(`^\\[${tag} "([^"]*)"\\]`, 'm'), value)]),
  ),
  'vk-dots': {
    'first player id': (value) => once(VK_GAME, /^(22029176) /m, value),
    'first player name': (value) => once(VK_GAME, /^22029176 (.*)$/m, value),
    'second player name': (value) => once(VK_GAME, /^17047038 (.*)$/m, value),
  },
  'dots-server': { 'player to move (ACU)': (value) => once(BOARD_STATE, /^ACU (.*)$/m, value), 'title line': (value) => once(BOARD_STATE, /^204 (.*)$/m, value) },
  'dots-transcript': { 'first player login': (value) => once(TRANSCRIPT, /^player 1 (.*)$/m, value), 'started': (value) => once(TRANSCRIPT, /^started (.*)$/m, value) },
  'bars-checkers': { 'comment line': (value) => once(BARS, /^# (.*)$/m, value) },
  'peg-solitaire': { mode: (value) => once(PEG, /^Mode: (.*)$/m, value) },
};

/** Long values around the limits that matter: 2,000 bytes indexed, 2,712 of a B-tree row, 8,191 of an index entry, a line of 65,536. */
const LENGTHS = [1_999, 2_000, 2_001, 2_713, 2_800, 8_191, 8_192, 20_000, 65_535, 65_536, 65_537, 300_000];
const longValue = fc
  .tuple(fc.constantFrom(...LENGTHS), fc.constantFrom('a', 'Ж', '語', '😀', 'ab cd ', 'é'))
  // Cut by code points: half an emoji would be no text at all.
  .map(([length, unit]) => [...unit.repeat(Math.ceil(length / [...unit].length))].slice(0, length).join(''));

describe('long text in every header field of every format', () => {
  const cases = Object.entries(HEADER_FIELDS).flatMap(([format, fields]) => Object.entries(fields).map(([field, write]) => ({ format, field, write })));

  it('covers every format plugin', () => {
    expect(Object.keys(HEADER_FIELDS).sort()).toEqual(FORMAT_PLUGINS.map((plugin) => plugin.id).sort());
  });

  it('stores or refuses each with a 4xx problem, never a 500, and finds what it stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), longValue, async ({ format, field, write }, value) => {
        const what = `${format} ${field} of ${value.length} characters`;
        const response = await post(archive, `/games?filename=long-${format}.txt`, Buffer.from(write(value), 'utf8'), { 'Content-Type': 'text/plain; charset=utf-8' });
        let id = 0;
        const problem = await answeredWell(response, what, (game) => (id = (game as { id: number }).id));
        if (problem !== null) return;
        // Stored: it reads back, and searches with the long value answer (a match or none, never 500).
        expect([what, (await fetch(`${archive.baseUrl}/games/${id}`)).status]).toEqual([what, 200]);
        for (const filter of ['player', 'event', 'rules', 'winner', 'externalId', 'rating']) {
          await answeredWell(await fetch(`${archive.baseUrl}/games?${filter}=${encodeURIComponent([...value].slice(0, 2000).join(''))}`), `${what}: search by ${filter}`);
        }
      }),
      { numRuns: 60 * FUZZ_SCALE },
    );
    await stillServing(archive);
  });
});

// ---------------------------------------------------------------------------------------------
// Deep JSON

/** JSON nested `depth` levels: arrays, objects, or both in turn; `closed` false leaves it unterminated. */
function nested(depth: number, shape: 'array' | 'object' | 'mixed', closed: boolean, inner: string): string {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    const array = shape === 'array' || (shape === 'mixed' && level % 2 === 0);
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return open + inner + (closed ? close : '');
}

/** The documented limit: JSON bodies nested deeper than this are refused 400 request.invalid before parsing. */
const MAX_JSON_DEPTH = 64;

describe('JSON nested past any sane depth on every route that reads JSON', () => {
  const spec = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
  };
  const routes = Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.requestBody?.content['application/json'] !== undefined)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        // A route that takes only JSON parses its body; POST /games stores a JSON body as a file (BARS is JSON).
        parsesJson: Object.keys(operation.requestBody!.content).length === 1,
      })),
  );

  // A route of one game (PUT /games/{id}/tags) is asked of a game stored here.
  let game = 0;
  beforeAll(async () => {
    const stored = await fetch(`${archive.baseUrl}/games`, { method: 'POST', body: '(;GM[1]SZ[9];B[ee])', headers: { 'Content-Type': 'application/x-go-sgf' } });
    game = ((await stored.json()) as { id: number }).id;
  });
  const pathOf = (path: string) => path.replace('{id}', String(game));

  it('finds the JSON routes in the spec', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(['POST /games', 'POST /games/export', 'PUT /games/{id}/tags']));
    // The only path parameter a JSON route has is the game's id, which the tests fill in.
    expect(routes.flatMap((route) => route.path.match(/\{[^}]*\}/g) ?? []).every((parameter) => parameter === '{id}')).toBe(true);
  });

  const deep = fc.record({
    depth: fc.oneof(fc.integer({ min: MAX_JSON_DEPTH + 1, max: 3000 }), fc.constantFrom(65, 1000, 2000, 10_000, 100_000)),
    shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
    closed: fc.boolean(),
    inner: fc.constantFrom('1', '"x"', 'null', '{}', '[]', ''),
  });

  it('answers 400 request.invalid where the body is parsed, and never 500 anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), deep, async (route, { depth, shape, closed, inner }) => {
        const body = nested(depth, shape, closed, inner);
        const what = `${route.method} ${route.path} with ${shape} JSON ${depth} deep${closed ? '' : ', unterminated'}`;
        const response = await fetch(`${archive.baseUrl}${pathOf(route.path)}`, { method: route.method, body, headers: { 'Content-Type': 'application/json' } });
        const problem = await answeredWell(response, what);
        if (route.parsesJson) expect([what, problem?.status, problem?.code]).toEqual([what, 400, 'request.invalid']);
      }),
      { numRuns: 40 * FUZZ_SCALE },
    );
    await stillServing(archive);
  });

  it('answers a cursor holding deep JSON with 400, on the search and the export', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/games', '/games/export'), deep, async (path, { depth, shape, closed, inner }) => {
        const cursor = Buffer.from(nested(depth, shape, closed, inner)).toString('base64url');
        const url = `${archive.baseUrl}${path}?cursor=${cursor}`;
        const what = `${path} with a cursor of ${shape} JSON ${depth} deep`;
        const problem = await answeredWell(await fetch(url), what);
        // A cursor that makes the request line longer than the request headers may be is 431 request.headers_too_large.
        const answers = [[what, 400, 'request.bad_cursor'], ...(url.length < 4096 ? [] : [[what, 431, 'request.headers_too_large']])];
        expect(answers).toContainEqual([what, problem?.status, problem?.code]);
      }),
      { numRuns: 20 * FUZZ_SCALE },
    );
    await stillServing(archive);
  });
});

// ---------------------------------------------------------------------------------------------
// Corrupt and truncated archives

const ENTRIES = [
  { name: 'games/one.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Zip]PW[One];B[cc];W[gg])'), compress: true },
  { name: 'games/two.sgf', bytes: Buffer.from('(;GM[1]FF[4]SZ[9]PB[Zip]PW[Two];B[dd];W[ff])'), compress: false },
  { name: 'draughts.pdn', bytes: FIXTURES['pdn-draughts'][0], compress: true },
  { name: 'board.brd', bytes: FIXTURES['peg-solitaire'][0], compress: true },
];

async function zipOf(): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of ENTRIES) zip.addBuffer(entry.bytes, entry.name, { compress: entry.compress, mtime: new Date(Date.UTC(2026, 0, 1)) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function tarOf(): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of ENTRIES) pack.entry({ name: entry.name, mtime: new Date(Date.UTC(2026, 0, 1)) }, entry.bytes);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Offsets of every zip record's fields that say where and how long things are, and the CRCs. */
function zipFieldOffsets(zip: Buffer): { at: number; width: 2 | 4 }[] {
  const fields: { at: number; width: 2 | 4 }[] = [];
  for (let at = 0; at + 4 <= zip.length; at++) {
    const signature = zip.readUInt32LE(at);
    // Local header: CRC, compressed and uncompressed size, name and extra lengths.
    if (signature === 0x04034b50) fields.push({ at: at + 14, width: 4 }, { at: at + 18, width: 4 }, { at: at + 22, width: 4 }, { at: at + 26, width: 2 }, { at: at + 28, width: 2 });
    // Central directory entry: CRC, sizes, name/extra/comment lengths, the local header's offset.
    if (signature === 0x02014b50) {
      fields.push({ at: at + 16, width: 4 }, { at: at + 20, width: 4 }, { at: at + 24, width: 4 }, { at: at + 28, width: 2 }, { at: at + 30, width: 2 }, { at: at + 32, width: 2 }, { at: at + 42, width: 4 });
    }
    // End of central directory: entry counts, its size and offset, the comment's length.
    if (signature === 0x06054b50) fields.push({ at: at + 8, width: 2 }, { at: at + 10, width: 2 }, { at: at + 12, width: 4 }, { at: at + 16, width: 4 }, { at: at + 20, width: 2 });
  }
  return fields.filter((field) => field.at + field.width <= zip.length);
}

/** Offsets of every tar header's name, mode, size, checksum, type flag and magic (the header blocks are found by their magic). */
function tarFieldOffsets(plain: Buffer): { at: number; length: number }[] {
  const fields: { at: number; length: number }[] = [];
  for (let block = 0; block + 512 <= plain.length; block += 512) {
    if (plain.toString('latin1', block + 257, block + 262) !== 'ustar') continue;
    fields.push({ at: block, length: 100 }, { at: block + 100, length: 8 }, { at: block + 124, length: 12 }, { at: block + 148, length: 8 }, { at: block + 156, length: 1 }, { at: block + 257, length: 8 });
  }
  return fields;
}

type Damage =
  | { kind: 'field'; index: number; value: 'zero' | 'max' | 'plus-one' | 'flip' | 'garbage' }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'truncate'; at: number };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('field' as const), index: fc.nat(), value: fc.constantFrom('zero' as const, 'max' as const, 'plus-one' as const, 'flip' as const, 'garbage' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
);

function damagedZip(zip: Buffer, damages: readonly Damage[]): Buffer {
  let bytes = Buffer.from(zip);
  for (const d of damages) {
    if (d.kind === 'truncate') bytes = bytes.subarray(0, d.at % (bytes.length + 1));
    else if (d.kind === 'flip' && bytes.length > 0) bytes[d.at % bytes.length] ^= d.mask;
    else if (d.kind === 'field') {
      const fields = zipFieldOffsets(bytes);
      if (fields.length === 0) continue;
      const { at, width } = fields[d.index % fields.length];
      const read = width === 2 ? bytes.readUInt16LE(at) : bytes.readUInt32LE(at);
      const max = width === 2 ? 0xffff : 0xffffffff;
      const value = { zero: 0, max, 'plus-one': (read + 1) % (max + 1), flip: (read ^ 0x5a5a5a5a) & max, garbage: (read * 7919 + 13) % (max + 1) }[d.value];
      if (width === 2) bytes.writeUInt16LE(value, at);
      else bytes.writeUInt32LE(value >>> 0, at);
    }
  }
  return bytes;
}

function damagedTar(plain: Buffer, damages: readonly Damage[]): Buffer {
  let bytes = Buffer.from(plain);
  for (const d of damages) {
    if (d.kind === 'truncate') bytes = bytes.subarray(0, d.at % (bytes.length + 1));
    else if (d.kind === 'flip' && bytes.length > 0) bytes[d.at % bytes.length] ^= d.mask;
    else if (d.kind === 'field') {
      const fields = tarFieldOffsets(bytes);
      if (fields.length === 0) continue;
      const { at, length } = fields[d.index % fields.length];
      const text = { zero: '0'.repeat(length - 1) + '\0', max: '7'.repeat(length), 'plus-one': '', flip: '', garbage: 'Z9\u00ff-'.repeat(length) }[d.value];
      if (d.value === 'plus-one') bytes[at] = (bytes[at] + 1) & 0xff;
      else if (d.value === 'flip') for (let i = 0; i < length; i++) bytes[at + i] ^= 0x20;
      else bytes.write(text.slice(0, length).padEnd(length, '\0'), at, length, 'latin1');
    }
  }
  return bytes;
}

/** Waits for the import to end; its state. */
async function ended(id: number): Promise<{ state: string; problem: Problem | null }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = (await (await fetch(`${archive.baseUrl}/imports/${id}`)).json()) as { state: string; problem: Problem | null };
    if (state.state !== 'running') return state;
    if (Date.now() > deadline) throw new Error(`import ${id} still running after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('corrupt and truncated archives', () => {
  let zip: Buffer;
  let plainTar: Buffer;
  const originals = new Set(ENTRIES.map((entry) => entry.bytes.toString('latin1')));

  beforeAll(async () => {
    zip = await zipOf();
    plainTar = await tarOf();
  });

  /**
   * Sends the archive; a 4xx up front (null), or an import whose every file has an outcome and every
   * problem is below 500: its kind (read from the bytes, whatever the Content-Type) and results.
   */
  async function imported(
    bytes: Buffer,
    contentType: string,
    what: string,
  ): Promise<{ kind: string; lines: { path: string; outcome: string; gameIds: number[]; uploadId: number | null }[] } | null> {
    const response = await post(archive, '/imports', bytes, { 'Content-Type': contentType });
    if (response.status !== 202) {
      await answeredWell(response, what);
      expect([what, response.status >= 400]).toEqual([what, true]);
      return null;
    }
    const { id } = (await response.json()) as { id: number };
    const state = (await ended(id)) as { state: string; problem: Problem | null; kind?: string };
    expect([what, state.state]).toEqual([what, expect.stringMatching(/^(done|failed)$/)]);
    if (state.problem !== null) expect([what, state.problem.status < 500, typeof state.problem.code]).toEqual([what, true, 'string']);
    const results = await (await fetch(`${archive.baseUrl}/imports/${id}/results`)).text();
    const lines = results.length === 0 ? [] : results.trimEnd().split('\n').map((line) => JSON.parse(line) as { path: string; outcome: string; gameIds: number[]; uploadId: number | null; problem: Problem | null });
    for (const line of lines) if (line.problem !== null) expect([what, line.problem.status < 500]).toEqual([what, true]);
    return { kind: state.kind!, lines };
  }

  it('zips with damaged CRCs, lengths and offsets, flipped bytes, cut short: 4xx or per-file outcomes, and only the entries’ true bytes are stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), async (damages) => {
        const what = `zip damaged by ${JSON.stringify(damages)}`;
        const body = damagedZip(zip, damages);
        const result = await imported(body, 'application/zip', what);
        // A zip entry's bytes are checked against its CRC-32 before they are stored: whatever the
        // damage, a stored file is one of the entries as they were written. (A body whose damage left
        // no zip signature is taken for one plain file, as POST /imports takes any single file: then
        // the file stored is the body sent.)
        const sound = result?.kind === 'file' ? new Set([body.toString('latin1')]) : originals;
        for (const line of result?.lines ?? []) {
          if (line.outcome !== 'indexed' && line.outcome !== 'stored') continue;
          // The kept file where the archive keeps one (a collection's games are slices of it), else the game's own bytes.
          const kept = line.uploadId !== null ? `/uploads/${line.uploadId}/raw` : `/games/${line.gameIds[0]}/raw`;
          const raw = Buffer.from(await (await fetch(`${archive.baseUrl}${kept}`)).arrayBuffer()).toString('latin1');
          expect([what, line.path, sound.has(raw) ? 'as sent' : raw]).toEqual([what, line.path, 'as sent']);
        }
      }),
      { numRuns: 40 * FUZZ_SCALE },
    );
    await stillServing(archive);
  });

  it('tars and tar.gz files with damaged headers (name, size, checksum, type, magic), flipped bytes, cut short', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.option(fc.nat(), { nil: undefined }), async (damages, gzipped, cutGzipAt) => {
        let bytes = damagedTar(plainTar, damages);
        if (gzipped) {
          bytes = gzipSync(bytes);
          if (cutGzipAt !== undefined) bytes = bytes.subarray(0, cutGzipAt % (bytes.length + 1));
        }
        await imported(bytes, gzipped ? 'application/gzip' : 'application/x-tar', `${gzipped ? 'tar.gz' : 'tar'} damaged by ${JSON.stringify(damages)}${cutGzipAt === undefined ? '' : `, gzip cut at ${cutGzipAt}`}`);
      }),
      { numRuns: 40 * FUZZ_SCALE },
    );
    await stillServing(archive);
  });
});
