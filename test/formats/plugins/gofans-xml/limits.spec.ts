import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { GOFANS_SCHEMAS } from '../../../../src/formats/plugins/gofans-xml/schemas.js';
import { validateWithSchema } from '../../../../src/formats/plugins/gofans-xml/validation.js';
import { DEFAULT_LIMITS, ReadLimits } from '../../../../src/core/limits.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { GoFansDraft, GoFansDraftMove, writeGoFans11, writeGoFans12 } from '../../../../src/formats/plugins/gofans-xml/write.js';
import { limitOptions, refusal } from '../../../support/limits.js';

const withLimits = limitOptions;
const read = (xml: string, limits: Partial<ReadLimits> = {}): Promise<GameRecord> =>
  gofansXmlPlugin.read({ bytes: Buffer.from(xml), filename: 'game.xml' }, withLimits(limits));
const regenerate = (xml: string, limits: Partial<ReadLimits> = {}) => gofansXmlPlugin.regenerate({ bytes: Buffer.from(xml) }, withLimits(limits));

/** 1-based line and column and 0-based offset of a character offset, counted by hand here. */
function where(text: string, offset: number): { line: number; column: number; offset: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1, offset };
}

/** Offset of the n-th (1-based) `<move` in the text. */
function nthMove(text: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf('<move', at + 1);
    if (at < 0) throw new Error(`fewer than ${n} moves`);
  }
  return at;
}

const players: GoFansDraft['players'] = [
  { id: 0, name: 'Black', points: '0' },
  { id: 1, name: 'White', points: '0' },
];
const stone = (playerId: number, x: number, y: number, ...next: GoFansDraftMove[]): GoFansDraftMove => ({
  playerId,
  color: playerId === 0 ? 'black' : 'white',
  point: { x, y },
  next,
});

/** n stones along the rows of a 9x9 board, alternating colours, nothing captured (n ≤ 81). */
function flatGame(n: number): string {
  return writeGoFans11({ boardSize: 9, players }, Array.from({ length: n }, (_, i) => stone(i % 2, i % 9, Math.floor(i / 9))));
}

describe('GoFans: MAX_PLIES', () => {
  it('accepts a 1.1 game of exactly MAX_PLIES moves and refuses one more at the move that crosses it', async () => {
    const xml = flatGame(6);
    expect((await read(xml, { maxPlies: 6 })).analysis!.moveCount).toBe(6);
    const error = await refusal(read(xml, { maxPlies: 5 }));
    expect(error.code).toBe('limit.plies');
    expect(error.status).toBe(422);
    expect(error.message).toContain('MAX_PLIES');
    expect(error.issues[0]).toMatchObject({ ply: 6, ...where(xml, nthMove(xml, 6)) });
  });

  it('counts every move of a 1.2 tree, variations included', async () => {
    // Main line of 3 moves, and a 2-move variation at ply 2: 5 moves in all.
    const xml = writeGoFans12({ boardSize: 9, players }, [stone(0, 0, 0, stone(1, 1, 1, stone(0, 2, 2)), stone(1, 5, 5, stone(0, 6, 6)))]);
    expect((await read(xml, { maxPlies: 5 })).analysis!.details.treeMoves).toBe(5);
    const error = await refusal(read(xml, { maxPlies: 4 }));
    expect(error.code).toBe('limit.plies');
    // Document order: the 5th <move> is the variation's second move, 6,6.
    expect(error.issues[0]).toMatchObject({ ply: 5, ...where(xml, xml.lastIndexOf('<move', xml.indexOf('x="6" y="6"'))) });
  });

  it('refuses before validating: a file past the bound is refused by its plies even when the schema would refuse it too', async () => {
    const xml = flatGame(6).replace('</Body>', '<Stray/></Body>');
    expect((await refusal(read(xml, { maxPlies: 6 }))).code).toBe('format.malformed');
    expect((await refusal(read(xml, { maxPlies: 5 }))).code).toBe('limit.plies');
  });

  it('does not count moves in comments, CDATA or other publishers’ files', async () => {
    const commented = flatGame(3).replace('<Body>', `<Body><!-- ${'<move playerId="0"/>'.repeat(10)} --><![CDATA[<move playerId="0"/>]]>`);
    // CDATA is character data, which the 1.1 Body does not allow: the schema, not the bound, refuses it.
    expect((await refusal(read(commented, { maxPlies: 3 }))).code).toBe('format.malformed');
    const onlyComment = flatGame(3).replace('<Body>', `<Body><!-- ${'<move playerId="0"/>'.repeat(10)} -->`);
    expect((await read(onlyComment, { maxPlies: 3 })).analysis!.moveCount).toBe(3);
    const other = flatGame(6).replace('<Publisher>GoFans</Publisher>', '<Publisher>Other</Publisher>');
    expect(await read(other, { maxPlies: 1 })).toMatchObject({ publisher: 'Other', family: null });
  });

  it('regenerate honours the bound too', async () => {
    const xml = flatGame(6);
    expect((await regenerate(xml, { maxPlies: 6 })).version).toBe('2.1');
    expect((await refusal(regenerate(xml, { maxPlies: 5 }))).code).toBe('limit.plies');
  });
});

describe('GoFans: MAX_VARIATION_DEPTH', () => {
  /**
   * A main line 0,0 → 0,1 and, at each level, a variation whose own second child is the next
   * variation: level k's variation stone stands on x=k+1, y=8 (k = 1..levels).
   */
  function nestedVariations(levels: number): string {
    let variation: GoFansDraftMove | undefined;
    for (let k = levels; k >= 1; k--) {
      const continuation = stone(k % 2, k + 1, 7);
      variation = stone((k + 1) % 2, k + 1, 8, ...(variation ? [continuation, variation] : [continuation]));
    }
    return writeGoFans12({ boardSize: 9, players }, [stone(0, 0, 0, stone(1, 0, 1), ...(variation ? [variation] : []))]);
  }

  it('accepts variations nested exactly MAX_VARIATION_DEPTH deep and refuses the first one deeper', async () => {
    const xml = nestedVariations(3);
    expect((await read(xml, { maxVariationDepth: 3 })).analysis!.moveCount).toBe(2);
    const error = await refusal(read(xml, { maxVariationDepth: 2 }));
    expect(error.code).toBe('limit.variation_depth');
    expect(error.message).toContain('MAX_VARIATION_DEPTH');
    // The third level's variation: x = 4, y = 8.
    const at = xml.lastIndexOf('<move', xml.indexOf('x="4" y="8"'));
    expect(error.issues[0]).toMatchObject(where(xml, at));
    expect((await refusal(regenerate(xml, { maxVariationDepth: 2 }))).code).toBe('limit.variation_depth');
  });

  it('a game without variations has depth 0; a flat 1.1 list is one line however long', async () => {
    expect((await read(flatGame(20), { maxVariationDepth: 0 })).analysis!.moveCount).toBe(20);
    expect((await refusal(read(nestedVariations(1), { maxVariationDepth: 0 }))).code).toBe('limit.variation_depth');
  });
});

describe('GoFans: MAX_BOARD_SIDE', () => {
  it('refuses a board larger than the bound at its boardSize element, and accepts one of the bound', async () => {
    const xml = flatGame(2);
    expect((await read(xml, { maxBoardSide: 9 })).analysis!.details.boardSize).toBe(9);
    const error = await refusal(read(xml, { maxBoardSide: 8 }));
    expect(error.code).toBe('limit.board');
    expect(error.message).toContain('9x9');
    expect(error.issues[0]).toMatchObject(where(xml, xml.indexOf('<boardSize>')));
    expect((await refusal(regenerate(xml, { maxBoardSide: 8 }))).code).toBe('limit.board');
  });

  it('the default board (19, no boardSize element) counts too', async () => {
    const xml = writeGoFans11({ players }, [stone(0, 3, 3)]);
    expect((await refusal(read(xml, { maxBoardSide: 18 }))).code).toBe('limit.board');
    expect((await read(xml, { maxBoardSide: 19 })).analysis!.details.boardSize).toBe(19);
  });
});

describe('a valid GoFans 1.1 file of 100,000 moves', () => {
  /*
   * Built from ex_1.1.xml (9x9; Anna black, id 0; Bernd white, id 1): its two stones, then two kos
   * on the top and bottom edges, fought as a double ko with single passes between.
   *   ko A: black stones 3,0 and 2,1, white 0,0 and 1,1; black captures on 1,0, white on 2,0.
   *   ko B: black stones 3,8 and 2,7, white 0,8 and 1,7; black captures on 1,8, white on 2,8.
   * Set-up ends with black on 1,0 (holding A) and white on 2,8 (holding B), black to move. Cycle:
   *   B 1,8 takes B; W 2,0 takes A; B passes; W 2,8 retakes B; B 1,0 retakes A; W passes.
   * No move retakes the stone just played (simple ko), nothing is suicide, never two passes in a
   * row (which would end the game) until the end; after six plies the position is the one the cycle
   * began with. 2 + 10 set-up + 6 × 16,664 + 4 (B takes, W takes, Anna passes, Bernd passes: two
   * passes end the game, Anna's the formal pass of her resignation) = 100,000 moves.
   */
  function hundredThousandMoves(): string {
    const example = readFileSync(new URL('../../../fixtures/gofans-examples/ex_1.1.xml', import.meta.url), 'utf8');
    const b = (x: number, y: number) => `<move playerId="0" color="black" x="${x}" y="${y}"/>`;
    const w = (x: number, y: number) => `<move playerId="1" color="white" x="${x}" y="${y}"/>`;
    const passB = '<move playerId="0"/>';
    const passW = '<move playerId="1"/>';
    const moves = [b(2, 2), w(6, 6)];
    moves.push(b(3, 0), w(0, 0), b(2, 1), w(1, 1), b(3, 8), w(0, 8), b(2, 7), w(1, 7), b(1, 0), w(2, 8));
    const cycle = [b(1, 8), w(2, 0), passB, w(2, 8), b(1, 0), passW];
    for (let i = 0; i < 16_664; i++) moves.push(...cycle);
    moves.push(b(1, 8), w(2, 0), passB, passW);
    const body = example.slice(example.indexOf('<Body>'), example.indexOf('</Body>') + '</Body>'.length);
    return example.replace(body, `<Body>\n${moves.join('\n')}\n</Body>`);
  }

  const xml = hundredThousandMoves();

  it('is refused under the default MAX_PLIES at move 10,001, before validation', async () => {
    const error = await refusal(read(xml));
    expect(error.code).toBe('limit.plies');
    expect(error.issues[0]).toMatchObject({ ply: DEFAULT_LIMITS.maxPlies + 1, ...where(xml, nthMove(xml, DEFAULT_LIMITS.maxPlies + 1)) });
  });

  it('validates and is indexed as legal when MAX_PLIES allows it', async () => {
    // Starved of memory, libxml2's schema validator reports an "Internal error" (exit code 3, as for
    // an invalid file); that is the validator's failure, a plain Error, never a 422.
    const starved = await validateWithSchema(xml, GOFANS_SCHEMAS['1.1'], 512).then(() => 'valid', (error: unknown) => error);
    expect(starved).toBeInstanceOf(Error);
    expect(starved).not.toBeInstanceOf(FormatError);
    const analysis = (await read(xml, { maxPlies: 200_000 })).analysis!;
    expect(analysis.moveCount).toBe(100_000);
    expect(analysis.verdict.legal).toBe(true);
    expect(analysis.details.end).toBe('resignation');
    // Each full cycle captures two stones per side; the last partial cycle one each.
    expect(analysis.players.map((p) => p.captures)).toEqual([2 * 16_664 + 1, 2 * 16_664 + 1]);
  });
});
