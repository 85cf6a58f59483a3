import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeIfThere } from './optional.js';

/*
 * The shared real data: game files written by other programs that the project may read but not ship
 * (the Fox and TYGEM Go games come without a licence). Tests and benches find them through one
 * setting, TABULA_REALDATA: the folder, by default `../shared/realdata`; a relative value is taken
 * from the repository's root, never from the working directory. A suite that needs something in it
 * and does not find it says so in one line and is skipped, or fails when TABULA_REQUIRE_REALDATA=1
 * (CI, so that nothing is skipped there unseen). A bench stops, saying the same.
 */

/** Something in the shared folder: its path inside it, and what it is, for messages. */
export interface SharedData {
  readonly relative: string;
  readonly what: string;
}

/** The Fox Go Server games (client YuanYu): 130 SGF files. */
export const FOX_GAMES: SharedData = { relative: 'go/fox-deepzengo', what: 'Fox games' };
/** The TYGEM games of January to June 2006: move lists and an index, zipped. */
export const TYGEM_GAMES: SharedData = { relative: 'go/tygem', what: 'TYGEM games' };

/** One file of a shared folder, e.g. `inShared(FOX_GAMES, 'fox-002.sgf')`. */
export const inShared = (data: SharedData, file: string): SharedData => ({ relative: `${data.relative}/${file}`, what: `${file} of the ${data.what}` });

/** The repository's root: the nearest folder above this file with a package.json (it runs from test/support, and from dist/test/support in the benches). */
function repositoryRoot(): string {
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}

export const REPOSITORY_ROOT = repositoryRoot();

/** The shared folder as TABULA_REALDATA names it (default `../shared/realdata`), absolute. */
export function realdataFolder(): string {
  return resolve(REPOSITORY_ROOT, process.env.TABULA_REALDATA || '../shared/realdata');
}

/** The absolute path of `data`, whether or not it is there. */
export function realdataPath(data: SharedData): string {
  return join(realdataFolder(), data.relative);
}

/** null when `data` is there; else what is missing, where, and the setting that says where to look. */
export function realdataMissing(data: SharedData): string | null {
  const path = realdataPath(data);
  return existsSync(path) ? null : `no ${data.what} at ${path} (set TABULA_REALDATA to the shared real-data folder, by default ../shared/realdata beside the repository)`;
}

/**
 * `describe(title, …)` over shared data: `block` gets the absolute path of `data` when it is there.
 * When it is not, the suite says so in one line and is skipped, or, with TABULA_REQUIRE_REALDATA=1,
 * holds one failing test that names the missing path (test/support/optional).
 */
export function describeWithRealdata(title: string, data: SharedData, block: (path: string) => void): void {
  describeIfThere(title, { what: `its ${data.what}`, missing: realdataMissing(data), requiredBy: 'TABULA_REQUIRE_REALDATA' }, () => block(realdataPath(data)));
}

/** For a bench: the absolute path of `data`; when it is missing, one line on stderr and the process stops. */
export function realdataForBench(bench: string, data: SharedData): string {
  const missing = realdataMissing(data);
  if (missing === null) return realdataPath(data);
  console.error(`bench ${bench} stopped: ${missing}`);
  process.exit(1);
}
