import { readBoardFile } from '../../../src/formats/plugins/peg-solitaire/plugin.js';
import { Board, Cell, Point } from '../../../src/rules/peg-solitaire/board.js';
import { directions, geometryOf } from '../../../src/rules/peg-solitaire/geometry.js';
import { judgeJump, playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { PegPositionHasher, pegBoardSymmetries, pegPositionKeys } from '../../../src/rules/peg-solitaire/position-key.js';
import { solve } from '../../../src/rules/peg-solitaire/solver.js';
import { symmetriesOf } from '../../../src/rules/peg-solitaire/symmetry.js';
import { TRANSFORMS, TransformName, transformName } from '../../../src/rules/symmetry.js';
import { boardFromRows, realBoardFiles } from '../../support/peg-solitaire/boards.js';
import { Rows, namesFor, seeded, turnRows } from '../../support/positions/grids.js';

/*
 * Peg-solitaire position keys on the real ViaThinkSoft boards (versions 1 and 2), against a brute
 * force written here: the slots' box cut out of the matrix and turned by hand (./grids.ts).
 */

const boards = realBoardFiles().map((file) => ({ name: `${file.folder}/${file.name}`, board: readBoardFile({ bytes: file.bytes }).board }));

/** The board as rows of letters, cut to its slots' box: `*` locked, `.`/`T` empty slot/target, r y g stones (upper case on targets). */
function boxRows(board: Board): Rows<string> {
  const rows: string[][] = [];
  for (let y = 0; y < board.height; y++) {
    rows.push(
      board.cells.slice(y * board.width, (y + 1) * board.width).map((cell) => {
        if (cell.kind === 'locked') return '*';
        const letter = cell.stone === null ? '.' : cell.stone[0];
        return cell.target ? (letter === '.' ? 'T' : letter.toUpperCase()) : letter;
      }),
    );
  }
  const slotted = (line: string[]) => line.some((c) => c !== '*');
  const top = rows.findIndex(slotted);
  if (top < 0) return [];
  const bottom = rows.length - 1 - [...rows].reverse().findIndex(slotted);
  const columns = rows[0].map((_, x) => rows.some((row) => row[x] !== '*'));
  const left = columns.indexOf(true);
  const right = columns.lastIndexOf(true);
  return rows.slice(top, bottom + 1).map((row) => row.slice(left, right + 1));
}

/** The layout only: stones left out. */
const layoutOf = (rows: Rows<string>): Rows<string> => rows.map((row) => row.map((c) => (c === '*' ? '*' : 'TRYG'.includes(c) ? 'T' : '.')));
const textOf = (rows: Rows<string>, board: Board): string => `${rows.map((row) => row.join('')).join('/')}|${board.mode}`;

/** The names of the box's turns that leave the layout as it is, found by turning it by hand. */
function symmetriesByHand(board: Board): TransformName[] {
  const layout = layoutOf(boxRows(board));
  if (layout.length === 0) return ['identity'];
  return namesFor(layout[0].length, layout.length).filter((name) => textOf(turnRows(layout, name), board) === textOf(layout, board));
}

/** Every board after each jump of `jumps`, the start first, as the engine plays them. */
function positions(board: Board, jumps: readonly { from: Point; to: Point }[]): Board[] {
  return Array.from({ length: jumps.length + 1 }, (_, k) => playJumps(board, jumps.slice(0, k)).board);
}

/** Jumps chosen at random among the legal ones until none is left. */
function randomPlayout(board: Board, seed: number): { from: Point; to: Point }[] {
  const random = seeded(seed);
  const geometry = geometryOf(board);
  const cells: Cell[] = [...board.cells];
  const current: Board = { ...board, cells };
  const jumps: { from: Point; to: Point }[] = [];
  for (;;) {
    const legal: { from: Point; to: Point }[] = [];
    for (const from of geometry.slots) {
      for (const d of directions(board.mode)) {
        const to = { x: from.x + 2 * d.x, y: from.y + 2 * d.y };
        if (judgeJump(current, from, to).legal) legal.push({ from, to });
      }
    }
    if (legal.length === 0) return jumps;
    const jump = legal[Math.floor(random() * legal.length)];
    jumps.push(jump);
    cells.splice(0, cells.length, ...playJumps(current, [jump]).board.cells);
  }
}

/** Games on every board: the solver's solution where it finds one within a small budget, and a random playout. */
const games = boards.flatMap(({ name, board }, i) => {
  const outcome = solve(board, { timeBudgetMs: 1e9, maxNodes: 20_000, now: () => 0 });
  const solution = outcome.solvable === 'yes' ? [{ name: `${name} (solution)`, board, jumps: outcome.solution }] : [];
  return [...solution, { name: `${name} (random)`, board, jumps: randomPlayout(board, i + 1) }];
});

describe('peg-solitaire position keys on the real boards', () => {
  it('reads the boards and plays games on them', () => {
    expect(boards.length).toBe(66);
    expect(games.filter((g) => g.name.endsWith('(solution)')).length).toBeGreaterThan(15);
    expect(games.reduce((sum, g) => sum + g.jumps.length, 0)).toBeGreaterThan(2_000);
  });

  it("gives each board the symmetries of its layout found by hand, as many as the solver's own symmetry reduction finds", () => {
    const counts = new Map<number, number>();
    for (const { name, board } of boards) {
      const names = pegBoardSymmetries(board).map(transformName);
      expect({ name, names }).toEqual({ name, names: symmetriesByHand(board) });
      const geometry = geometryOf(board);
      const isTarget = (slot: number) => {
        const p = geometry.slots[slot];
        const cell = board.cells[p.y * board.width + p.x];
        return cell.kind === 'slot' && cell.target;
      };
      expect({ name, count: names.length }).toEqual({ name, count: symmetriesOf(geometry, isTarget).length });
      counts.set(names.length, (counts.get(names.length) ?? 0) + 1);
    }
    // The English cross keeps all eight; some boards keep fewer, some only the identity.
    expect(pegBoardSymmetries(boards.find((b) => b.name === 'v2_head/English Standard Board.brd')!.board)).toHaveLength(8);
    expect(counts.get(8)).toBeGreaterThan(0);
    expect(counts.get(1)).toBeGreaterThan(0);
    expect([...counts.keys()].some((n) => n === 2 || n === 4)).toBe(true);
  });

  it('gives the same keys incrementally as from scratch after every jump of every game', () => {
    const wrong: string[] = [];
    let plies = 0;
    for (const game of games) {
      const hasher = new PegPositionHasher(game.board);
      positions(game.board, game.jumps).forEach((board, ply) => {
        if (ply > 0) hasher.jump(game.jumps[ply - 1].from, game.jumps[ply - 1].to);
        plies++;
        const expected = pegPositionKeys(board);
        const got = hasher.positionKeys();
        if (got.byTransform.join() !== expected.byTransform.join() || got.canonical.key !== expected.canonical.key || got.canonical.transform !== expected.canonical.transform) wrong.push(`${game.name} ply ${ply}`);
        if (!board.cells.every((cell, i) => cell.kind === 'locked' || hasher.stoneAt(i % board.width, Math.floor(i / board.width)) === cell.stone)) wrong.push(`${game.name} ply ${ply}: stones`);
      });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(plies).toBeGreaterThan(2_000);
  });

  it('keys boards exactly up to their symmetries: no collision, turned copies share the key, the transform turning each onto the one board', () => {
    const boardOfKey = new Map<bigint, string>();
    const keyOfClass = new Map<string, bigint>();
    const faults: string[] = [];
    for (const game of games) {
      const names = symmetriesByHand(game.board);
      positions(game.board, game.jumps).forEach((board, ply) => {
        const rows = boxRows(board);
        const { key, transform } = pegPositionKeys(board).canonical;
        const turned = textOf(turnRows(rows, transformName(transform)), board);
        if ((boardOfKey.get(key) ?? turned) !== turned) faults.push(`${game.name} ply ${ply}: collision`);
        boardOfKey.set(key, turned);
        const least = names.map((name) => textOf(turnRows(rows, name), board)).sort()[0];
        if ((keyOfClass.get(least) ?? key) !== key) faults.push(`${game.name} ply ${ply}: a turned copy with another key`);
        keyOfClass.set(least, key);
      });
    }
    expect(faults.slice(0, 5)).toEqual([]);
    expect(boardOfKey.size).toBe(keyOfClass.size);
    // The v1 and v2 copies of a board are one board: their positions meet.
    expect(boardOfKey.size).toBeLessThan(games.reduce((sum, g) => sum + g.jumps.length + 1, 0));
  });

  it('finds a board again turned through each of its symmetries, jump by jump, and keys the turned board as the transform says', () => {
    for (const game of games.filter((_, i) => i % 2 === 0)) {
      const { board } = game;
      const keysAlong = positions(board, game.jumps).map((b) => pegPositionKeys(b));
      for (const t of TRANSFORMS) {
        const name = transformName(t);
        // The whole matrix turned by hand, as another file might hold the board.
        const turnedRows = turnRows(Array.from({ length: board.height }, (_, y) => board.cells.slice(y * board.width, (y + 1) * board.width)), name);
        const turnedBoard: Board = { ...board, width: turnedRows[0].length, height: turnedRows.length, cells: turnedRows.flat(), rowShifts: turnedRows.map(() => 0) };
        const where = (p: Point): Point => {
          const index = turnRows(Array.from({ length: board.height }, (_, y) => Array.from({ length: board.width }, (_, x) => `${x},${y}`)), name).flat();
          const at = index.indexOf(`${p.x},${p.y}`);
          return { x: at % turnedBoard.width, y: Math.floor(at / turnedBoard.width) };
        };
        const jumps = game.jumps.slice(0, 8).map((j) => ({ from: where(j.from), to: where(j.to) }));
        const hasher = new PegPositionHasher(turnedBoard);
        const symmetric = pegBoardSymmetries(board).includes(t);
        jumps.forEach((jump, k) => {
          hasher.jump(jump.from, jump.to);
          const original = keysAlong[k + 1];
          if (symmetric) {
            expect({ game: game.name, name, k, key: hasher.canonical().key }).toEqual({ game: game.name, name, k, key: original.canonical.key });
            expect(hasher.key()).toBe(original.byTransform[t]);
          } else {
            // The turned layout is another board: its positions are others.
            expect(hasher.canonical().key).not.toBe(original.canonical.key);
          }
        });
      }
    }
  });
});

describe('peg-solitaire position keys on boards built here', () => {
  const cross = ['**yyy**', '**yyy**', 'yyyyyyy', 'yyyEyyy', 'yyyyyyy', '**yyy**', '**yyy**'];

  it('gives the four first jumps of the English cross one canonical key, each with the transform that turns it onto the one board', () => {
    const board = boardFromRows(cross);
    const firsts = [
      { from: { x: 3, y: 1 }, to: { x: 3, y: 3 } },
      { from: { x: 5, y: 3 }, to: { x: 3, y: 3 } },
      { from: { x: 3, y: 5 }, to: { x: 3, y: 3 } },
      { from: { x: 1, y: 3 }, to: { x: 3, y: 3 } },
    ];
    const after = firsts.map((jump) => playJumps(board, [jump]).board);
    const keys = after.map((b) => pegPositionKeys(b));
    expect(new Set(keys.map((k) => k.canonical.key)).size).toBe(1);
    expect(new Set(keys.map((k) => k.exact)).size).toBe(4);
    const canonicalBoards = after.map((b, i) => textOf(turnRows(boxRows(b), transformName(keys[i].canonical.transform)), b));
    expect(new Set(canonicalBoards).size).toBe(1);
  });

  it('leaves locked margins out and tells apart the mode, a colour, a target, another layout', () => {
    const base = pegPositionKeys(boardFromRows(cross)).canonical.key;
    expect(pegPositionKeys(boardFromRows(cross.map((row) => `**${row}*`))).canonical.key).toBe(base);
    expect(pegPositionKeys(boardFromRows(['*'.repeat(7), ...cross])).exact).toBe(pegPositionKeys(boardFromRows(cross)).exact);
    expect(pegPositionKeys(boardFromRows(cross, 'diagonal')).canonical.key).not.toBe(base);
    expect(pegPositionKeys(boardFromRows(cross.map((row, y) => (y === 0 ? '**ryy**' : row)))).canonical.key).not.toBe(base);
    expect(pegPositionKeys(boardFromRows(cross.map((row, y) => (y === 3 ? 'yyyeyyy' : row)))).canonical.key).not.toBe(base);
    expect(pegPositionKeys(boardFromRows(cross.map((row, y) => (y === 0 ? '*yyyy**' : row)))).canonical.key).not.toBe(base);
    // No slots at all: one key, the identity.
    const empty = pegPositionKeys(boardFromRows(['***']));
    expect(empty.byTransform.filter((k) => k !== null)).toHaveLength(1);
  });

  it('follows stones set one by one, and refuses what is no slot', () => {
    const board = boardFromRows(['yye', '*r*', 'gGe']);
    const hasher = new PegPositionHasher(board);
    expect(hasher.positionKeys()).toEqual(pegPositionKeys(board));
    hasher.set(0, 0, null);
    hasher.set(2, 0, 'green');
    expect(hasher.positionKeys()).toEqual(pegPositionKeys(boardFromRows(['eyg', '*r*', 'gGe'])));
    expect(hasher.stoneAt(2, 0)).toBe('green');
    expect(hasher.stoneAt(0, 1)).toBeUndefined();
    expect(() => hasher.set(0, 1, 'red')).toThrow(RangeError);
    expect(() => hasher.jump({ x: 0, y: 0 }, { x: 2, y: 0 })).toThrow(RangeError);
  });
});
