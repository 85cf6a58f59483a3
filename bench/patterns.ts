import 'reflect-metadata';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoPosition } from '../src/rules/go/index.js';
import { BLACK, WHITE } from '../src/rules/go/types.js';
import type { Stone } from '../src/rules/go/types.js';
import { TYGEM_GAMES, realdataForBench } from '../test/support/realdata.js';
import { packGames, sendImport, tygemSgf } from './imports.js';
import { percentile, startInProcess, withScratchDatabase } from './served.js';
import { PatternsService } from '../src/patterns/patterns.service.js';

/**
 * Pattern search at scale (issue 29): BENCH_PATTERNS_GAMES real Go games (default 20,000; the issue's
 * figures are at 100,000: the TYGEM games as the positions bench packs them, copies turned) imported
 * into a fresh archive, then BENCH_PATTERNS_SAMPLES patterns of each kind, cut from the boards of
 * the first games — a 7×6 corner pattern (the densest corner after ply 40) and a 4×4 free pattern
 * with its four corners wildcards (the densest 4×4 square after ply 60) — asked over HTTP
 * (POST /patterns/games, colours as given). The first search of each archive reads the filter's rows
 * and is timed apart. Beside them, in the same run, the brute force: every game replayed with the
 * rules engine and every placement of the pattern (8 symmetries × every offset the anchor allows)
 * tested after every ply, once per kind; its count of games must be the archive's. The server
 * process's RSS is sampled throughout. Embedded database (on disk); a PostgreSQL server too with
 * BENCH_DATABASE_URL (BENCH_PATTERNS_EMBEDDED=false: the server alone).
 */
const SAMPLES = Number(process.env.BENCH_PATTERNS_SAMPLES ?? 20);
/**
 * BENCH_PATTERNS_BRUTE=distinct (for a million games): the brute force replays each distinct game
 * once (39,589) and counts each turned copy as the game it turns; its time is scaled to all games.
 */
const DISTINCT_ONLY = process.env.BENCH_PATTERNS_BRUTE === 'distinct';
/**
 * BENCH_PATTERNS_BRUTE=none: no brute force (the archive's counts are then checked against nothing,
 * and it says so); for timing the archive again and again while working on it.
 */
const NO_BRUTE = process.env.BENCH_PATTERNS_BRUTE === 'none';
/**
 * BENCH_PATTERNS_ARCHIVE=postgres://… : search an archive database a run before imported and kept
 * (BENCH_KEEP_DATABASE=true) instead of importing anew; the embedded database is skipped.
 */
const KEPT_ARCHIVE = process.env.BENCH_PATTERNS_ARCHIVE;
/** The goals (p95, ms): at 100,000 games (issue 29), and at a million on a server (issue 47). */
const goalsFor = (games: number): Readonly<Record<Kind, number>> =>
  games >= 1_000_000 ? { corner: 1500, free: 4000, span: 1500, sequence: 1500 } : { corner: 1000, free: 2000, span: 1000, sequence: 1000 };
const KINDS = ['corner', 'free', 'span', 'sequence'] as const;
/** BENCH_PATTERNS_KINDS=free,corner: only these kinds are asked (all by default). */
const ASKED_KINDS = KINDS.filter((kind) => (process.env.BENCH_PATTERNS_KINDS?.split(',') ?? KINDS).includes(kind));
/** The span's last ply: the corner patterns (cut after ply 40) before move 50. */
const SPAN_TO = 50;

type Kind = (typeof KINDS)[number];
interface Sought {
  readonly kind: Kind;
  readonly pattern: string[];
  /** The last ply of the span (kind `span`). */
  readonly plyTo?: number;
  /** The numbered moves (kind `sequence`): rows beside the pattern's, other moves allowed between them. */
  readonly sequence?: string[];
}

export async function run(): Promise<void> {
  const tygem = realdataForBench('patterns', TYGEM_GAMES);
  const wanted = Number(process.env.BENCH_PATTERNS_GAMES ?? 20_000);
  const folder = await mkdtemp(join(tmpdir(), 'tabula-bench-patterns-'));
  try {
    const tarPath = join(folder, 'games.tar');
    if (KEPT_ARCHIVE === undefined) {
      const { games, files } = await packGames(tygem, wanted, tarPath, { turnCopies: true });
      console.log(`patterns: ${games} TYGEM games (copies turned) as ${files} SGF collections, ${((await stat(tarPath)).size / 1e6).toFixed(1)} MB`);
    }
    const sought = await samples(tygem);
    const brute = new Map<Kind, { ms: number; found: number }>();
    for (const kind of NO_BRUTE ? [] : ASKED_KINDS) {
      const first = sought.find((s) => s.kind === kind)!;
      const result = await bruteForce(tygem, wanted, first);
      brute.set(kind, result);
      const asked = `${JSON.stringify(first.pattern)}${first.plyTo === undefined ? '' : ` plyTo ${first.plyTo}`}${first.sequence === undefined ? '' : ` sequence ${JSON.stringify(first.sequence)}`}`;
      console.log(
        `patterns: brute force, ${kind} pattern ${asked}: every ${DISTINCT_ONLY ? 'distinct game replayed (the time scaled to every game, each copy counted as the game it turns)' : 'game replayed'}, every placement tested after every ply: ${(result.ms / 1000).toFixed(1)} s, ${result.found} games`,
      );
    }
    if (NO_BRUTE) console.log('patterns: no brute force (BENCH_PATTERNS_BRUTE=none): the counts below are checked against nothing');
    if (KEPT_ARCHIVE !== undefined) {
      await measure('PostgreSQL server, an archive kept by an earlier run', null, { DATABASE_URL: KEPT_ARCHIVE }, sought, brute);
      return;
    }
    if (process.env.BENCH_PATTERNS_EMBEDDED !== 'false') await measure('embedded PostgreSQL (PGlite)', tarPath, { DATA_DIR: join(folder, 'data') }, sought, brute);
    const serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      console.log('patterns: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
      return;
    }
    await withScratchDatabase(serverUrl, 'tabula_bench_patterns', (url) => measure('PostgreSQL server', tarPath, { DATABASE_URL: url }, sought, brute));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function measure(label: string, tarPath: string | null, settings: Record<string, string>, sought: readonly Sought[], brute: ReadonlyMap<Kind, { ms: number; found: number }>): Promise<void> {
  // The searches are timed, not cut short: SEARCH_TIMEOUT_MS (10 s by default) guards the archive
  // against clients; a search past it would end the bench instead of showing how long it takes.
  const { app, baseUrl } = await startInProcess({ ...settings, MAX_IMPORT_BYTES: String(4 * 1024 ** 3), SEARCH_TIMEOUT_MS: String(600_000) });
  const rss = () => process.memoryUsage.rss() / 1024 / 1024;
  let peak = rss();
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
  try {
    let stored: number;
    if (tarPath === null) {
      const [{ count }] = (await app.get<DataSource>(getDataSourceToken()).query('SELECT count(*)::int AS count FROM games')) as { count: number }[];
      stored = count;
      console.log(`patterns [${label}]: ${stored} games stored`);
    } else {
      const started = performance.now();
      const { state } = await sendImport(baseUrl, tarPath);
      stored = state.gamesStored;
      console.log(`patterns [${label}]: ${stored} games imported in ${((performance.now() - started) / 1000).toFixed(0)} s, peak RSS ${peak.toFixed(0)} MB`);
    }
    const GOALS = goalsFor(stored);
    const ask = async (s: Sought) => {
      const t0 = performance.now();
      const answer = await fetch(`${baseUrl}/patterns/games`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ family: 'go', pattern: s.pattern, anchor: s.kind === 'free' ? 'anywhere' : 'corner', plyTo: s.plyTo, sequence: s.sequence }),
      });
      if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
      const page = (await answer.json()) as { total: number };
      return { ms: performance.now() - t0, total: page.total };
    };
    const before = rss();
    const warm = await ask(sought[0]);
    const filter = app.get(PatternsService).filter;
    console.log(
      `patterns [${label}]: first search (reads the filter's rows: ${(filter.bytes / 1e6).toFixed(1)} MB of bits and first plies, ${(filter.lineBytes / 1e6).toFixed(1)} MB of lines kept) ${warm.ms.toFixed(0)} ms; RSS ${before.toFixed(0)} → ${rss().toFixed(0)} MB`,
    );
    for (const kind of ASKED_KINDS) {
      const times: number[] = [];
      for (const [i, s] of sought.filter((x) => x.kind === kind).entries()) {
        const { ms, total } = await ask(s);
        times.push(ms);
        if (i === 0 && brute.has(kind)) {
          const b = brute.get(kind)!;
          console.log(`patterns [${label}]: ${kind}: the archive finds ${total} games, the brute force ${b.found}${total === b.found ? '' : ' — DIFFERENT'}`);
        }
      }
      const sorted = [...times].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      const b = brute.get(kind);
      console.log(
        `patterns [${label}]: ${kind} ${String(sorted.length).padStart(3)} patterns, p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms ` +
          `(goal ≤ ${GOALS[kind]} ms: ${p95 <= GOALS[kind] ? 'met' : 'NOT met'}); ` +
          (b ? `brute force ${(b.ms / 1000).toFixed(1)} s: ${(b.ms / p95).toFixed(1)}× the p95 (goal ≥ 20×: ${b.ms / p95 >= 20 ? 'met' : 'NOT met'})` : 'no brute force'),
      );
    }
    console.log(`patterns [${label}]: peak RSS of the archive's process over the import and searches ${peak.toFixed(0)} MB`);
  } finally {
    clearInterval(sampler);
    await app.close();
  }
}

const movesOf = (sgf: string) => [...sgf.matchAll(/;([BW])\[([a-s]{2})?\]/g)].map((m) => ({ stone: (m[1] === 'B' ? BLACK : WHITE) as Stone, point: m[2] }));
const setupOf = (sgf: string) =>
  (['AB', 'AW'] as const).flatMap((id) => [...(new RegExp(`${id}((?:\\[[a-s]{2}\\])+)`).exec(sgf)?.[1].matchAll(/\[([a-s]{2})\]/g) ?? [])].map((m) => ({ stone: (id === 'AB' ? BLACK : WHITE) as Stone, point: m[1] })));

/** Every position of a game's main line, `visit` after the setup and after each ply (true stops). */
function replay(sgf: string, visit: (cells: Uint8Array, ply: number) => boolean): void {
  const position = new GoPosition(19);
  for (const { stone, point } of setupOf(sgf)) position.setStone(point.charCodeAt(0) - 97, point.charCodeAt(1) - 97, stone);
  if (visit(position.cells, 0)) return;
  const moves = movesOf(sgf);
  for (let i = 0; i < moves.length; i++) {
    const { stone, point } = moves[i];
    if (point) {
      if (!position.play(stone, point.charCodeAt(0) - 97, point.charCodeAt(1) - 97).legal) return;
    } else position.pass();
    if (visit(position.cells, i + 1)) return;
  }
}

/** The pattern's rows cut from a board's cells (`*` where the mask says). */
const cut = (cells: Uint8Array, left: number, top: number, width: number, height: number, wild: (x: number, y: number) => boolean) =>
  Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => (wild(x, y) ? '*' : '.XO'[cells[(top + y) * 19 + left + x]])).join(''));

/** A 19×19 point turned: the eight symmetries written out. */
const turnPoint = (x: number, y: number, t: number): [number, number] =>
  ([[x, y], [18 - y, x], [18 - x, 18 - y], [y, 18 - x], [18 - x, y], [x, 18 - y], [y, x], [18 - y, 18 - x]] as [number, number][])[t];

/** Turns 19×19 cells. */
function turned(cells: Uint8Array, t: number): Uint8Array {
  const out = new Uint8Array(361);
  for (let y = 0; y < 19; y++) {
    for (let x = 0; x < 19; x++) {
      const [tx, ty] = turnPoint(x, y, t);
      out[ty * 19 + tx] = cells[y * 19 + x];
    }
  }
  return out;
}

const stonesIn = (rows: readonly string[]) => rows.join('').replace(/[^XO]/g, '').length;

/** SAMPLES patterns of each kind from the first games: the densest corner after ply 40, the densest 4×4 after ply 60. */
async function samples(tygem: string): Promise<Sought[]> {
  const found: Sought[] = [];
  for await (const sgf of tygemSgf(tygem, SAMPLES * 3)) {
    if (found.length >= KINDS.length * SAMPLES) break;
    let at40: Uint8Array | null = null;
    let at60: Uint8Array | null = null;
    replay(sgf, (cells, ply) => {
      if (ply === 40) at40 = cells.slice();
      if (ply === 60) at60 = cells.slice();
      return ply >= 60;
    });
    if (!at40 || !at60) continue;
    const corners = Array.from({ length: 8 }, (_, t) => cut(turned(at40!, t), 0, 0, 7, 6, () => false));
    const best = corners.reduce((most, rows, t) => (stonesIn(rows) > stonesIn(corners[most]) ? t : most), 0);
    const corner = corners[best];
    let free: string[] = [];
    for (let top = 0; top <= 15; top++) {
      for (let left = 0; left <= 15; left++) {
        const rows = cut(at60, left, top, 4, 4, (x, y) => (x === 0 || x === 3) && (y === 0 || y === 3));
        if (stonesIn(rows) > stonesIn(free)) free = rows;
      }
    }
    if (found.filter((s) => s.kind === 'corner').length < SAMPLES) found.push({ kind: 'corner', pattern: corner });
    if (found.filter((s) => s.kind === 'free').length < SAMPLES) found.push({ kind: 'free', pattern: free });
    if (found.filter((s) => s.kind === 'span').length < SAMPLES) found.push({ kind: 'span', pattern: corner, plyTo: SPAN_TO });
    // The corner with the next two moves played in it after ply 40 numbered (their cells empty then).
    const rows = corner.map((row) => [...row]);
    const digits = rows.map((row) => row.map(() => '.'));
    let numbered = 0;
    for (const { stone, point } of movesOf(sgf).slice(40)) {
      if (!point) continue;
      const [x, y] = turnPoint(point.charCodeAt(0) - 97, point.charCodeAt(1) - 97, best);
      if (x >= 7 || y >= 6) continue;
      if (rows[y][x] !== '.') break;
      rows[y][x] = stone === BLACK ? 'X' : 'O';
      digits[y][x] = String(++numbered);
      if (numbered === 2) break;
    }
    if (numbered > 0 && found.filter((s) => s.kind === 'sequence').length < SAMPLES) {
      found.push({ kind: 'sequence', pattern: rows.map((row) => row.join('')), sequence: digits.map((row) => row.join('')) });
    }
  }
  return found;
}

/**
 * Every game replayed, every placement of the pattern tested after every ply of the span (8 turns ×
 * the anchor's offsets; numbered cells wanted empty), and with a sequence the numbered moves looked
 * for in the game's moves after each ply matched: how long, how many games hold it.
 */
async function bruteForce(tygem: string, wanted: number, sought: Sought): Promise<{ ms: number; found: number }> {
  const { pattern, sequence } = sought;
  const anchor = sought.kind === 'free' ? 'anywhere' : 'corner';
  const last = sought.plyTo ?? Infinity;
  // The placements: the pattern turned by each symmetry of the board, at each offset, with the points of its numbered moves in order.
  const placements: { points: number[]; wants: number[]; moves: { point: number; stone: number }[] }[] = [];
  const ph = pattern.length;
  const pw = pattern[0].length;
  for (let t = 0; t < 8; t++) {
    for (let top = 0; top + ph <= 19; top++) {
      for (let left = 0; left + pw <= 19; left++) {
        if (anchor === 'corner' && (left > 0 || top > 0)) continue;
        const points: number[] = [];
        const wants: number[] = [];
        const moves: { digit: number; point: number; stone: number }[] = [];
        for (let y = 0; y < ph; y++) {
          for (let x = 0; x < pw; x++) {
            const c = pattern[y][x];
            if (c === '*') continue;
            // The point of the board that the board turned by t puts at (left + x, top + y).
            const bx = left + x;
            const by = top + y;
            const back = [[bx, by], [by, 18 - bx], [18 - bx, 18 - by], [18 - by, bx], [18 - bx, by], [bx, 18 - by], [by, bx], [18 - by, 18 - bx]][t];
            const digit = sequence?.[y][x] ?? '.';
            points.push(back[1] * 19 + back[0]);
            wants.push(digit === '.' ? '.XO'.indexOf(c) : 0);
            if (digit !== '.') moves.push({ digit: Number(digit), point: back[1] * 19 + back[0], stone: '.XO'.indexOf(c) });
          }
        }
        placements.push({ points, wants, moves: moves.sort((a, b) => a.digit - b.digit) });
      }
    }
  }
  const started = performance.now();
  // Whether each game replayed holds the pattern (BENCH_PATTERNS_BRUTE=distinct: the copies are counted from them).
  const held: boolean[] = [];
  for await (const sgf of tygemSgf(tygem, wanted, { turnCopies: true })) {
    if (DISTINCT_ONLY && / copy 2\]/.test(sgf)) break;
    const moves = movesOf(sgf).map(({ stone, point }) => ({ stone, point: point ? (point.charCodeAt(1) - 97) * 19 + point.charCodeAt(0) - 97 : -1 }));
    // The plies at which a placement matches, with it (a sequence is looked for once the line's legal end is known).
    const matched: { ply: number; placement: number }[] = [];
    let plies = 0;
    replay(sgf, (cells, ply) => {
      plies = ply;
      // Past the span: the line is followed on only for the numbered moves' legal end.
      if (ply > last) return !sequence;
      for (let i = 0; i < placements.length; i++) {
        const { points, wants } = placements[i];
        let all = true;
        for (let k = 0; all && k < points.length; k++) all = cells[points[k]] === wants[k];
        if (!all) continue;
        matched.push({ ply, placement: i });
        if (!sequence) return true;
      }
      return false;
    });
    const hit = matched.some(({ ply, placement }) => {
      let q = ply;
      for (const move of placements[placement].moves) {
        q++;
        while (q <= plies && !(moves[q - 1].point === move.point && moves[q - 1].stone === move.stone)) q++;
        if (q > plies) return false;
      }
      return true;
    });
    held.push(hit);
  }
  const ms = performance.now() - started;
  if (held.length === wanted) return { ms, found: held.filter(Boolean).length };
  // The copies past the distinct games, each turned by a symmetry: a copy holds the pattern (under
  // some symmetry) exactly when the game it turns does, and takes as long to replay.
  let found = 0;
  for (let i = 0; i < wanted; i++) if (held[i % held.length]) found++;
  return { ms: (ms * wanted) / held.length, found };
}
