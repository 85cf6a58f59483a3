import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ZipFile } from 'yazl';
import { runCli } from '../../src/cli/program.js';
import { manifestOf, unzip } from '../support/archive-entries.js';
import { freePort } from '../support/free-port.js';
import { createStore, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';
import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';

/**
 * The `tabula` command run in-process (its main function, stdout and stderr captured) against a
 * running archive. Expected numbers come from the files themselves: SGF game trees counted by the
 * SGF grammar (a collection is a sequence of `(`…`)` at the top level, brackets quote values), PDN
 * games by their `[White "…"]` tags, the stored bytes by SHA-256 of the files on disk.
 */
const GNUGO = new URL('../fixtures/realdata/go/gnugo_regression_games/olympiad2006/9x9/', import.meta.url);
const PDN = new URL('../fixtures/realdata/checkers/russian/ussr1947.pdn', import.meta.url);
const SGF_NAMES = ['gnu-crazy.sgf', 'gnu-aya.sgf', 'neurogo-gnu.sgf'];

/** The game trees at the top level of an SGF text, as [start, end) offsets. */
function sgfGameTreeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let depth = 0;
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (quoted) {
      if (char === '\\') at += 1;
      else if (char === ']') quoted = false;
    } else if (char === '[') quoted = true;
    else if (char === '(') {
      if (depth === 0) ranges.push([at, at]);
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) ranges[ranges.length - 1][1] = at + 1;
    }
  }
  return ranges;
}
const sgfGameTrees = (text: string) => sgfGameTreeRanges(text).length;

const pdnGames = (text: string) => [...text.matchAll(/^\[White "[^"]*"\]/gm)].length;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

describe('tabula (command-line tool)', () => {
  let archive: TestArchive;
  let work: string;
  let inputs: string;
  const sgfBytes = SGF_NAMES.map((name) => readFileSync(new URL(name, GNUGO)));
  const pdnText = readFileSync(PDN, 'utf8');
  const goGames = sgfBytes.reduce((sum, bytes) => sum + sgfGameTrees(bytes.toString('latin1')), 0);
  const checkersGames = pdnGames(pdnText);

  async function tabula(...args: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const stderrStream = { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WritableStream;
    const status = await runCli(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: stderrStream, env: { TABULA_URL: archive.baseUrl } });
    return { status, stdout, stderr };
  }

  const ndjsonLines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

  beforeAll(async () => {
    archive = await startArchive();
    work = mkdtempSync(join(tmpdir(), 'tabula-cli-'));
    inputs = join(work, 'inputs');
    mkdirSync(join(inputs, 'go', 'nine'), { recursive: true });
    SGF_NAMES.forEach((name, index) => copyFileSync(new URL(name, GNUGO), join(inputs, 'go', index === 0 ? '' : 'nine', name)));
    copyFileSync(PDN, join(inputs, 'ussr1947.pdn'));
    // Bytes no format reads: NUL and high bytes, not text.
    writeFileSync(join(inputs, 'junk.bin'), Buffer.from(Array.from({ length: 512 }, (_, index) => (index * 37) % 256)));
    writeFileSync(join(inputs, '.hidden.sgf'), 'skipped: names starting with a dot are not sent');
  });
  afterAll(async () => {
    await archive?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the derived counts are what the fixtures hold', () => {
    expect(goGames).toBe(3);
    expect(checkersGames).toBe(153);
  });

  it('imports a folder recursively: a summary of files, games, duplicates and the refused file with its problem; exit 1', async () => {
    const run = await tabula('import', inputs);
    expect(run.stdout).toContain('files: 5\n');
    expect(run.stdout).toContain(`games stored: ${goGames + checkersGames}\n`);
    expect(run.stdout).toContain('duplicates: 0\n');
    expect(run.stdout).toContain('refused: 1\n');
    expect(run.stdout).toMatch(new RegExp(`\\n  ${join(inputs, 'junk.bin').replace(/[.\\/]/g, '\\$&')}: [a-z_]+\\.[a-z_.]+: \\S.*\\n`));
    expect(run.status).toBe(1);
    // Plain lines on a stderr that is no terminal: one per file.
    expect(run.stderr.match(/^\[\d\/5\] /gm)).toHaveLength(5);

    const page = (await (await fetch(`${archive.baseUrl}/games?family=go&limit=100`)).json()) as { items: { filename: string }[] };
    expect(page.items.map((game) => game.filename).sort()).toEqual([...SGF_NAMES].sort());
  });

  it('the same files again: every game a duplicate, nothing stored', async () => {
    const run = await tabula('import', '--concurrency', '2', inputs);
    expect(run.stdout).toContain(`games stored: 0\nduplicates: ${goGames + checkersGames}\nrefused: 1\n`);
    expect(run.status).toBe(1);
  });

  it('exports a search to NDJSON page by page: every checkers game once, nothing else', async () => {
    const out = join(work, 'checkers.ndjson');
    const run = await tabula('export', '--family', 'checkers', '--page-size', '40', '-o', out);
    expect(run.status).toBe(0);
    const lines = ndjsonLines(out);
    expect(lines).toHaveLength(checkersGames);
    expect(lines.every((line) => line.family === 'checkers' && line.filename === 'ussr1947.pdn')).toBe(true);
    expect(new Set(lines.map((line) => line.id)).size).toBe(checkersGames);
    expect(existsSync(`${out}.next.json`)).toBe(false);
    // Each game's players are its own tags' White and Black.
    const tagged = [...pdnText.matchAll(/^\[(?:White|Black) "([^"]*)"\]/gm)].map((match) => match[1]).sort();
    expect(lines.flatMap((line) => line.players.map((player: { name: string }) => player.name)).sort()).toEqual(tagged);
  });

  it('exports a zip of the stored files: the bytes on disk and a manifest', async () => {
    const out = join(work, 'go.zip');
    const run = await tabula('export', '--family', 'go', '-o', out);
    expect(run.status).toBe(0);
    const entries = await unzip(readFileSync(out));
    const games = entries.filter((entry) => entry.name !== 'manifest.ndjson');
    // A game's stored bytes are its range of the uploaded file: its game tree, from `(` to the matching `)`.
    const trees = sgfBytes.map((bytes) => sgfGameTreeRanges(bytes.toString('latin1')).map(([start, end]) => bytes.subarray(start, end))).flat();
    expect(games.map((entry) => sha256(entry.bytes)).sort()).toEqual(trees.map(sha256).sort());
    expect(manifestOf(entries).map((line) => line.filename).sort()).toEqual([...SGF_NAMES].sort());
    expect(existsSync(`${out}.part`)).toBe(false);
  });

  it('resumes an NDJSON export cut short by --limit from the {"next"} line it ends with', async () => {
    const whole = ndjsonLines(join(work, 'checkers.ndjson')).map((line) => line.id);
    const out = join(work, 'resumed.ndjson');
    const first = await tabula('export', '--family', 'checkers', '--limit', '50', '--page-size', '20', '-o', out);
    expect(first.status).toBe(0);
    const cut = ndjsonLines(out);
    expect(cut).toHaveLength(51);
    expect(Object.keys(cut[50])).toEqual(['next']);
    expect(cut.slice(0, 50).map((line) => line.id)).toEqual(whole.slice(0, 50));

    expect((await tabula('export', '--family', 'checkers', '-o', out)).status).toBe(2); // exists, neither --resume nor --force
    const second = await tabula('export', '--resume', '--page-size', '60', '-o', out);
    expect(second.status).toBe(0);
    expect(ndjsonLines(out).map((line) => line.id)).toEqual(whole);

    const again = await tabula('export', '--resume', '-o', out);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('nothing to resume');
    expect(ndjsonLines(out).map((line) => line.id)).toEqual(whole);
  });

  it('resumes an SGF collection from the cursor kept beside it', async () => {
    const out = join(work, 'go.sgf');
    const first = await tabula('export', '--family', 'go', '--format', 'sgf', '--limit', '2', '--page-size', '1', '-o', out);
    expect(first.status).toBe(0);
    expect(sgfGameTrees(readFileSync(out, 'latin1'))).toBe(2);
    expect(existsSync(`${out}.next.json`)).toBe(true);
    const second = await tabula('export', '--resume', '-o', out);
    expect(second.status).toBe(0);
    expect(sgfGameTrees(readFileSync(out, 'latin1'))).toBe(goGames);
    expect(existsSync(`${out}.next.json`)).toBe(false);
  });

  it('shows the archive\'s problem as code: detail (exit 3) and a failed connection clearly (exit 4)', async () => {
    const noFamily = await tabula('export', '-o', join(work, 'all.pdn'));
    expect(noFamily.status).toBe(3);
    expect(noFamily.stderr).toMatch(/^tabula: GET \/games\/export: request\.invalid: .*family/m);
    expect(existsSync(join(work, 'all.pdn'))).toBe(false);

    const port = await freePort();
    const down = await tabula('--url', `http://127.0.0.1:${port}`, 'export', '-o', join(work, 'down.ndjson'));
    expect(down.status).toBe(4);
    expect(down.stderr).toContain(`cannot reach the archive at http://127.0.0.1:${port}: `);
    expect(down.stderr).toContain('ECONNREFUSED');
  });

  it('usage errors exit 2; --help exits 0', async () => {
    expect((await tabula('import', join(work, 'no-such-folder'))).status).toBe(2);
    expect((await tabula('export', '-o', join(work, 'games.txt'))).status).toBe(2);
    expect((await tabula('export', '--moves-min', 'many', '-o', join(work, 'x.ndjson'))).status).toBe(2);
    const help = await tabula('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Exit status:');
  });
});

describe('tabula import of a zip (POST /imports)', () => {
  let archive: TestArchive;
  let work: string;

  beforeAll(async () => {
    archive = await startArchive();
    work = mkdtempSync(join(tmpdir(), 'tabula-cli-zip-'));
  });
  afterAll(async () => {
    await archive?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('sends the zip as one import, follows its progress and lists the refused entry; exit 1', async () => {
    const zip = new ZipFile();
    const sgfBytes = SGF_NAMES.map((name) => readFileSync(new URL(name, GNUGO)));
    SGF_NAMES.forEach((name, index) => zip.addBuffer(sgfBytes[index], `go/${name}`));
    zip.addBuffer(readFileSync(PDN), 'ussr1947.pdn');
    zip.addBuffer(Buffer.from(Array.from({ length: 512 }, (_, index) => (index * 37) % 256)), 'junk.bin');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const path = join(work, 'games.zip');
    writeFileSync(path, Buffer.concat(chunks));

    let stdout = '';
    let stderr = '';
    const status = await runCli(['import', path], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WritableStream,
      env: { TABULA_URL: archive.baseUrl },
    });
    const goGames = sgfBytes.reduce((sum, bytes) => sum + sgfGameTrees(bytes.toString('latin1')), 0);
    expect(stdout).toContain('files: 5 (1 archive expanded)\n');
    expect(stdout).toContain(`games stored: ${goGames + pdnGames(readFileSync(PDN, 'utf8'))}\n`);
    expect(stdout).toContain('duplicates: 0\nrefused: 1\n');
    expect(stdout).toMatch(/\n {2}\S*games\.zip!\/junk\.bin: [a-z_]+\.[a-z_.]+: \S.*\n/);
    expect(status).toBe(1);
    expect(stderr).toContain('games.zip: 5 files');
  });
});

/**
 * The built archive in a process of its own (test/support/server-process) for the tests of the
 * enclosing describe block: started before them on a store of its own, stopped with `signal` and its
 * store removed after them. A test may stop it and put another in `held.server`.
 */
function archiveProcess(signal: NodeJS.Signals = 'SIGTERM'): { store?: Awaited<ReturnType<typeof createStore>>; server?: RunningServer } {
  const held: { store?: Awaited<ReturnType<typeof createStore>>; server?: RunningServer } = {};
  beforeAll(async () => {
    held.store = await createStore();
    held.server = await startServer({ ...held.store.settings, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await stop(held.server, signal);
    await held.store?.remove();
  });
  return held;
}

describe('tabula import of a folder, through a restart of the archive', () => {
  // The built server in a process of its own (test/support/server-process), killed with SIGKILL
  // while the folder's import runs and started again on the same port and data.
  const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url).pathname;
  const archive = archiveProcess('SIGKILL');

  /** Every file under a folder, as the command walks it (names starting with a dot left out). */
  const filesUnder = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));

  it('sends the folder as one import, waits out the restart, and ends with each file once and every game accounted for', async () => {
    const files = filesUnder(FOLDER);
    const sgf = files.filter((path) => path.endsWith('.sgf'));
    // Every game tree of every SGF file, and the provenance note, which is kept as a file of its own.
    const games = sgf.reduce((sum, path) => sum + sgfGameTrees(readFileSync(path).toString('latin1')), 0) + (files.length - sgf.length);
    expect(files.length).toBe(674);

    const { baseUrl } = archive.server!;
    let stdout = '';
    let stderr = '';
    const running = runCli(['--url', baseUrl, 'import', '--poll', '100', FOLDER], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WritableStream,
      env: {},
    });

    // One import, taken whole before anything is stored: killed once some files are done.
    let done = 0;
    while (done < 20) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answer = await fetch(`${baseUrl}/imports/1`).catch(() => undefined);
      if (answer?.status === 200) done = ((await answer.json()) as { filesDone: number }).filesDone;
    }
    expect(done).toBeLessThan(files.length);
    await stop(archive.server, 'SIGKILL');
    archive.server = await startServer({ ...archive.store!.settings, LOG_LEVEL: 'warn' }, { port: Number(new URL(baseUrl).port) });

    const status = await running;
    expect(stderr).toContain('the archive is not answering; waiting up to 120 s');
    expect(stdout).toMatch(new RegExp(`^files: ${files.length}\\ngames stored: (\\d+)\\nduplicates: (\\d+)\\nrefused: 0\\n$`));
    const [, stored, duplicates] = /games stored: (\d+)\nduplicates: (\d+)/.exec(stdout)!.map(Number);
    expect(stored + duplicates).toBe(games);
    expect(status).toBe(0);
    // A line per file, each file's own path.
    expect(stderr.match(/^\[\d+\/674\] .*$/gm)?.map((line) => line.replace(/^\[\d+\/674\] (.*?): .*$/, '$1')).sort()).toEqual([...files].sort());

    // Each file's outcome once, and in the archive as many games as the summary says were stored.
    const results = (await (await fetch(`${baseUrl}/imports/1/results`)).text()).trim().split('\n').map((line) => JSON.parse(line) as { position: number });
    expect(results.map((line) => line.position)).toEqual(files.map((_, index) => index));
    let held = 0;
    for (let page = `${baseUrl}/games?limit=100`; ; ) {
      const answer = (await (await fetch(page)).json()) as { items: unknown[]; next: string | null };
      held += answer.items.length;
      if (answer.next === null) break;
      page = `${baseUrl}/games?limit=100&cursor=${encodeURIComponent(answer.next)}`;
    }
    expect(held).toBe(stored);
  }, 180_000);
});

describe('tabula import of a large folder', () => {
  // The archive in a process of its own, so that this process's buffers are the command's.
  const archive = archiveProcess();

  it('sends a folder as it reads it: the command holds a few MB of it at a time, not the folder', async () => {
    // 64 files of 1 MB that no format reads (the archive refuses each), sent as one tar made as it goes.
    const folder = mkdtempSync(join(tmpdir(), 'tabula-cli-junk-'));
    const FILES = 64;
    const MB = 1024 * 1024;
    // NUL and high bytes: not text (each file its own bytes, so none is a duplicate).
    for (let index = 0; index < FILES; index++) writeFileSync(join(folder, `junk-${index}.bin`), Buffer.alloc(MB, Buffer.from([0, 1 + index, 255])));
    // The live buffers of this process (the archive runs in another): whenever its buffers have grown
    // past the bound, a full collection, and what is left then. (A collection every few hundred
    // milliseconds, in a test worker whose heap earlier suites filled, left the command no time to send.)
    // Two collections: V8 may free the memory of the buffers a collection finds dead after it has
    // returned, and the next collection first finishes that (after one alone, CI's loaded machine once
    // counted 33 MB). Past the bound at three checks in a row: held, not passing through.
    const BOUND = 16 * MB;
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collected = () => {
      gc();
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    const before = collected();
    let pastBound = 0;
    let held = 0;
    const sampler = setInterval(() => {
      if (process.memoryUsage().arrayBuffers - before <= BOUND) return;
      held = collected() - before;
      pastBound = held > BOUND ? pastBound + 1 : 0;
      if (pastBound === 3) clearInterval(sampler);
    }, 100);
    let stdout = '';
    try {
      const status = await runCli(['--url', archive.server!.baseUrl, 'import', '--poll', '100', folder], {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: () => true, isTTY: false } as unknown as NodeJS.WritableStream,
        env: {},
      });
      expect(status).toBe(1);
    } finally {
      clearInterval(sampler);
      rmSync(folder, { recursive: true, force: true });
    }
    expect(stdout).toContain(`files: ${FILES}\n`);
    expect(stdout).toContain(`refused: ${FILES}\n`);
    // fetch's default redirect mode kept a copy of all 64 MB as they were sent.
    expect(pastBound < 3 ? 'within the bound' : `${(held / MB).toFixed(1)} MB live at three checks in a row`).toBe('within the bound');
  }, 120_000);
});
