import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Board, Cell, MoveMode, StoneColour } from '../../../src/rules/peg-solitaire/board.js';
import { readBoardFile } from '../../../src/formats/plugins/peg-solitaire/plugin.js';
import { writeV2 } from '../../../src/formats/plugins/peg-solitaire/write-v2.js';

const COLOURS: Readonly<Record<string, StoneColour | null>> = { r: 'red', y: 'yellow', g: 'green', e: null };

/**
 * A board from rows of version-2 letters without spaces (`*` locked, `r`/`y`/`g` stones, `e` empty,
 * upper case = target), for tests and benchmarks that want a board without a file.
 */
export function boardFromRows(rows: readonly string[], mode: MoveMode = 'normal'): Board {
  const width = rows[0]?.length ?? 0;
  const cells: Cell[] = [];
  for (const row of rows) {
    if (row.length !== width) throw new Error(`rows of different lengths: "${row}"`);
    for (const char of row) {
      if (char === '*') cells.push({ kind: 'locked', halfWidth: false });
      else if (char.toLowerCase() in COLOURS) cells.push({ kind: 'slot', stone: COLOURS[char.toLowerCase()], target: char !== char.toLowerCase() });
      else throw new Error(`unknown cell "${char}"`);
    }
  }
  return { mode, width, height: rows.length, cells, rowShifts: rows.map(() => 0) };
}

/**
 * A 13x10 peg board cut in two by a column of locked cells (`*`), with stones on both sides. In normal
 * mode a jump moves along a row or a column over a stone into a slot, so no jump crosses the locked
 * column and at least one stone stays on each side: the board cannot be cleared to one stone. Its
 * parity class allows a last stone, though, so no parity argument settles it, and proving it by
 * search means exhausting the positions of some 100 stones: the solver spends any budget of seconds on
 * it and answers `solvable: unknown`, however fast the machine (the board the tests used before was
 * solvable and was solved within the budget on a fast one).
 */
export const HEAVY_BOARD_TEXT =
  'Version 2\r\nMode: Normal\r\n' +
  ['E E E E y y * y E y y y y', 'y y y E y y * y E E y y y', 'y E y y y y * y y y y y y', 'y y y E y y * y E E E y y', 'y y y E E y * E y E y y y',
   'E y y y y y * y y y y y y', 'y y y y y y * y y E E y y', 'y y y y y E * y y y y E y', 'E E y E E y * y E E y y y', 'y y E y y y * y y E y E y']
    .map((row) => `${row}\r\n`)
    .join('');

/** Converts a board file of either version to canonical version-2 text (what `/regenerated` serves). */
export function convertToV2(bytes: Uint8Array): string {
  return writeV2(readBoardFile({ bytes: Buffer.from(bytes) }).board);
}

export interface RealBoardFile {
  /** Folder under `test/fixtures/realdata/peg/`: `v1_e522458`, `v2_4bf2dc7` or `v2_head`. */
  readonly folder: string;
  readonly name: string;
  readonly bytes: Buffer;
}

export const REAL_BOARD_ROOT = join('test', 'fixtures', 'realdata', 'peg');
export const REAL_BOARD_FOLDERS = ['v1_e522458', 'v2_4bf2dc7', 'v2_head'] as const;

/** Every real `.brd` file, folder by folder, names sorted; paths relative to `root` (the repository). */
export function realBoardFiles(root = process.cwd()): RealBoardFile[] {
  return REAL_BOARD_FOLDERS.flatMap((folder) => {
    const dir = join(root, REAL_BOARD_ROOT, folder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.brd'))
      .sort()
      .map((name) => ({ folder, name, bytes: readFileSync(join(dir, name)) }));
  });
}
