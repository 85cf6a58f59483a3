import { applyDecorators, Injectable, PipeTransform } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { ProblemException } from '../common/problem-codes.js';

/** A game id as the database keys it: decimal digits of a positive bigint, kept as text. */
export type GameId = string;

/** The largest id PostgreSQL's bigint holds, 2^63-1. */
const MAX_BIGINT = 9223372036854775807n;
/** The largest id a JSON number (as `next` and a game's `id` are written) holds exactly, 2^53-1. */
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The rule for a game id wherever a request names one: only decimal digits, naming `least` (1, or 0
 * where 0 means "from the start") to `most` (bigint's 2^63-1); leading zeros dropped. Everything else
 * a number parser would take (`0x10`, `1e1`, `+15`, ` 15`, `15.0`) names no id, so a request names
 * one game only. The id as text, or undefined when the value names none.
 */
export function gameIdOf(value: unknown, least = 1n, most = MAX_BIGINT): GameId | undefined {
  if (typeof value !== 'string' || !/^\d{1,25}$/.test(value)) return undefined;
  const id = BigInt(value);
  return id >= least && id <= most ? id.toString() : undefined;
}

/** What a request was expected to name, for its 400. */
const ruleText = (least: bigint, most: bigint) => `decimal digits naming ${least} to ${most}`;

/** A path's game id (also an upload's or an import's): 400 `request.bad_id` unless it follows {@link gameIdOf}'s rule. */
@Injectable()
export class GameIdPipe implements PipeTransform<string, GameId> {
  transform(value: string): GameId {
    const id = gameIdOf(value);
    if (id !== undefined) return id;
    throw new ProblemException(400, 'request.bad_id', `"${printable(value)}" is not a game id: expected ${ruleText(1n, MAX_BIGINT)}`);
  }
}

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

/** The `{id}` of every game route: decimal digits of a positive 64-bit integer; anything else is a 400. */
export const GameIdParam = () =>
  applyDecorators(
    ApiParam({ name: 'id', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The game id.' }),
    ApiResponse({ status: 400, description: 'The id is not decimal digits naming 1 to 2^63-1.', content: problem }),
  );

/**
 * A query parameter naming a game, checked by the rule of {@link GameIdPipe}: the value becomes its
 * id as text ({@link GameId}), or the request is a 400 naming the parameter.
 */
export function IsGameId(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => gameIdOf(value) ?? value),
    ValidateBy({
      name: 'isGameId',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && gameIdOf(value) === value,
        defaultMessage: (args) => `${args?.property} must be a game id: ${ruleText(1n, MAX_BIGINT)}`,
      },
    }),
  );
}

/**
 * A query parameter naming a game as a page's `next` gives it, a JSON number: the rule of
 * {@link GameIdPipe} up to 2^53-1 (past that no number is exact), from `least` (0 where 0 means "from the start").
 * The value becomes the number, or the request is a 400 naming the parameter.
 */
export function IsGameIdNumber(least: 0 | 1 = 1): PropertyDecorator {
  const valid = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= least;
  return applyDecorators(
    Transform(({ value }) => {
      const id = gameIdOf(value, BigInt(least), MAX_EXACT);
      return id === undefined ? value : Number(id);
    }),
    ValidateBy({
      name: 'isGameIdNumber',
      validator: {
        validate: valid,
        defaultMessage: (args) => `${args?.property} must be a game id as a page's next gives it: ${ruleText(BigInt(least), MAX_EXACT)}`,
      },
    }),
  );
}

function printable(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return shown.replace(/[\u0000-\u001F\u007F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
