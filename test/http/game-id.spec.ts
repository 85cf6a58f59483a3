import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ClassConstructor } from 'class-transformer';
import { GameIdPipe } from '../../src/http/game-id.pipe.js';
import { ProblemException } from '../../src/common/problem-codes.js';
import { GamePositionQuery } from '../../src/positions/dto/position-query.dto.js';
import { PlayerGamesQuery } from '../../src/players/dto/player.dto.js';
import { ReindexQuery } from '../../src/games/dto/reindex.dto.js';
import { SearchGamesQuery } from '../../src/catalog/dto/search-games.query.js';

/**
 * One rule for a game id wherever a request names one: decimal digits naming 1 to 2^63-1, the
 * range of PostgreSQL's bigint. A path's id goes through GameIdPipe; a query parameter naming a
 * game is checked by the same rule, so an id past bigint is a 400 and never reaches the database.
 */

const MAX_BIGINT = '9223372036854775807';
const PAST_BIGINT = ['9223372036854775808', '9999999999999999999', '99999999999999999999', '1'.repeat(40)];
const NO_ID = ['0', '-1', '+15', '0x10', '1e1', '15.0', ' 15', 'abc', ''];

/** The query as the ValidationPipe makes it from the query string, and its messages. */
function read<T extends object>(type: ClassConstructor<T>, query: Record<string, string>): { value: T; messages: string[] } {
  const value = plainToInstance(type, query);
  const messages = validateSync(value, { whitelist: true, forbidNonWhitelisted: true }).flatMap((error) => Object.values(error.constraints ?? {}));
  return { value, messages };
}

describe('game ids', () => {
  const pipe = new GameIdPipe();

  it('a path id: 1 to 2^63-1, leading zeros dropped; anything else 400 request.bad_id', () => {
    expect(pipe.transform('1')).toBe('1');
    expect(pipe.transform('007')).toBe('7');
    expect(pipe.transform(MAX_BIGINT)).toBe(MAX_BIGINT);
    for (const id of [...PAST_BIGINT, ...NO_ID]) {
      expect(() => pipe.transform(id)).toThrow(expect.objectContaining({ code: 'request.bad_id' }));
      expect(() => pipe.transform(id)).toThrow(ProblemException);
    }
  });

  it('`game` of a position query: the same rule', () => {
    expect(read(GamePositionQuery, { game: MAX_BIGINT, ply: '0' })).toMatchObject({ value: { game: MAX_BIGINT, ply: 0 }, messages: [] });
    expect(read(GamePositionQuery, { game: '0042', ply: '0' })).toMatchObject({ value: { game: '42' }, messages: [] });
    for (const game of [...PAST_BIGINT, ...NO_ID]) {
      expect({ game, messages: read(GamePositionQuery, { game, ply: '0' }).messages }).toEqual({ game, messages: [expect.stringMatching(/^game must be a game id: decimal digits naming 1 to 9223372036854775807/)] });
    }
  });

  it("`before` of a player's games and `after` of a re-indexing: the same rule, as the exact numbers `next` gives", () => {
    expect(read(PlayerGamesQuery, { before: '12' })).toMatchObject({ value: { before: 12 }, messages: [] });
    expect(read(PlayerGamesQuery, { before: '9007199254740991' })).toMatchObject({ value: { before: 9007199254740991 }, messages: [] });
    expect(read(ReindexQuery, { after: '0' })).toMatchObject({ value: { after: 0 }, messages: [] });
    expect(read(ReindexQuery, { after: '12' })).toMatchObject({ value: { after: 12 }, messages: [] });
    for (const id of [...PAST_BIGINT, '9007199254740992', ...NO_ID.filter((id) => id !== '0')]) {
      expect({ id, messages: read(PlayerGamesQuery, { before: id }).messages }).toEqual({ id, messages: [expect.stringMatching(/^before must be a game id/)] });
      expect({ id, messages: read(ReindexQuery, { after: id }).messages }).toEqual({ id, messages: [expect.stringMatching(/^after must be a game id/)] });
    }
    expect(read(PlayerGamesQuery, { before: '0' }).messages).toEqual([expect.stringMatching(/^before must be a game id/)]);
  });
});

describe('integer parameters that reach an SQL int', () => {
  it.each(['movesMin', 'movesMax'])('%s is at most 2^31-1', (name) => {
    expect(read(SearchGamesQuery, { [name]: '2147483647' }).messages).toEqual([]);
    for (const value of ['2147483648', '9007199254740991', '99999999999999999999']) {
      expect({ value, messages: read(SearchGamesQuery, { [name]: value }).messages }).toEqual({ value, messages: [`${name} must not be greater than 2147483647`] });
    }
  });
});
