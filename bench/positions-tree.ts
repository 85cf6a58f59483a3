import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoPosition } from '../src/rules/go/index.js';
import { BLACK, WHITE } from '../src/rules/go/types.js';
import type { Stone } from '../src/rules/go/types.js';
import { TYGEM_GAMES, realdataForBench } from '../test/support/realdata.js';
import { packGames, tygemSgf } from './imports.js';
import { importInto } from './positions.js';
import { onEachDatabase } from './served.js';

/**
 * The explorer as a dictionary (issue 46): BENCH_TREE_GAMES TYGEM games (default 100,000, copies
 * past the 39,589 turned through a symmetry, as bench/positions.ts makes them) imported into an
 * embedded archive (BENCH_TREE_EMBEDDED=false: not) and a PostgreSQL server's with BENCH_DATABASE_URL; then POST /positions/tree from the empty 19×19 board, BENCH_TREE_DEPTH plies
 * (default 8) of moves played in at least BENCH_TREE_MIN_GAMES games (default 20), timed
 * BENCH_TREE_RUNS times (goal ≤ 2 s); beside it, in the same run, a brute force: every game
 * replayed in JS by the rules engine, each position up to that depth written under its least turn
 * of the eight, the games counted by position and next position, and the same tree built from the
 * counts. The two trees' node counts must agree.
 */
const DEPTH = Number(process.env.BENCH_TREE_DEPTH ?? 8);
const MIN_GAMES = Number(process.env.BENCH_TREE_MIN_GAMES ?? 20);
const RUNS = Number(process.env.BENCH_TREE_RUNS ?? 5);
const GOAL_MS = 2_000;

export async function run(): Promise<void> {
  const tygem = realdataForBench('positions-tree', TYGEM_GAMES);
  const wanted = Number(process.env.BENCH_TREE_GAMES ?? 100_000);
  const folder = await mkdtemp(join(tmpdir(), 'tabula-bench-tree-'));
  try {
    const tarPath = join(folder, 'games.tar');
    const { games } = await packGames(tygem, wanted, tarPath, { turnCopies: true });
    console.log(`positions-tree: ${games} TYGEM games (copies turned)`);
    // Each database's tree: its nodes, compared with the brute force's after.
    const trees = new Map<string, number>();
    await onEachDatabase(
      'positions-tree',
      (label, settings) =>
        importInto({ ...settings, SEARCH_TIMEOUT_MS: String(10 * 60_000) }, tarPath, async (_db, baseUrl, imported) => {
          console.log(`positions-tree [${label}]: imported ${imported.games} games at ${imported.rate.toFixed(0)} games/s`);
          const times: number[] = [];
          let nodes = 0;
          let bytes = 0;
          for (let i = 0; i < RUNS; i++) {
            const started = performance.now();
            const response = await fetch(`${baseUrl}/positions/tree`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ family: 'go', sgf: '(;SZ[19])', depth: DEPTH, minGames: MIN_GAMES }),
            });
            const text = await response.text();
            times.push(performance.now() - started);
            if (response.status !== 200) throw new Error(`POST /positions/tree answered ${response.status}: ${text}`);
            console.log(`  (run ${i + 1}: ${times[i].toFixed(0)} ms)`);
            // Every move node is `;B[..]` or `;W[..]` with its comment.
            nodes = (text.match(/;[BW]\[/g) ?? []).length;
            bytes = text.length;
          }
          const sorted = [...times].sort((a, b) => a - b);
          const median = sorted[Math.floor(sorted.length / 2)];
          console.log(
            `positions-tree [${label}]: POST /positions/tree from the empty board, depth ${DEPTH}, minGames ${MIN_GAMES}: ${nodes} nodes, ${(bytes / 1024).toFixed(0)} KiB; ` +
              `first ${times[0].toFixed(0)} ms, median of ${RUNS} ${median.toFixed(0)} ms, best ${sorted[0].toFixed(0)} ms (goal ≤ ${GOAL_MS} ms: ${median <= GOAL_MS ? 'met' : 'NOT met'})`,
          );
          trees.set(label, nodes);
        }).then(() => undefined),
      process.env.BENCH_TREE_EMBEDDED !== 'false',
    );
    const brute = await bruteForceTree(tygem, wanted);
    const same = [...trees].map(([label, nodes]) => `${label}: ${nodes === brute.nodes ? 'the same' : `NOT the same (${nodes})`}`).join('; ');
    console.log(
      `positions-tree: brute force (${brute.games} games replayed to ply ${DEPTH} by the rules engine, positions compared under 8 symmetries, the tree built from the counts): ` +
        `${(brute.ms / 1000).toFixed(1)} s, ${brute.nodes} nodes (${same})`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The eight turns of a 19×19 point, written out here. */
const TURNS: ((x: number, y: number) => number)[] = [
  (x, y) => y * 19 + x,
  (x, y) => x * 19 + (18 - y),
  (x, y) => (18 - y) * 19 + (18 - x),
  (x, y) => (18 - x) * 19 + y,
  (x, y) => y * 19 + (18 - x),
  (x, y) => (18 - y) * 19 + x,
  (x, y) => x * 19 + y,
  (x, y) => (18 - x) * 19 + (18 - y),
];

/** The position under its least turn of the eight, as text, with the side to move. */
function canonical(cells: Uint8Array, toMove: number): string {
  let least: string | undefined;
  const turned = new Uint8Array(361);
  for (const turn of TURNS) {
    for (let y = 0; y < 19; y++) for (let x = 0; x < 19; x++) turned[turn(x, y)] = cells[y * 19 + x];
    const text = `${toMove}${String.fromCharCode(...turned)}`;
    if (least === undefined || text < least) least = text;
  }
  return least!;
}

/**
 * The tree by brute force: per position (first arrival in each game) the games by their next
 * position; then breadth first from the empty board, the next positions of at least MIN_GAMES games.
 */
async function bruteForceTree(tygem: string, wanted: number): Promise<{ games: number; nodes: number; ms: number }> {
  const started = performance.now();
  const next = new Map<string, Map<string, number>>();
  let games = 0;
  for await (const sgf of tygemSgf(tygem, wanted, { turnCopies: true })) {
    games++;
    // Only games from the empty board, as the archive's tree counts them.
    if (/\bAB\[|\bAW\[/.test(sgf.slice(0, sgf.indexOf(';', sgf.indexOf(';') + 1) >>> 0))) continue;
    const moves = [...sgf.matchAll(/;([BW])\[([a-s]{2})?\]/g)].slice(0, DEPTH);
    const position = new GoPosition(19);
    let toMove = moves[0]?.[1] === 'W' ? 2 : 1;
    const seen = new Set<string>();
    let here = canonical(position.cells, toMove);
    for (const move of moves) {
      const stone = (move[1] === 'B' ? BLACK : WHITE) as Stone;
      const point = move[2];
      if (point) {
        if (!position.play(stone, point.charCodeAt(0) - 97, point.charCodeAt(1) - 97).legal) break;
      } else position.pass();
      toMove = stone === BLACK ? 2 : 1;
      const there = canonical(position.cells, toMove);
      // Each game counted once at a position, by its first arrival.
      if (!seen.has(here)) {
        seen.add(here);
        const counts = next.get(here) ?? new Map<string, number>();
        counts.set(there, (counts.get(there) ?? 0) + 1);
        next.set(here, counts);
      }
      here = there;
    }
  }
  let nodes = 0;
  let level = [canonical(new GoPosition(19).cells, 1)];
  for (let ply = 1; ply <= DEPTH; ply++) {
    const deeper: string[] = [];
    for (const position of level) {
      for (const [child, n] of next.get(position) ?? []) {
        if (n < MIN_GAMES) continue;
        nodes++;
        deeper.push(child);
      }
    }
    level = deeper;
  }
  return { games, nodes, ms: performance.now() - started };
}
