import { readBoardFile } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { parseV2 } from '../../../../src/formats/plugins/peg-solitaire/read-v2.js';
import { writeV2 } from '../../../../src/formats/plugins/peg-solitaire/write-v2.js';
import { census, sameGame } from '../../../../src/rules/peg-solitaire/board.js';
import { realBoardFiles } from '../../../support/peg-solitaire/boards.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const files = realBoardFiles();
const byFolder = (folder: string) => files.filter((f) => f.folder === folder);
const read = (bytes: Buffer) => readBoardFile({ bytes });

describe('real ViaThinkSoft boards', () => {
  it('has the 18 + 18 + 30 files the issue names', () => {
    expect(byFolder('v1_e522458')).toHaveLength(18);
    expect(byFolder('v2_4bf2dc7')).toHaveLength(18);
    expect(byFolder('v2_head')).toHaveLength(30);
  });

  describe.each(files.map((f) => [`${f.folder}/${f.name}`, f] as const))('%s', (_, file) => {
    const parsed = read(file.bytes);

    it('is read with the version its folder says, and its mode from its name', () => {
      expect(parsed.formatVersion).toBe(file.folder === 'v1_e522458' ? 1 : 2);
      // Every real file whose name mentions diagonal moves is in diagonal mode; the triangles, hexagon,
      // star and friends of the current release are too (their header says so).
      if (/diagonal/i.test(file.name)) expect(parsed.board.mode).toBe('diagonal');
      if (/^(English|German|French|Drag|Diamond Board\.|Asym|FunCircus|6x6|Heart\.)/.test(file.name) && !/diagonal/i.test(file.name)) {
        expect(parsed.board.mode).toBe('normal');
      }
    });

    it('has one empty slot or more and at least one stone', () => {
      const counts = census(parsed.board);
      expect(counts.stoneCount).toBeGreaterThan(0);
      expect(counts.slots - counts.stoneCount).toBeGreaterThanOrEqual(1);
    });

    it('regenerates as canonical version 2 that reads back to the same board, and is a fixed point', () => {
      const text = writeV2(parsed.board);
      const again = parseV2(text, DEFAULT_LIMITS);
      expect(again.dotReading).toBe('shift');
      expect(sameGame(again.board, parsed.board)).toBe(true);
      expect(writeV2(again.board)).toBe(text);
      if (parsed.dotReading === 'shift') expect(again.board.rowShifts).toEqual(parsed.board.rowShifts);
    });
  });

  describe.each(byFolder('v1_e522458').map((f) => [f.name, f] as const))('%s in version 1 and in the first version 2', (name, v1) => {
    it('reads to the same slots, stones and targets', () => {
      const v2 = byFolder('v2_4bf2dc7').find((f) => f.name === name);
      expect(v2).toBeDefined();
      const a = read(v1.bytes).board;
      const b = read(v2!.bytes).board;
      expect(sameGame(a, b)).toBe(true);
      expect(census(a)).toEqual(census(b));
    });
  });

  it('reads the English board as 33 slots, 32 yellow stones and the centre as the one target', () => {
    for (const file of files.filter((f) => f.name === 'English Standard Board.brd')) {
      const { board } = read(file.bytes);
      expect(census(board)).toMatchObject({ slots: 33, stones: { red: 0, yellow: 32, green: 0 }, targets: 1, stoneValue: 640 });
      expect(board.cells[3 * 7 + 3]).toEqual({ kind: 'slot', stone: null, target: true });
    }
  });

  it('reads the Drag-n-Drop colours: 16 red, 12 yellow, 8 green, worth 800', () => {
    const file = files.find((f) => f.folder === 'v1_e522458' && f.name.startsWith('Drag-n-Drop Board  Variant A'))!;
    expect(census(read(file.bytes).board)).toMatchObject({ stones: { red: 16, yellow: 12, green: 8 }, stoneValue: 800, targets: 0 });
  });

  it('reads the half-width fields of the version-1 triangles, and the same fields as dots in the first version 2', () => {
    for (const folder of ['v1_e522458', 'v2_4bf2dc7']) {
      const file = byFolder(folder).find((f) => f.name === 'Triangle Board Variant A.brd')!;
      const { board } = read(file.bytes);
      expect(board).toMatchObject({ width: 5, height: 5 });
      const halfWidth = board.cells.filter((c) => c.kind === 'locked' && c.halfWidth).length;
      expect(halfWidth).toBe(4 + 3 + 2 + 1);
      // The target: the middle of the bottom row (`22>222` / `y y Y y y`).
      expect(board.cells[4 * 5 + 2]).toMatchObject({ kind: 'slot', target: true });
    }
  });

  it('reads the current release\'s triangle with dots as shifts: the same slot count, drawn from the left', () => {
    const file = byFolder('v2_head').find((f) => f.name === 'Triangle Board Variant A.brd')!;
    const parsed = read(file.bytes);
    expect(parsed.dotReading).toBe('shift');
    expect(parsed.board.rowShifts).toEqual([4, 3, 2, 1, 0]);
    expect(census(parsed.board).slots).toBe(15);
  });

  it('reads the snowflake, whose rows carry trailing dots and leading spaces, as 9 × 9', () => {
    const parsed = read(byFolder('v2_head').find((f) => f.name === 'Snowflake.brd')!.bytes);
    expect(parsed.board).toMatchObject({ width: 9, height: 9 });
    expect(parsed.board.rowShifts).toEqual([-4, -3, -2, -1, 0, 1, 2, 3, 4]);
  });
});
