import { encodeCursor, resolveSearch } from '../../src/catalog/cursor.js';
import { ProblemException } from '../../src/common/problem-codes.js';
import { PositionFiltersQuery } from '../../src/positions/dto/position-query.dto.js';

/**
 * A search cursor is client input: whatever it holds is checked as the query parameters it stands
 * for are, and a cursor this archive did not write is a 400 `request.bad_cursor` saying what is
 * wrong with it, before anything reaches the database.
 */

/** A cursor of this text, as a client could forge one. */
const forged = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');
const cursorOf = (value: unknown): string => forged(JSON.stringify(value));

/** The problem `resolveSearch` refuses the cursor with (fails when it accepts it). */
function refusal(cursor: string, rules?: Parameters<typeof resolveSearch>[1]): { status: number; code: string; detail: string } {
  try {
    resolveSearch({ cursor }, rules);
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    return { status: error.getStatus(), code: error.code, detail: error.message };
  }
  throw new Error(`the cursor ${Buffer.from(cursor, 'base64url').toString('utf8')} was accepted`);
}

describe('search cursors', () => {
  it('give back the filters and the place they were written with', () => {
    const filters = { player: 'Lee', family: 'go' as const, consistent: true, movesMin: 30, movesMax: 2_147_483_647, playedFrom: '2020-02-29', marginMin: 0.5, sort: 'played' as const };
    const cursor = encodeCursor(filters, { id: 42, day: '2021-03-04' });
    expect(resolveSearch({ cursor })).toEqual({ filters, after: { id: 42, day: '2021-03-04', uploadedAt: undefined } });
    const byTime = encodeCursor({ uploadedFrom: '2026-01-01T00:00:00Z' }, { id: 9, uploadedAt: '2026-02-03T04:05:06.789012Z' });
    expect(resolveSearch({ cursor: byTime }).after).toEqual({ id: 9, day: undefined, uploadedAt: '2026-02-03T04:05:06.789012Z' });
  });

  it.each([
    ['not base64url', 'eyJ2IjoxfQ==!*', /base64url/],
    ['base64url of no JSON', forged('{"v":1,'), /JSON/],
    ['JSON null', forged('null'), /object/],
    ['a JSON array', forged('[1,2]'), /object/],
    ['a JSON number', forged('1e400'), /object/],
    ["JSON nested past a body's depth", cursorOf({ v: 1, after: 1, f: { player: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) } }), /deeper than 64/],
    ['no version', cursorOf({ after: 1, f: {} }), /version/],
    ['another version', cursorOf({ v: 2, after: 1, f: {} }), /version/],
    ['the version as text', cursorOf({ v: '1', after: 1, f: {} }), /version/],
    ['no place', cursorOf({ v: 1, f: {} }), /"after"/],
    ['a place of 0', cursorOf({ v: 1, after: 0, f: {} }), /"after"/],
    ['a negative place', cursorOf({ v: 1, after: -5, f: {} }), /"after"/],
    ['a fractional place', cursorOf({ v: 1, after: 1.5, f: {} }), /"after"/],
    ['a place past exact JSON integers', cursorOf({ v: 1, after: 2 ** 53, f: {} }), /"after"/],
    ['a place past bigint', forged('{"v":1,"after":9999999999999999999999,"f":{}}'), /"after"/],
    ['a place as text', cursorOf({ v: 1, after: '5', f: {} }), /"after"/],
    ['no filters', cursorOf({ v: 1, after: 1 }), /filters/],
    ['filters as an array', cursorOf({ v: 1, after: 1, f: [] }), /filters/],
    ['a key of its own', cursorOf({ v: 1, after: 1, f: {}, extra: true }), /extra/],
    ['an unknown filter', cursorOf({ v: 1, after: 1, f: { colour: 'red' } }), /colour/],
    ['a page size among the filters', cursorOf({ v: 1, after: 1, f: { limit: 5 } }), /limit/],
    ['a cursor among the filters', cursorOf({ v: 1, after: 1, f: { cursor: 'x' } }), /cursor/],
    ['an impossible day played', cursorOf({ v: 1, after: 1, f: { playedFrom: '2020-02-31' } }), /playedFrom/],
    ['a day played with a time', cursorOf({ v: 1, after: 1, f: { playedTo: '2020-02-03T00:00:00Z' } }), /playedTo/],
    ['an impossible upload instant', cursorOf({ v: 1, after: 1, at: '2020-02-03T00:00:00.000000Z', f: { uploadedFrom: '2020-02-31T00:00:00Z' } }), /uploadedFrom/],
    ['moves past a 32-bit integer', cursorOf({ v: 1, after: 1, f: { movesMin: 2 ** 53 - 1 } }), /movesMin/],
    ['moves just past a 32-bit integer', cursorOf({ v: 1, after: 1, f: { movesMax: 2 ** 31 } }), /movesMax/],
    ['negative moves', cursorOf({ v: 1, after: 1, f: { movesMin: -1 } }), /movesMin/],
    ['fractional moves', cursorOf({ v: 1, after: 1, f: { movesMin: 2.5 } }), /movesMin/],
    ['moves as words', cursorOf({ v: 1, after: 1, f: { movesMin: 'many' } }), /movesMin/],
    ['an infinite margin', forged('{"v":1,"after":1,"f":{"marginMax":1e400}}'), /marginMax/],
    ['a negative margin', cursorOf({ v: 1, after: 1, f: { marginMin: -0.5 } }), /marginMin/],
    ['an unknown family', cursorOf({ v: 1, after: 1, f: { family: 'chess' } }), /family/],
    ['a board of size 0', cursorOf({ v: 1, after: 1, f: { boardSize: '0' } }), /boardSize/],
    ['an unknown order', cursorOf({ v: 1, after: 1, f: { sort: 'random' } }), /sort/],
    ['a boolean as a number', cursorOf({ v: 1, after: 1, f: { unique: 1 } }), /unique/],
    ['an empty name', cursorOf({ v: 1, after: 1, f: { player: '' } }), /player/],
    ['a name too long', cursorOf({ v: 1, after: 1, f: { player: 'x'.repeat(201) } }), /player/],
    ['a name with NUL', cursorOf({ v: 1, after: 1, f: { event: 'a\u0000b' } }), /event.*U\+0000/],
    ['a filter that is null', cursorOf({ v: 1, after: 1, f: { player: null } }), /player/],
    ['a bad owner', cursorOf({ v: 1, after: 1, f: { owner: 'Club A' } }), /owner/],
    ['a bad signature', cursorOf({ v: 1, after: 1, f: { signature: 'abc' } }), /signature/],
    ['an order by day without the day', cursorOf({ v: 1, after: 1, f: { sort: 'played' } }), /"day"/],
    ['an impossible day of the place', cursorOf({ v: 1, after: 1, day: '2020-02-31', f: { sort: 'played' } }), /"day"/],
    ['a day without an order by day', cursorOf({ v: 1, after: 1, day: '2020-02-03', f: {} }), /"day"/],
    ['an upload time without an upload-time walk', cursorOf({ v: 1, after: 1, at: '2020-02-03T00:00:00.000000Z', f: {} }), /"at"/],
    ['an impossible upload time of the place', cursorOf({ v: 1, after: 1, at: '2020-02-31T00:00:00.000000Z', f: { uploadedFrom: '2020-01-01T00:00:00Z' } }), /"at"/],
  ])('refuses %s with 400 request.bad_cursor saying what is wrong', (_what, cursor, says) => {
    const problem = refusal(cursor);
    expect(problem).toMatchObject({ status: 400, code: 'request.bad_cursor' });
    expect(problem.detail).toMatch(says);
  });

  it("checks a cursor's filters by the rules of the route's own query: no sort for a position search", () => {
    const cursor = cursorOf({ v: 1, after: 1, f: { sort: '-uploaded' } });
    expect(resolveSearch({ cursor }).filters).toEqual({ sort: '-uploaded' });
    const problem = refusal(cursor, PositionFiltersQuery);
    expect(problem).toMatchObject({ status: 400, code: 'request.bad_cursor' });
    expect(problem.detail).toMatch(/sort/);
  });

  it('keeps 400 request.invalid for a sound cursor sent with filters that disagree with it', () => {
    const cursor = encodeCursor({ family: 'go' }, { id: 3 });
    expect(() => resolveSearch({ cursor, family: 'dots' })).toThrow(expect.objectContaining({ code: 'request.invalid' }));
  });
});
