import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Memory, memoryOf, serveArchive, sleep, stopProcess } from './served.js';

/**
 * Resident memory of the built server (`node dist/src/main.js`) on the embedded database in a
 * temporary DATA_DIR: idle after start, right after 1,000 uploads of small distinct files, and idle
 * again 40 s later (idle analysis threads end after 30 s), beside a bare `node -e` process measured
 * in the same run. Goal: ≤ 250 MB idle.
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
  const baseline = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
  const served = await serveArchive({}, serverArgs);
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
    console.log(`rss: the built server on the embedded database${serverArgs.length > 0 ? ` (node ${serverArgs.join(' ')})` : ''}; uploads answered ${answered}`);
    const width = Math.max(...rows.map(([label]) => label.length));
    console.log(`rss: ${'phase'.padEnd(width)}  server RSS (peak)      bare node -e RSS`);
    for (const [label, serverMemory, baselineMemory] of rows) {
      console.log(`rss: ${label.padEnd(width)}  ${`${serverMemory.rss.toFixed(0)} MB (${serverMemory.peak.toFixed(0)} MB)`.padEnd(21)}  ${baselineMemory.rss.toFixed(0)} MB`);
    }
    const idle = rows[rows.length - 1][1].rss;
    console.log(`rss: idle ${idle.toFixed(0)} MB against a goal of ≤ 250 MB: ${idle <= 250 ? 'met' : 'NOT met'}`);
  } finally {
    await served.stop();
    await stopProcess(baseline);
  }
}
