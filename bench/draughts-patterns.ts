import 'reflect-metadata';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import { DEFAULT_LIMITS } from '../src/core/limits.js';
import type { CheckersInterchange } from '../src/formats/families/checkers/interchange.js';
import { setupPosition } from '../src/formats/families/checkers/interchange.js';
import { pdnDraughtsPlugin } from '../src/formats/plugins/pdn-draughts/plugin.js';
import { applyMove, judgeMove, Position } from '../src/rules/checkers/index.js';
import type { Move, ProposedMove } from '../src/rules/checkers/index.js';
import { realdataForBench } from '../test/support/realdata.js';
import type { SharedData } from '../test/support/realdata.js';
import { sendImport } from './imports.js';
import { percentile, startInProcess, withScratchDatabase } from './served.js';

/**
 * Draughts search by squares and material (issue 47): both Russian draughts PDN databases of the
 * shared real data (USSR 1947 and the championships of 1965–93), repeated to BENCH_DRAUGHTS_GAMES
 * games (default 100,000; each copy's Event names its copy, so no two files are the same bytes),
 * imported as a tar of PDN collections into a fresh archive; then BENCH_DRAUGHTS_SAMPLES queries of
 * each kind asked over HTTP (POST /patterns/games, family checkers), from a real board after ply 20: a
 * pattern cut from it (every third dark square as it stands, the rest `*`), its material (each side's
 * men and kings exactly), and both at once within a ply range (every fifth square, white's material). Beside them, in the same run, the brute force: every game
 * replayed with the rules engine (judge each move, apply it) and the query tested on every board, once
 * per kind; its count of games must be the archive's, and the goal is the archive's p95 at least 20
 * times faster. Embedded database (on disk); a PostgreSQL server too with BENCH_DATABASE_URL.
 */
const RUSSIAN: SharedData = { relative: 'checkers/russian', what: 'Russian draughts PDN databases' };
const FILES = ['ussr1947.pdn', 'abatsiev.pdn'];
const SAMPLES = Number(process.env.BENCH_DRAUGHTS_SAMPLES ?? 10);
const PER_FILE = 1000;
const options = { timeBudgetMs: 10_000, limits: DEFAULT_LIMITS };

type Kind = 'pattern' | 'material' | 'both';
const KINDS: readonly Kind[] = ['pattern', 'material', 'both'];
type Bounds = [number | null, number | null];
interface Query {
  readonly kind: Kind;
  readonly pattern?: string[];
  readonly material?: { white: { men: Bounds; kings: Bounds }; black: { men: Bounds; kings: Bounds } };
  readonly plyFrom?: number;
  readonly plyTo?: number;
}

/** A distinct game: its PDN text, and its start and moves for the brute force (null: the rules refuse a move, the game is only stored as far as they accept). */
interface Source {
  readonly text: string;
  readonly start: Position | null;
  readonly moves: readonly ProposedMove[];
}

export async function run(): Promise<void> {
  const folder = realdataForBench('draughts-patterns', RUSSIAN);
  const wanted = Number(process.env.BENCH_DRAUGHTS_GAMES ?? 100_000);
  const sources = await readSources(folder);
  const convertible = sources.filter((s) => s.start !== null).length;
  const work = await mkdtemp(join(tmpdir(), 'tabula-bench-draughts-'));
  try {
    const tarPath = join(work, 'games.tar');
    const files = await pack(sources, wanted, tarPath);
    console.log(`draughts-patterns: ${sources.length} games of both databases (${convertible} replayed whole by the rules engine), repeated to ${wanted} games as ${files} PDN collections, ${((await stat(tarPath)).size / 1e6).toFixed(1)} MB`);
    const queries = samples(sources);
    const brute = new Map<Kind, { ms: number; found: number }>();
    for (const kind of KINDS) {
      const query = queries.find((q) => q.kind === kind)!;
      const result = bruteForce(sources, wanted, query);
      brute.set(kind, result);
      console.log(`draughts-patterns: brute force, ${kind} ${describe(query)}: every game replayed, the query tested on every board: ${(result.ms / 1000).toFixed(1)} s, ${result.found} games`);
    }
    if (process.env.BENCH_DRAUGHTS_EMBEDDED !== 'false') await measure('embedded PostgreSQL (PGlite)', tarPath, { DATA_DIR: join(work, 'data') }, queries, brute, wanted);
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      console.log('draughts-patterns: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
      return;
    }
    await withScratchDatabase(serverUrl, 'tabula_bench_draughts', (url) => measure('PostgreSQL server', tarPath, { DATABASE_URL: url }, queries, brute, wanted));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Every game of both files, split and read into the family's model by the PDN plugin (outside any timing). */
async function readSources(folder: string): Promise<Source[]> {
  const sources: Source[] = [];
  for (const name of FILES) {
    const bytes = await readFile(join(folder, name));
    for (const slice of pdnDraughtsPlugin.split!({ bytes }, options)) {
      const game = bytes.subarray(slice.start, slice.end);
      try {
        const model = (await pdnDraughtsPlugin.toInterchange!({ bytes: game }, options)) as CheckersInterchange;
        sources.push({ text: game.toString('utf8'), start: model.setup ? setupPosition(model.setup) : Position.initial(), moves: model.main.moves });
      } catch {
        sources.push({ text: game.toString('utf8'), start: null, moves: [] });
      }
    }
  }
  return sources;
}

/** The games repeated to `wanted`, each copy's Event marked with its number, in collections of {@link PER_FILE}, as a tar. */
async function pack(sources: readonly Source[], wanted: number, path: string): Promise<number> {
  const archive = tar.pack();
  const writing = pipeline(archive, createWriteStream(path));
  let files = 0;
  let collection: string[] = [];
  const flush = async () => {
    if (collection.length === 0) return;
    const text = Buffer.from(collection.join('\n\n'));
    await new Promise<void>((resolve, reject) => archive.entry({ name: `draughts/${String(files++).padStart(4, '0')}.pdn`, size: text.length }, text, (error) => (error ? reject(error) : resolve())));
    collection = [];
  };
  for (let i = 0; i < wanted; i++) {
    const source = sources[i % sources.length];
    const copy = Math.floor(i / sources.length);
    collection.push(copy === 0 ? source.text : source.text.replace(/\[Event(\s+)"([^"]*)"\]/, (_, space: string, event: string) => `[Event${space}"${event} (copy ${copy})"]`));
    if (collection.length === PER_FILE) await flush();
  }
  await flush();
  archive.finalize();
  await writing;
  return files;
}

/** Every board of a game: the start, then after each move the rules accept. */
function* boards(source: Source): Generator<Position> {
  let position = source.start!;
  yield position;
  for (const proposed of source.moves) {
    const judgement = judgeMove(position, proposed);
    if (!judgement.legal) return;
    position = applyMove(position, judgement.move as Move);
    yield position;
  }
}

const PIECES: Readonly<Record<string, number>> = { w: 1, W: 11, b: 2, B: 12, '.': 0 };

function holds(position: Position, query: Query): boolean {
  if (query.pattern) {
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
      const want = PIECES[query.pattern[r][c]];
      if (want !== undefined && (r + c) % 2 === 1 && position.cells[r * 8 + c] !== want) return false;
    }
  }
  if (query.material) {
    const within = (n: number, [lo, hi]: Bounds) => (lo === null || n >= lo) && (hi === null || n <= hi);
    const white = position.count('white');
    const black = position.count('black');
    const m = query.material;
    if (!within(white.men, m.white.men) || !within(white.kings, m.white.kings) || !within(black.men, m.black.men) || !within(black.kings, m.black.kings)) return false;
  }
  return true;
}

/** The brute force: every one of the `wanted` games replayed (the copies too: a brute force has no index of copies) and tested at every ply. */
function bruteForce(sources: readonly Source[], wanted: number, query: Query): { ms: number; found: number } {
  const started = performance.now();
  let found = 0;
  for (let i = 0; i < wanted; i++) {
    const source = sources[i % sources.length];
    if (source.start === null) continue;
    let ply = 0;
    for (const position of boards(source)) {
      if (query.plyTo !== undefined && ply > query.plyTo) break;
      if (ply >= (query.plyFrom ?? 0) && holds(position, query)) {
        found++;
        break;
      }
      ply++;
    }
  }
  return { ms: performance.now() - started, found };
}

/** The queries: each cut from a real board (a spread of games and plies), so each finds its game at least. */
function samples(sources: readonly Source[]): Query[] {
  const usable = sources.filter((s) => s.start !== null && s.moves.length >= 30);
  const queries: Query[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const source = usable[(i * 37) % usable.length];
    const all = [...boards(source)];
    const ply = 20 + ((i * 7) % Math.max(1, all.length - 20));
    const board = all[Math.min(ply, all.length - 1)];
    const rows = boardRows(board);
    let k = 0;
    const cut = (step: number) => rows.map((row) => [...row].map((cell) => (cell === '-' ? '-' : k++ % step === i % step ? cell : '*')).join(''));
    const white = board.count('white');
    const black = board.count('black');
    const exactly = (n: number): Bounds => [n, n];
    queries.push(
      { kind: 'pattern', pattern: cut(3) },
      { kind: 'material', material: { white: { men: exactly(white.men), kings: exactly(white.kings) }, black: { men: exactly(black.men), kings: exactly(black.kings) } } },
      {
        kind: 'both',
        pattern: cut(5),
        material: { white: { men: [white.men, white.men], kings: [white.kings, white.kings] }, black: { men: [null, black.men], kings: [null, null] } },
        plyFrom: Math.max(0, ply - 10),
        plyTo: ply + 10,
      },
    );
  }
  return queries;
}

function boardRows(position: Position): string[] {
  return Array.from({ length: 8 }, (_, r) =>
    Array.from({ length: 8 }, (_, c) => {
      if ((r + c) % 2 === 0) return '-';
      const cell = position.cells[r * 8 + c];
      return cell === 1 ? 'w' : cell === 11 ? 'W' : cell === 2 ? 'b' : cell === 12 ? 'B' : '.';
    }).join(''),
  );
}

function describe(query: Query): string {
  const { kind: _kind, ...rest } = query;
  return JSON.stringify(rest);
}

async function measure(label: string, tarPath: string, settings: Record<string, string>, queries: readonly Query[], brute: ReadonlyMap<Kind, { ms: number; found: number }>, wanted: number): Promise<void> {
  // Timed, not cut short (SEARCH_TIMEOUT_MS guards the archive against clients).
  const { app, baseUrl } = await startInProcess({ ...settings, MAX_IMPORT_BYTES: String(4 * 1024 ** 3), SEARCH_TIMEOUT_MS: String(600_000) });
  try {
    const started = performance.now();
    const { state } = await sendImport(baseUrl, tarPath);
    console.log(
      `draughts-patterns [${label}]: ${state.gamesStored} games imported in ${((performance.now() - started) / 1000).toFixed(0)} s (${state.duplicates} duplicates, ${state.refused} refused; ` +
        `the import ${state.state}, ${state.filesDone} files done${state.gamesStored === wanted ? '' : ': the brute force counts every game packed, so its counts are compared with fewer stored'})`,
    );
    const ask = async (query: Query) => {
      const t0 = performance.now();
      const { kind: _kind, ...body } = query;
      const answer = await fetch(`${baseUrl}/patterns/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ family: 'checkers', ...body }) });
      if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
      const page = (await answer.json()) as { total: number };
      return { ms: performance.now() - t0, total: page.total };
    };
    const warm = await ask(queries[0]);
    console.log(`draughts-patterns [${label}]: first search ${warm.ms.toFixed(0)} ms`);
    for (const kind of KINDS) {
      const times: number[] = [];
      for (const [i, query] of queries.filter((q) => q.kind === kind).entries()) {
        const { ms, total } = await ask(query);
        times.push(ms);
        if (i === 0) {
          const b = brute.get(kind)!;
          console.log(`draughts-patterns [${label}]: ${kind}: the archive finds ${total} games, the brute force ${b.found}${total === b.found ? '' : ' — DIFFERENT'}`);
        }
      }
      const sorted = [...times].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      const b = brute.get(kind)!;
      console.log(
        `draughts-patterns [${label}]: ${kind.padEnd(8)} ${sorted.length} queries: index scan p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms | replaying every game ${(b.ms / 1000).toFixed(1)} s | ${(b.ms / p95).toFixed(1)}× the p95 (goal ≥ 20×: ${b.ms / p95 >= 20 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await app.close();
  }
}
