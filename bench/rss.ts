import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Memory, memoryOf, serveArchive, sleep, stopProcess } from './served.js';

/**
 * Resident memory of the built server (`node dist/src/main.js`) on the embedded database in a
 * temporary DATA_DIR: idle after start, right after 1,000 uploads of small distinct files, and idle
 * again 40 s later (idle analysis threads end after 30 s), beside a bare `node -e` process measured
 * in the same run. Goal: ≤ 250 MB idle. The server is measured twice: with the environment `npm
 * start` gives it (the malloc settings in package.json's start script, which the Docker image sets
 * too), and with glibc's own malloc thresholds.
 *
 * BENCH_SERVER_NODE_ARGS adds Node options to the server's command line (e.g. `--max-semi-space-size=1`)
 * to try knobs without changing the code.
 */
const UPLOADS = 1000;
const CLIENTS = 4;
const IDLE_AFTER_MS = 40_000;

const fixture = (path: string) => readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url), 'utf8');
const GOFANS = fixture('gofans-examples/ex_2.2.xml');
const BARS = readFileSync(new URL('../../test/e2e/fixtures/demonstration.bars', import.meta.url), 'utf8');
const SGF = fixture('realdata/go/gnugo_regression_games/strategy38.sgf');

/** Small files made distinct per upload (a repeat would be answered without being stored). */
function upload(index: number): string {
  switch (index % 4) {
    case 0:
      return `1.0\n${index} Red ${index}\n${index + 1} Blue ${index}\n-s-\nb7a6a8a7\n`; // VK Dots save file
    case 1:
      return GOFANS.replace('name="Anna"', `name="Anna ${index}"`); // GoFans 2.2, two XSD validations
    case 2:
      return BARS.replace('# The demonstration game', `# Upload ${index}: the demonstration game`); // BARS checkers
    default:
      return `${SGF}\n; upload ${index}\n`; // no plugin reads SGF: kept verbatim as text
  }
}

export async function run(): Promise<void> {
  const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
  const settings = startSettings();
  // The second server must see no malloc setting at all (a variable set but empty means 0 to glibc).
  for (const name of Object.keys(settings)) delete process.env[name];
  const runs: [string, Record<string, string>][] = [
    [`as npm start runs it (${Object.entries(settings).map(([name, value]) => `${name}=${value}`).join(' ')})`, settings],
    [`with glibc's own malloc thresholds`, {}],
  ];
  const idle: number[] = [];
  for (const [label, env] of runs) idle.push(await measure(label, env, serverArgs));
  console.log(`rss: idle ${idle[0].toFixed(0)} MB as npm start runs it (${idle[1].toFixed(0)} MB without its malloc settings), against a goal of ≤ 250 MB: ${idle[0] <= 250 ? 'met' : 'NOT met'}`);
}

/**
 * The environment package.json's start script sets before `node` (`NAME=value … node …`): what the
 * server gets from `npm start`.
 */
function startSettings(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  const start = manifest.scripts.start;
  const prefix = /^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)node\s/.exec(start);
  if (!prefix) throw new Error(`package.json's start script is not "NAME=value … node …": ${start}`);
  return Object.fromEntries(prefix[1].trim().split(/\s+/).filter((pair) => pair.length > 0).map((pair) => pair.split('=', 2) as [string, string]));
}

/** One server's run: the table of its RSS beside the bare process; answers its idle RSS at the end. */
async function measure(label: string, env: Record<string, string>, serverArgs: readonly string[]): Promise<number> {
  const baseline = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const served = await serveArchive(env, serverArgs);
  const server = served.process;
  const baseUrl = served.baseUrl;
  try {
    const startMs = served.startMs;
    await sleep(2000);
    const rows: [string, Memory, Memory][] = [[`idle after start (${(startMs / 1000).toFixed(1)} s to start)`, memoryOf(server.pid!), memoryOf(baseline.pid!)]];

    let next = 0;
    const statuses = new Map<number, number>();
    const uploadStarted = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < UPLOADS) {
          const index = next++;
          const answer = await fetch(`${baseUrl}/games?filename=upload-${index}`, { method: 'POST', body: upload(index), headers: { 'Content-Type': 'text/plain' } });
          await answer.arrayBuffer();
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
      }),
    );
    const rate = UPLOADS / ((performance.now() - uploadStarted) / 1000);
    rows.push([`after ${UPLOADS} uploads (${rate.toFixed(0)}/s, ${CLIENTS} clients)`, memoryOf(server.pid!), memoryOf(baseline.pid!)]);
    await sleep(IDLE_AFTER_MS);
    rows.push([`idle ${IDLE_AFTER_MS / 1000} s later`, memoryOf(server.pid!), memoryOf(baseline.pid!)]);

    const answered = [...statuses].map(([status, count]) => `${count}×${status}`).join(', ');
    console.log(`rss: the built server on the embedded database ${label}${serverArgs.length > 0 ? ` (node ${serverArgs.join(' ')})` : ''}; uploads answered ${answered}`);
    const width = Math.max(...rows.map(([phase]) => phase.length));
    console.log(`rss: ${'phase'.padEnd(width)}  server RSS (peak)      bare node -e RSS`);
    for (const [phase, serverMemory, baselineMemory] of rows) {
      console.log(`rss: ${phase.padEnd(width)}  ${`${serverMemory.rss.toFixed(0)} MB (${serverMemory.peak.toFixed(0)} MB)`.padEnd(21)}  ${baselineMemory.rss.toFixed(0)} MB`);
    }
    return rows[rows.length - 1][1].rss;
  } finally {
    await served.stop();
    await stopProcess(baseline);
  }
}
