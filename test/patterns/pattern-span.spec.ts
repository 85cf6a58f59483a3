import { BLACK, GoPosition, WHITE } from '../../src/rules/go/index.js';
import type { Stone } from '../../src/rules/go/index.js';
import { BoardChangesWriter, FIRST, SECOND, everHeld, firstMatch, firstMatchWithin, readPattern, readSequence, sequencePlacements } from '../../src/formats/families/patterns.js';
import type { MatchConditions, Pattern, PatternSequence, SequencePlacement } from '../../src/formats/families/patterns.js';
import { TRANSFORM_NAMES } from '../../src/rules/symmetry.js';
import { PatternFilter } from '../../src/patterns/pattern-filter.js';
import { seeded, turnRows } from '../support/positions/grids.js';
import { bruteFirst, follows, other, toMoveAfter } from '../support/positions/pattern-span.js';
import type { Colour, SpanGame, SpanSought } from '../support/positions/pattern-span.js';

/*
 * Pattern search within a span of plies, with the side to move and numbered moves, against a brute
 * force written here: small Go games played at random with the rules engine (src/rules/go), the
 * board kept after every ply; for every ply of the span, the board turned by hand through its eight
 * symmetries (grids.ts), the pattern as written looked for at every offset (its numbered cells
 * empty), the side to move read from the game's own list of colours, and the numbered moves looked
 * for in the game's list of moves after that ply. The matcher must report the same first ply, a
 * placement where the pattern turned by hand really lies with its numbered moves really played, and
 * the filter must let the game through.
 */

interface Game extends SpanGame {
  readonly size: number;
  readonly boards: string[][][];
  readonly moves: { colour: Colour; point: [number, number] | null }[];
  readonly changes: Uint8Array;
}

/** A game of random legal moves and a few passes; with a handicap, two black stones set up and white first. Colours alternate. */
function playGame(seed: number, size: number, plies: number): Game {
  const random = seeded(seed);
  const position = new GoPosition(size);
  const writer = new BoardChangesWriter(size, size);
  const handicap = random() < 0.3;
  if (handicap) {
    position.setStone(1, 1, BLACK);
    position.setStone(size - 2, size - 2, BLACK);
  }
  const rows = () => Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => '.XO'[position.at(x, y)]));
  const boards = [rows()];
  writer.observe(position.cells);
  const moves: Game['moves'] = [];
  let colour: Colour = handicap ? 'O' : 'X';
  // Some games begin with passes.
  const leadingPasses = random() < 0.15 ? 1 + Math.floor(random() * 2) : 0;
  for (let ply = 1; ply <= plies; ply++) {
    let point: [number, number] | null = null;
    if (ply > leadingPasses && random() >= 0.06) {
      const stone: Stone = colour === 'X' ? BLACK : WHITE;
      const start = Math.floor(random() * size * size);
      for (let i = 0; i < size * size && point === null; i++) {
        const at = (start + i * 7) % (size * size);
        const [x, y] = [at % size, Math.floor(at / size)];
        if (position.at(x, y) !== 0) continue;
        const trial = position.clone();
        if (!trial.play(stone, x, y).legal) continue;
        position.play(stone, x, y);
        point = [x, y];
      }
    }
    if (point === null) position.pass();
    moves.push({ colour, point });
    boards.push(rows());
    writer.observe(position.cells, point === null ? null : point[1] * size + point[0]);
    colour = other(colour);
  }
  return { size, boards, moves, changes: writer.finish().changes };
}

type Sought = SpanSought & { readonly pattern: string[]; readonly sequence: string[] | null };

const conditionsOf = (s: Sought): MatchConditions => ({ from: s.from, to: s.to, toMove: s.toMove === null ? null : s.toMove === 'X' ? FIRST : SECOND, strict: s.strict });

function placedOf(game: Game, s: Sought): { pattern: Pattern; sequence: PatternSequence | null; placed: SequencePlacement[] } {
  const pattern = readPattern(s.pattern);
  if (!('cells' in pattern)) throw new Error(`bad pattern ${s.pattern.join('/')}`);
  const sequence = s.sequence === null ? null : readSequence(pattern, s.sequence);
  if (sequence !== null && !('cells' in sequence)) throw new Error(`bad sequence ${s.sequence!.join('/')}`);
  const anchor = s.anchor;
  const placed = sequencePlacements(pattern, sequence, game.size, game.size, anchor, s.anyColors, s.toMove !== null);
  return { pattern, sequence, placed };
}

/** The pattern's rows cut from a board (some cells made `*`), and numbered moves: the next moves inside the cut after ply p0. */
function cutPattern(game: Game, random: () => number, strict: boolean): Sought {
  const { size } = game;
  const pw = 2 + Math.floor(random() * 3);
  const ph = 2 + Math.floor(random() * 2);
  const p0 = Math.floor(random() * (game.moves.length - 3));
  const left = Math.floor(random() * (size - pw + 1));
  const top = Math.floor(random() * (size - ph + 1));
  const rows = game.boards[p0].slice(top, top + ph).map((row) => row.slice(left, left + pw));
  const digits = rows.map((row) => row.map(() => '.'));
  let count = 0;
  const most = 1 + Math.floor(random() * 3);
  for (let q = p0 + 1; q <= game.moves.length && count < most; q++) {
    const move = game.moves[q - 1];
    const inside = move.point !== null && move.point[0] >= left && move.point[0] < left + pw && move.point[1] >= top && move.point[1] < top + ph;
    if (!inside) {
      if (strict) break;
      continue;
    }
    const [x, y] = [move.point![0] - left, move.point![1] - top];
    if (digits[y][x] !== '.' || rows[y][x] !== '.') break;
    count++;
    digits[y][x] = String(count);
    rows[y][x] = move.colour;
  }
  for (const row of rows) for (let x = 0; x < row.length; x++) if (row[x] === '.' && random() < 0.2) row[x] = '*';
  if (!rows.flat().some((c) => c === 'X' || c === 'O')) rows[0][0] = 'X';
  const sequence = count > 0 ? digits.map((row) => row.join('')) : null;
  const from = random() < 0.5 ? 0 : Math.floor(random() * p0 + 1);
  const to = random() < 0.3 ? Infinity : p0 + Math.floor(random() * 10);
  const toMove = random() < 0.4 ? null : random() < 0.5 ? 'X' : 'O';
  return { pattern: rows.map((row) => row.join('')), sequence, anchor: random() < 0.15 ? 'corner' : 'anywhere', anyColors: random() < 0.5, from, to, toMove, strict: strict && sequence !== null };
}

/** Whether the pattern (numbered cells empty), turned by hand as the placement says, lies on the board at the placement, and where its numbered moves fall. */
function checkPlacement(game: Game, s: Sought, placement: SequencePlacement, ply: number): { x: number; y: number; colour: Colour }[] {
  const name = TRANSFORM_NAMES[placement.transform];
  const pattern = turnRows(s.pattern.map((row) => [...row]), name);
  const digits = s.sequence === null ? null : turnRows(s.sequence.map((row) => [...row]), name);
  expect([pattern[0].length, pattern.length]).toEqual([placement.width, placement.height]);
  const numbered: { digit: number; x: number; y: number; colour: Colour }[] = [];
  for (let y = 0; y < pattern.length; y++) {
    for (let x = 0; x < pattern[0].length; x++) {
      const c = pattern[y][x];
      const colour = placement.swapped && (c === 'X' || c === 'O') ? other(c) : c;
      const on = game.boards[ply][placement.top + y][placement.left + x];
      if (digits !== null && digits[y][x] !== '.') {
        expect(on).toBe('.');
        numbered.push({ digit: Number(digits[y][x]), x: placement.left + x, y: placement.top + y, colour: colour as Colour });
      } else if (c !== '*') expect(on).toBe(colour);
    }
  }
  return numbered.sort((a, b) => a.digit - b.digit);
}

describe('pattern search within a span, with the side to move and numbered moves, against a brute force', () => {
  const games = Array.from({ length: 36 }, (_, i) => playGame(1000 + i, i % 3 === 0 ? 5 : 7, 24 + (i % 5) * 8));

  it('finds the first ply the brute force finds, at a placement where the pattern and its numbered moves really are, and the filter lets the game through', async () => {
    const random = seeded(77);
    let found = 0;
    let cases = 0;
    let withSequence = 0;
    for (const [g, game] of games.entries()) {
      const filter = new PatternFilter();
      filter.take([{ gameId: g + 1, family: 'go', width: game.size, height: game.size, ...everHeld({ width: game.size, height: game.size, changes: game.changes }), written: '1', facts: false, result: null, played: null }], new Map([[g + 1, { changes: game.changes, written: '1' }]]));
      const group = filter.groupsOf('go')[0];
      for (let k = 0; k < 16; k++) {
        // Patterns cut from the game (mostly found) and from another game (mostly not).
        const source = k % 4 === 3 ? games[(g + 7) % games.length] : game;
        if (source.size !== game.size) continue;
        const s = cutPattern(source, random, k % 2 === 0);
        cases++;
        if (s.sequence) withSequence++;
        const want = bruteFirst(game, s);
        const { placed } = placedOf(game, s);
        const match = firstMatchWithin({ width: game.size, height: game.size, changes: game.changes }, placed, conditionsOf(s));
        expect({ s, ply: match?.ply ?? -1 }).toEqual({ s, ply: want });
        if (match === null) continue;
        found++;
        const placement = placed[match.placement];
        const numbered = checkPlacement(game, s, placement, match.ply);
        if (s.toMove !== null) expect(toMoveAfter(game, match.ply)).toBe(placement.swapped ? other(s.toMove) : s.toMove);
        expect(follows(game, match.ply, numbered, s.strict)).toBe(true);
        // The continuation: the first move in the area or next to it after the last numbered move.
        let after = match.ply;
        if (numbered.length > 0) {
          // The last numbered move's ply, found as the brute force finds them.
          let q = match.ply;
          for (const move of numbered) {
            q++;
            while (!(game.moves[q - 1].point?.[0] === move.x && game.moves[q - 1].point?.[1] === move.y && game.moves[q - 1].colour === move.colour)) q++;
          }
          after = q;
        }
        const next = game.moves.slice(after).find(
          (move) => move.point !== null && move.point[0] >= placement.left - 1 && move.point[0] <= placement.left + placement.width && move.point[1] >= placement.top - 1 && move.point[1] <= placement.top + placement.height,
        );
        expect(match.next === null ? null : [match.next.point % game.size, Math.floor(match.next.point / game.size)]).toEqual(next ? next.point : null);
        // The filter, with the span, lets the game through for the placement found.
        expect((await filter.candidates(group, placed, { from: s.from, to: s.to })).get(g + 1)).toContain(match.placement);
      }
    }
    expect(cases).toBeGreaterThan(400);
    expect(found).toBeGreaterThan(cases / 4);
    expect(withSequence).toBeGreaterThan(cases / 3);
  });

  it('without a span, side or sequence, finds what the matcher of every ply finds', () => {
    const random = seeded(5);
    for (const game of games) {
      for (let k = 0; k < 6; k++) {
        const s = { ...cutPattern(game, random, false), sequence: null, from: 0, to: Infinity, toMove: null, strict: false };
        const { placed } = placedOf(game, s);
        const board = { width: game.size, height: game.size, changes: game.changes };
        const within = firstMatchWithin(board, placed, conditionsOf(s));
        expect(within).toEqual(firstMatch(board, placed));
        expect(within?.ply ?? -1).toBe(bruteFirst(game, s));
      }
    }
  });

  it('reads a sequence beside its pattern, and says where one is wrong', () => {
    const pattern = readPattern(['.XO', 'OX*']) as Pattern;
    expect(readSequence(pattern, ['.21', '...'])).toEqual({ cells: Int32Array.from([2, 1]), states: Uint8Array.from([SECOND, FIRST]) });
    expect(readSequence(pattern, ['...', '...'])).toEqual({ cells: new Int32Array(0), states: new Uint8Array(0) });
    expect(readSequence(pattern, ['.21'])).toEqual({ reason: 'size', row: 1 });
    expect(readSequence(pattern, ['.21', '....'])).toEqual({ reason: 'size', row: 1 });
    expect(readSequence(pattern, ['.2x', '...'])).toEqual({ reason: 'character', row: 0, column: 2 });
    expect(readSequence(pattern, ['.20', '...'])).toEqual({ reason: 'character', row: 0, column: 2 });
    expect(readSequence(pattern, ['.11', '...'])).toEqual({ reason: 'repeated', row: 0, column: 2, digit: 1 });
    expect(readSequence(pattern, ['.13', '...'])).toEqual({ reason: 'gap', digit: 2 });
    expect(readSequence(pattern, ['.2.', '...'])).toEqual({ reason: 'gap', digit: 1 });
    expect(readSequence(pattern, ['1..', '...'])).toEqual({ reason: 'cell', row: 0, column: 0, digit: 1 });
    expect(readSequence(pattern, ['.1.', '..2'])).toEqual({ reason: 'cell', row: 1, column: 2, digit: 2 });
  });

  it('the side to move after a pass, after leading passes and at the end of the line, worked out by hand', () => {
    // 5×5: ply 1 a pass, ply 2 white at (0,0), ply 3 a pass, ply 4 black at (4,4); the line ends.
    const writer = new BoardChangesWriter(5, 5);
    const cells = new Uint8Array(25);
    writer.observe(cells);
    writer.observe(cells, null);
    cells[0] = SECOND;
    writer.observe(cells, 0);
    writer.observe(cells, null);
    cells[24] = FIRST;
    writer.observe(cells, 24);
    const board = writer.finish();
    const pattern = readPattern(['O']) as Pattern;
    const placed = sequencePlacements(pattern, null, 5, 5, 'corner', false, true);
    const at = (toMove: number, from: number) => firstMatchWithin(board, placed, { from, to: Infinity, toMove, strict: false })?.ply ?? -1;
    // White played ply 2, so ply 1 was black's pass (the plies alternate up to the first stone) and ply 3's pass black's
    // (after white): black is to move after ply 2 and after ply 3 (ply 4's stone), white after ply 4, the last.
    expect(at(FIRST, 0)).toBe(2);
    expect(at(FIRST, 3)).toBe(3);
    expect(at(SECOND, 0)).toBe(4);
    // A span past the line's end holds no position.
    expect(at(SECOND, 5)).toBe(-1);
  });
});
