import { ProblemException } from '../../src/common/problem-codes.js';
import { BOARD_MASKS_BYTES, cellsOfMasks, masksOfCells, popcount, squareBit } from '../../src/formats/families/checkers/board-masks.js';
import { checkersTrackOf } from '../../src/formats/families/checkers/positions.js';
import { applyMove, judgeMove, Position } from '../../src/rules/checkers/index.js';
import type { Piece } from '../../src/rules/checkers/index.js';
import { compileMaterial, compilePattern, firstMatchingPly } from '../../src/patterns/draughts-search.js';
import type { DraughtsQuery } from '../../src/patterns/draughts-search.js';

/*
 * The draughts masks and their matching, on positions worked out by hand. Squares are named as
 * players read the board from white's side (a1 dark, bottom left); PDN numbers the dark squares
 * 1 = b8, 2 = d8, 3 = f8, 4 = h8, 5 = a7 … 29 = a1, 30 = c1, 31 = e1, 32 = g1, so bit n − 1 is square n.
 */

/** A mask of PDN square numbers. */
const numbers = (...ns: number[]) => ns.reduce((mask, n) => mask | (1 << (n - 1)), 0);
/** The engine's square of a name like `c3` (row 0 is rank 8). */
const square = (name: string) => (8 - Number(name[1])) * 8 + 'abcdefgh'.indexOf(name[0]);

const START = ['-b-b-b-b', 'b-b-b-b-', '-b-b-b-b', '.-.-.-.-', '-.-.-.-.', 'w-w-w-w-', '-w-w-w-w', 'w-w-w-w-'];
const ANY = ['-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-', '-*-*-*-*', '*-*-*-*-'];

const query = (over: Partial<DraughtsQuery>): DraughtsQuery => ({ hold: [0, 0, 0, 0], empty: 0, fewest: [0, 0, 0, 0], most: [12, 12, 12, 12], plyFrom: 0, plyTo: null, ...over });

const code = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    if (error instanceof ProblemException) return error.code;
    throw error;
  }
  return 'none';
};

describe('draughts masks', () => {
  it('number the dark squares as PDN does, light squares none', () => {
    expect(squareBit(square('b8'))).toBe(0);
    expect(squareBit(square('h8'))).toBe(3);
    expect(squareBit(square('a7'))).toBe(4);
    expect(squareBit(square('a1'))).toBe(28);
    expect(squareBit(square('g1'))).toBe(31);
    expect(squareBit(square('c3'))).toBe(21);
    expect(squareBit(square('a8'))).toBe(-1);
    expect(squareBit(square('h1'))).toBe(-1);
  });

  it('the start position: white men on 21–32 (a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3), black men on 1–12', () => {
    const [whiteMen, whiteKings, blackMen, blackKings] = masksOfCells(Position.initial().cells);
    const white = ['a1', 'c1', 'e1', 'g1', 'b2', 'd2', 'f2', 'h2', 'a3', 'c3', 'e3', 'g3'].map((name) => squareBit(square(name)) + 1);
    expect(white.sort((a, b) => a - b)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]);
    expect(whiteMen).toBe(0xfff00000);
    expect(blackMen).toBe(0x00000fff);
    expect(whiteKings).toBe(0);
    expect(blackKings).toBe(0);
    expect(popcount(whiteMen)).toBe(12);
    expect(popcount(0xffffffff)).toBe(32);
    expect(popcount(0)).toBe(0);
  });

  it('a board written and read back holds the same pieces', () => {
    const pieces: [number, Piece][] = [[square('c3'), 1], [square('h8'), 11], [square('b6'), 2], [square('a1'), 12]];
    const position = Position.of(pieces, 'white');
    const bytes = new Uint8Array(BOARD_MASKS_BYTES);
    const masks = masksOfCells(position.cells);
    expect(masks).toEqual([numbers(22), numbers(4), numbers(9), numbers(29)]);
    new DataView(bytes.buffer).setUint32(0, masks[0]);
    new DataView(bytes.buffer).setUint32(4, masks[1]);
    new DataView(bytes.buffer).setUint32(8, masks[2]);
    new DataView(bytes.buffer).setUint32(12, masks[3]);
    expect([...cellsOfMasks(bytes, 0)]).toEqual([...position.cells]);
  });
});

describe('draughts patterns compiled', () => {
  it('the start position: the men as they stand, rows 4 and 5 empty', () => {
    const { hold, empty } = compilePattern(START);
    expect(hold.map((mask) => mask >>> 0)).toEqual([0xfff00000, 0, 0x00000fff, 0]);
    expect(empty >>> 0).toBe(numbers(13, 14, 15, 16, 17, 18, 19, 20));
  });

  it('kings, empty squares and anything', () => {
    const rows = [...ANY];
    rows[0] = '-*-*-*-W'; // h8: a white king (4)
    rows[4] = '-.-*-*-*'; // b4: empty (17)
    rows[7] = 'B-*-*-*-'; // a1: a black king (29)
    rows[5] = '*-w-*-*-'; // c3: a white man (22)
    rows[2] = '-*-*-b-*'; // f6: a black man (11)
    const { hold, empty } = compilePattern(rows);
    expect(hold).toEqual([numbers(22), numbers(4), numbers(11), numbers(29)]);
    expect(empty).toBe(numbers(17));
    expect(compilePattern(ANY)).toEqual({ hold: [0, 0, 0, 0], empty: 0 });
  });

  it('refuses a board not 8×8, a piece on a light square, an unknown character: pattern.invalid', () => {
    expect(code(() => compilePattern(START.slice(0, 7)))).toBe('pattern.invalid');
    expect(code(() => compilePattern([...START, START[0]]))).toBe('pattern.invalid');
    expect(code(() => compilePattern([`${START[0]}-`, ...START.slice(1)]))).toBe('pattern.invalid');
    expect(code(() => compilePattern(['wb-b-b-b', ...START.slice(1)]))).toBe('pattern.invalid');
    expect(code(() => compilePattern(['-b-b-b-b', 'b-b-b-bB', ...START.slice(2)]))).toBe('pattern.invalid');
    expect(code(() => compilePattern(['-b-b-b-b', 'b-b-b-b-', '-b-b-b-b', '-.-.-.-.', ...START.slice(4)]))).toBe('pattern.invalid');
    expect(code(() => compilePattern(['-x-b-b-b', ...START.slice(1)]))).toBe('pattern.invalid');
  });

  it('material: bounds per side and kind, open ends, lo above hi refused', () => {
    expect(compileMaterial(undefined)).toEqual({ fewest: [0, 0, 0, 0], most: [12, 12, 12, 12] });
    expect(compileMaterial({ white: { men: [3, 5] }, black: { kings: [1, null] } })).toEqual({ fewest: [3, 0, 0, 1], most: [5, 12, 12, 12] });
    expect(compileMaterial({ black: { men: [null, 2], kings: [0, 0] } })).toEqual({ fewest: [0, 0, 0, 0], most: [12, 12, 2, 0] });
    expect(code(() => compileMaterial({ white: { men: [5, 3] } }))).toBe('pattern.invalid');
    expect(code(() => compileMaterial({ white: { men: [0, 13] } }))).toBe('request.invalid');
    expect(code(() => compileMaterial({ white: { men: [1.5, 2] } }))).toBe('request.invalid');
    expect(code(() => compileMaterial({ red: {} } as never))).toBe('request.invalid');
  });
});

describe('draughts matching over a game', () => {
  /** 1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3: the positions as the family's track writes them. */
  const plies = (() => {
    let position = Position.initial();
    const moves = [];
    for (const [from, to, captured] of [
      ['c3', 'd4', null],
      ['f6', 'e5', null],
      ['d4', 'f6', 'e5'],
      ['g7', 'e5', 'f6'],
      ['b2', 'c3', null],
    ] as const) {
      const judgement = judgeMove(position, { from: square(from), landings: [square(to)], captured: captured ? [square(captured)] : [] });
      if (!judgement.legal) throw new Error(`${from}-${to} is refused: ${judgement.reason}`);
      moves.push(judgement.move);
      position = applyMove(position, judgement.move);
    }
    return checkersTrackOf(Position.initial(), moves, { board: true }).squares!;
  })();

  it('the track holds a board a ply, the start first', () => {
    expect(plies.length).toBe(6 * BOARD_MASKS_BYTES);
    expect([...cellsOfMasks(plies, 0)]).toEqual([...Position.initial().cells]);
  });

  it('finds the first ply of a pattern, within the ply range', () => {
    const c3 = [...ANY];
    c3[5] = '*-w-*-*-';
    const compiled = compilePattern(c3);
    expect(firstMatchingPly(query(compiled), plies)).toBe(0);
    expect(firstMatchingPly(query({ ...compiled, plyFrom: 1 }), plies)).toBe(5);
    expect(firstMatchingPly(query({ ...compiled, plyFrom: 1, plyTo: 4 }), plies)).toBe(-1);
    // e5 black, f6 and d4 empty: ply 4 only (at ply 2 f6 is empty and e5 black, but d4 holds white's man).
    const e5 = [...ANY];
    e5[2] = '-*-*-.-*';
    e5[3] = '*-*-b-*-';
    e5[4] = '-*-.-*-*';
    expect(firstMatchingPly(query(compilePattern(e5)), plies)).toBe(4);
    expect(firstMatchingPly(query(compilePattern(START)), plies)).toBe(0);
    expect(firstMatchingPly(query({ ...compilePattern(START), plyFrom: 1 }), plies)).toBe(-1);
  });

  it('finds the first ply of material bounds, and of both at once', () => {
    expect(firstMatchingPly(query({ most: [12, 12, 11, 12] }), plies)).toBe(3);
    expect(firstMatchingPly(query({ most: [11, 12, 12, 12] }), plies)).toBe(4);
    expect(firstMatchingPly(query({ fewest: [0, 1, 0, 0] }), plies)).toBe(-1);
    const c3 = [...ANY];
    c3[5] = '*-w-*-*-';
    expect(firstMatchingPly(query({ ...compilePattern(c3), most: [11, 12, 12, 12] }), plies)).toBe(5);
  });

  it('a first ply given: the positions cut from a later ply keep their numbers', () => {
    const from2 = plies.subarray(2 * BOARD_MASKS_BYTES);
    expect(firstMatchingPly(query({ most: [12, 12, 11, 12], plyFrom: 2 }), from2, 2)).toBe(3);
  });
});
