import { readBoardFile } from '../src/formats/plugins/peg-solitaire/plugin.js';
import { solve } from '../src/rules/peg-solitaire/solver.js';
import { convertToV2, realBoardFiles } from '../test/support/peg-solitaire/boards.js';

/**
 * Peg solitaire benchmark: the solver on every real board with the archive's default budget (time,
 * positions visited, verdict), then parsing speed in boards per second for both format versions and
 * for version-2 regeneration.
 */
const BUDGET_MS = Number(process.env.BENCH_PEG_BUDGET_MS ?? 2000);
const PARSE_SECONDS = 1;

export async function run(): Promise<void> {
  const files = realBoardFiles();
  console.log(`peg solitaire: solver on ${files.length} real boards, budget ${BUDGET_MS} ms`);
  const verdicts: Record<string, number> = { yes: 0, no: 0, unknown: 0 };
  for (const file of files) {
    const { board } = readBoardFile({ bytes: file.bytes });
    const started = performance.now();
    const result = solve(board, { timeBudgetMs: BUDGET_MS });
    const ms = performance.now() - started;
    verdicts[result.solvable]++;
    const why = result.solvable === 'no' ? ` (${result.reason})` : result.solvable === 'yes' ? ` (${result.solution.length} jumps)` : '';
    console.log(
      `  ${`${file.folder}/${file.name}`.padEnd(64)} ${board.mode.padEnd(8)} ${`${result.solvable}${why}`.padEnd(18)} ${ms.toFixed(0).padStart(6)} ms ${String(result.nodes).padStart(9)} positions`,
    );
  }
  console.log(`  verdicts: ${verdicts.yes} solvable, ${verdicts.no} unsolvable, ${verdicts.unknown} unknown`);

  for (const version of [1, 2]) {
    const sample = files.filter((f) => (f.folder === 'v1_e522458') === (version === 1));
    const rate = perSecond(() => sample.forEach((f) => readBoardFile({ bytes: f.bytes })), sample.length);
    console.log(`  parse version ${version}: ${rate.toFixed(0)} boards/s`);
  }
  const rate = perSecond(() => files.forEach((f) => convertToV2(f.bytes)), files.length);
  console.log(`  parse + regenerate as version 2: ${rate.toFixed(0)} boards/s`);
}

/** Repeats `work` (which handles `items` boards) for about PARSE_SECONDS and returns boards per second. */
function perSecond(work: () => void, items: number): number {
  work(); // warm-up
  let rounds = 0;
  const started = performance.now();
  while (performance.now() - started < PARSE_SECONDS * 1000) {
    work();
    rounds++;
  }
  return (rounds * items * 1000) / (performance.now() - started);
}
