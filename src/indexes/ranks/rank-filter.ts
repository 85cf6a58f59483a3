import { ValidateBy } from 'class-validator';
import type { ValidationArguments } from 'class-validator';
import { goRankValue, rankText } from '../../formats/families/go/ranks.js';

/*
 * The rank and rating filters of the searches of games, read from the ranks index (`game_ranks`,
 * src/indexes/ranks/ranks.index.ts): a game is taken when every player lies in the range.
 */

/** A filter's value as a 400 shows it: short, quoted, without control characters. */
function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
  return text.replace(/[\u0000-\u001F\u007F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A rank filter's value on the scale of src/formats/families/go/ranks.ts, or null when it is no rank. */
export function rankFilterValue(value: unknown): number | null {
  return typeof value === 'string' ? goRankValue(value) : null;
}

/**
 * A query parameter that is a Go rank in any form the index reads (`5d`, `3 kyu`, `2段`, `9p`): kept
 * as sent, or a 400 `request.invalid` naming the parameter.
 */
export function IsGoRank(): PropertyDecorator {
  return ValidateBy({
    name: 'isGoRank',
    validator: {
      validate: (value: unknown) => rankFilterValue(value) !== null,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} is ${shownValue(args?.value)}, which is no Go rank: a rank is 30k to 1k, 1d to 9d or 1p to 9p, written as files write it (5d, 5 dan, 2段, 4단, 3k, 3 kyu, 15級, 10급, 9p, 9 pro)`,
    },
  });
}

/**
 * The upper end of a range whose lower end is the parameter `lower`: a 400 `request.invalid` naming
 * both when the lower is above it (read by `read`; values it cannot read are left to their own checks).
 */
export function NotBelow(lower: string, read: (value: unknown) => number | null): PropertyDecorator {
  return ValidateBy({
    name: 'notBelow',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const low = read((args?.object as Record<string, unknown> | undefined)?.[lower]);
        const high = read(value);
        return low === null || high === null || low <= high;
      },
      defaultMessage: (args?: ValidationArguments) =>
        `${lower} (${shownValue((args?.object as Record<string, unknown> | undefined)?.[lower])}) is above ${args?.property} (${shownValue(args?.value)}): no value lies in that range`,
    },
  });
}

/** A rating filter's value, when it is a finite number. */
export function ratingFilterValue(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The rank text the archive writes for a player's written rating (`5 dan` → `5d`), or null when it holds no rank. */
export function normalisedRank(written: string | null | undefined): string | null {
  if (written === null || written === undefined) return null;
  const value = goRankValue(written);
  return value === null ? null : rankText(value);
}

/**
 * The conditions (on `game_ranks r`) that every player of the game lies between `low` and `high`
 * (SQL of the filter's values on the scale, or of ratings; either may be absent), on the columns of
 * the game's lowest and highest (`low_rank`, `high_rank` or `low_rating`, `high_rating`). Each
 * condition bounds the leading column of the (low, high) index: a game's highest is at least its
 * lowest, so `high <= max` holds only when `low <= max` does too.
 */
export function levelConditions(lowColumn: string, highColumn: string, low: string | undefined, high: string | undefined): string[] {
  const conditions: string[] = [];
  if (low !== undefined) conditions.push(`r.${lowColumn} >= ${low}`);
  if (high !== undefined) conditions.push(`r.${lowColumn} <= ${high}`, `r.${highColumn} <= ${high}`);
  return conditions;
}
