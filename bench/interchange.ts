import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { FormatError } from '../src/core/errors.js';
import { FormatReader } from '../src/formats/format-reader.js';
import { DEFAULT_LIMITS } from '../src/core/limits.js';
import { FORMAT_PLUGINS } from '../src/formats/registry.js';
import { filesUnder } from '../test/support/files.js';
import { FOX_GAMES, realdataForBench } from '../test/support/realdata.js';
import { startInProcess, withScratchDatabase } from './served.js';

/**
 * SGF and PDN imports on the real corpora: GNU Go's 673 SGF games with the 130 Fox games (from the
 * shared real data, TABULA_REALDATA, default ../shared/realdata; the bench stops, saying so, without them), the Dots
 * SGF games, and the two Russian draughts PDN databases (209 games in two files, sent to POST
 * /uploads, which splits them). Each corpus is timed twice in the same run: the plugins alone on
 * one thread (detect, split, parse, replay: no HTTP, no database — the most the archive could do
 * on one core) and the archive over HTTP with 4 concurrent clients, every game stored and indexed.
 * Embedded database always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const CONCURRENCY = 4;
const FIXTURES = new URL('../../test/fixtures/realdata/', import.meta.url).pathname;

interface Corpus {
  readonly name: string;
  readonly files: readonly Buffer[];
  /** Where the archive takes the files: one game a file, or files of many games. */
  readonly route: '/games' | '/uploads';
}

function corpora(): Corpus[] {
  const fox = realdataForBench('interchange', FOX_GAMES);
  const read = (paths: string[]) => paths.map((path) => readFileSync(path));
  return [
    {
      name: 'Go SGF (GNU Go + Fox)',
      files: read([...filesUnder(`${FIXTURES}go/gnugo_regression_games`, '.sgf'), ...filesUnder(fox, '.sgf')]),
      route: '/games',
    },
    { name: 'Dots SGF GM[40]', files: read(filesUnder(`${FIXTURES}dots`, '.sgf')), route: '/games' },
    { name: 'Russian draughts PDN', files: read(filesUnder(`${FIXTURES}checkers/russian`, '.pdn')), route: '/uploads' },
  ];
}

export async function run(): Promise<void> {
  const all = corpora();
  for (const corpus of all) await pluginsAlone(corpus);
  await imports('embedded PostgreSQL (PGlite)', {}, all);
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('interchange: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_interchange', (url) => imports('PostgreSQL server', { DATABASE_URL: url, DATABASE_POOL_SIZE: '8' }, all));
}

/** The plugins alone, in this thread: every game of every file detected, split, read and replayed. */
async function pluginsAlone(corpus: Corpus): Promise<void> {
  const reader = new FormatReader(FORMAT_PLUGINS);
  const request = { timeBudgetMs: 2000, limits: DEFAULT_LIMITS };
  let games = 0;
  let indexed = 0;
  let refused = 0;
  const started = performance.now();
  for (const bytes of corpus.files) {
    try {
      const found = reader.split({ bytes }, request);
      for (const slice of found.slices) {
        const record = await reader.read({ bytes: bytes.subarray(slice.start, slice.end) }, { ...request, format: found.format });
        games++;
        if (record.analysis) indexed++;
      }
    } catch (error) {
      // A file the archive refuses (e.g. the Dots game without GM[40], read as Go): counted, not timed away.
      if (!(error instanceof FormatError)) throw error;
      refused++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `interchange [plugins alone, one thread] ${corpus.name}: ${games} games (${indexed} indexed, ${refused} files refused) in ${seconds.toFixed(2)} s = ${(games / seconds).toFixed(0)} games/s`,
  );
}

async function imports(label: string, settings: Record<string, string>, all: readonly Corpus[]): Promise<void> {
  const { app, baseUrl } = await startInProcess(settings);
  try {
    for (const corpus of all) {
      let next = 0;
      let games = 0;
      let indexed = 0;
      let refused = 0;
      const started = performance.now();
      const client = async () => {
        while (next < corpus.files.length) {
          const bytes = corpus.files[next++];
          const answer = await fetch(`${baseUrl}${corpus.route}`, { method: 'POST', body: new Uint8Array(bytes), headers: { 'Content-Type': 'application/octet-stream' } });
          const body = (await answer.json()) as { status?: string; games?: { outcome: string }[] };
          if (answer.status === 422) {
            refused++;
            continue;
          }
          if (answer.status !== 201 && answer.status !== 200) throw new Error(`${corpus.name}: answered ${answer.status}: ${JSON.stringify(body)}`);
          const outcomes = body.games?.map((game) => game.outcome) ?? [body.status ?? ''];
          games += outcomes.length;
          indexed += outcomes.filter((outcome) => outcome === 'indexed').length;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, client));
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `interchange [${label}] ${corpus.name}: ${games} games (${indexed} indexed, ${refused} files refused) imported over HTTP by ${CONCURRENCY} clients in ${seconds.toFixed(2)} s = ${(games / seconds).toFixed(0)} games/s`,
      );
    }
  } finally {
    await app.close();
  }
}
