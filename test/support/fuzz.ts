import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { FormatError } from '../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import type { FormatPlugin, ReadOptions } from '../../src/formats/plugin.js';
import { filesUnder } from './files.js';

export const FUZZ_OPTIONS: ReadOptions = { timeBudgetMs: 200, limits: DEFAULT_LIMITS };

const here = (path: string): string => new URL(path, import.meta.url).pathname;

/** Real files of each plugin's format, read once: the seeds of the mutations. */
export const FIXTURES: Readonly<Record<string, readonly Buffer[]>> = {
  'gofans-xml': filesUnder(here('../fixtures/gofans-examples/'), '.xml').map((p) => readFileSync(p)),
  'bars-checkers': [readFileSync(here('../e2e/fixtures/demonstration.bars')), Buffer.from('{"area_monitor": null, "go": [[156, 145], [223, 234], [145, 10234, 123]]}')],
  'vk-dots': filesUnder(here('../formats/plugins/vk-dots/fixtures/'), '.txt').map((p) => readFileSync(p)),
  'dots-server': [readFileSync(here('../e2e/fixtures/board-state.204'))],
  'dots-transcript': filesUnder(here('../formats/plugins/dots-transcript/fixtures/'), '.txt').map((p) => readFileSync(p)),
  'sgf-go': ['9x9-4.sgf', 'olympiad2006/9x9/gnu-aya.sgf', 'egc2001/tg-gg.sgf'].map((p) => readFileSync(here(`../fixtures/realdata/go/gnugo_regression_games/${p}`))),
  'sgf-dots': ['bartek-d-kropla/1295.sgf', 'oppai-rs/zagram352562.sgf', 'KvanTTT-Dots-Game-AI/DotsGame.Formtas.Tests_FullSgfWithStop.sgf'].map((p) =>
    readFileSync(here(`../fixtures/realdata/dots/${p}`)),
  ),
  // The first game, and the first three (a collection), of the USSR 1947 database.
  'pdn-draughts': [1, 3].map((games) => firstGames(readFileSync(here('../fixtures/realdata/checkers/russian/ussr1947.pdn')), games)),
  'peg-solitaire': ['v1_e522458/FunCircus.brd', 'v2_head/Arrow.brd', 'v2_head/Heart.brd', 'v2_head/Star.brd', 'v2_head/Trapeze.brd'].map((p) =>
    readFileSync(here(`../fixtures/realdata/peg/${p}`)),
  ),
};

/** The bytes of a PDN file up to its game number `games + 1` (each game opens with a White tag). */
function firstGames(pdn: Buffer, games: number): Buffer {
  const next = [...pdn.toString('latin1').matchAll(/^\[White /gm)][games]?.index;
  return pdn.subarray(0, next);
}

type Mutation =
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'duplicate-line'; at: number; times: number }
  | { kind: 'delete'; at: number; length: number };

const position = fc.nat({ max: 1_000_000 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: position, mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: position,
    bytes: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 8 }),
      fc.constantFrom(...['<', '>', '"', '#', '@', '[', ']', ',', '!', '\n', '\r', '&#x0;', '&amp;', '<move playerId="0"/>', '0f', '-', '.', '9', '\uFEFF'].map((s) => Buffer.from(s))),
    ),
  }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: position, times: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 16 }) }),
);

function apply(bytes: Buffer, m: Mutation): Buffer {
  const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
  switch (m.kind) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      copy[at % bytes.length] ^= m.mask;
      return copy;
    }
    case 'truncate':
      return bytes.subarray(0, at);
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), m.bytes, bytes.subarray(at)]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
    case 'duplicate-line': {
      const start = bytes.lastIndexOf(0x0a, at - 1) + 1;
      const nl = bytes.indexOf(0x0a, at);
      const end = nl < 0 ? bytes.length : nl + 1;
      const line = bytes.subarray(start, end);
      return Buffer.concat([bytes.subarray(0, end), ...Array.from({ length: m.times }, () => line), bytes.subarray(end)]);
    }
  }
}

/** A real file of the format with up to five random mutations. */
export function mutatedFixture(plugin: string): fc.Arbitrary<Buffer> {
  const seeds = FIXTURES[plugin];
  return fc
    .tuple(fc.nat({ max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 5 }))
    .map(([index, mutations]) => mutations.reduce(apply, seeds[index]));
}

/** Pieces each format is written with, so random text gets past the first checks. */
const ALPHABETS: Readonly<Record<string, readonly string[]>> = {
  'gofans-xml': ['<Game>', '</Game>', '<Publisher>GoFans</Publisher>', '<Version>1.2</Version>', '<Version>2.1</Version>', '<Header>', '</Header>', '<Body>', '</Body>', '<players><player id="0" name="a" points="0"/></players>', '<boardSize>3</boardSize>', '<move playerId="0" x="1" y="1">', '<move playerId="0" color="white" x="0" y="0"/>', '</move>', '<removes><remove x="1" y="1"/></removes>', '<!--', '-->', ' ', '\n'],
  'bars-checkers': ['go', 'area_monitor', ' = ', '[', ']', ', ', '156', '145', '10234', '0', '9', '1', '12', '11', '2', '{', '}', '"go"', ':', '#', '\n', ';', 'null'],
  'vk-dots': ['1.0\n', '1 a\n', '-b+\n', '+s-\n', 'aa', 'ab', 'ba', 'bb', 'ac', 'ca', 'cc', 'bc', 'cb', '#', '@', '0f', '0s', '1@0', '0@1', '\n', 'zz', '11'],
  'dots-server': ['204 x\n', 'ACU a\n', 'AUF 1 1\n', 'AUF 1 0 1\n', 'SCR 0 0\n', 'SCR 1 0 0\n', 'GAL ', '0', '1', '2', '5', '6', '9', '3', '\n', ' '],
  'dots-transcript': ['TABULA DOTS TRANSCRIPT 1\n', 'game 1\n', 'started 2026-11-23T01:00:00.000Z\n', 'field 10 10\n', 'field 2 1\n', 'time 30\n', 'extra 1\n', 'start central\n', 'start anywhere\n', 'player 1 a\n', 'player 2 b\n', 'player 3 c\n', 'move 1 4 4 1\n', 'move 2 5 5 2\n', 'move 1 0 0 3\n', 'move 2 1 0 3\n', 'stop 1 srd 4\n', 'stop 2 timeout 5\n', 'end last_player 6\n', 'end no_free_point 6\n', 'end unfinished 6\n', 'score 0 0\n', 'score 1 0\n', '\n'],
  'sgf-go': ['(', ')', ';', 'GM[1]', 'FF[4]', 'SZ[9]', 'SZ[19]', 'SZ[3:5]', 'KM[6.5]', 'KM[750]', 'HA[2]', 'AB[aa][bb]', 'AW[cc]', 'AE[aa]', 'B[', 'W[', ']', 'aa', 'ab', 'tt', 'ii', 'PB[x]', 'RE[B+R]', 'RE[W+2.5]', 'CA[latin1]', 'CA[gbk]', 'DT[2001-02-03]', '\\', '\n', '\xe9'],
  'sgf-dots': ['(', ')', ';', 'GM[40]', 'FF[4]', 'SZ[5]', 'SZ[39:32]', 'AB[cc][dd]', 'AW[cd][dc]', 'B[', 'W[', ']', 'aa', 'bb', 'ab', 'ba', '.', 'abbccbba', 'Zz', 'RE[B+3]', 'RE[W+R]', 'RE[0]', 'B[]', 'W[]', '\n'],
  'pdn-draughts': ['[White "a"]\n', '[Black "b"]\n', '[Result "1-0"]\n', '[GameType "25"]\n', '[FEN "W:W21,22:B1,K3"]\n', '1. ', '2. ', '1... ', 'c3-d4 ', 'd6-e5 ', 'e5:c3 ', 'b2:d4 ', '22-18 ', '11x15 ', '18x11x4 ', '{c}', '(', ')', '$1 ', '!', '?', '1-0', '0-1', '1/2-1/2', '*', '\n', ' '],
  'peg-solitaire': ['1N~', '1D~', 'version 2\n', 'mode: normal\n', 'mode: diagonal\n', 'X', '*', '>', '!', '1', '2', '3', 'E', 'e', 'y', 'Y', 'r', 'g', '.', ' ', '\n', '\r\n'],
};

/** Random sequences of a format's own pieces. */
export function formatWords(plugin: string): fc.Arbitrary<Buffer> {
  return fc.array(fc.constantFrom(...ALPHABETS[plugin]), { maxLength: 80 }).map((words) => Buffer.from(words.join(''), 'utf8'));
}

/**
 * Runs per property are kept low so the folder takes seconds; `FUZZ_SCALE=20 npm test -- test/fuzz`
 * searches deeper (fast-check prints the seed and the shrunk input of any failure).
 */
export const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

export const arbitraryBytes: fc.Arbitrary<Buffer> = fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b));
export const arbitraryText: fc.Arbitrary<Buffer> = fc.string({ unit: 'binary', maxLength: 300 }).map((s) => Buffer.from(s, 'utf8'));

/** What a plugin may do with any input: return, or refuse with a FormatError. Anything else is a bug. */
export async function onlyFormatErrors(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof FormatError) return;
    throw error;
  }
}

export async function readAndRegenerate(plugin: FormatPlugin, bytes: Buffer): Promise<void> {
  if (plugin.split) await onlyFormatErrors(async () => plugin.split!({ bytes, filename: 'fuzz' }, FUZZ_OPTIONS));
  await onlyFormatErrors(() => plugin.read({ bytes, filename: 'fuzz' }, FUZZ_OPTIONS));
  await onlyFormatErrors(() => plugin.regenerate({ bytes, filename: 'fuzz' }, FUZZ_OPTIONS));
}
