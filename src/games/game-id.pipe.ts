import { Injectable, PipeTransform } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';

/** A game id as the database keys it: decimal digits of a positive bigint, kept as text. */
export type GameId = string;

const MAX_BIGINT = 9223372036854775807n;

/**
 * Accepts only decimal digits naming 1..2^63-1 (leading zeros dropped). Everything else a number
 * parser would take (`0x10`, `1e1`, `+15`, ` 15`, `15.0`) is a 400, so a URL names one game only.
 */
@Injectable()
export class GameIdPipe implements PipeTransform<string, GameId> {
  transform(value: string): GameId {
    if (/^\d{1,25}$/.test(value)) {
      const id = BigInt(value);
      if (id >= 1n && id <= MAX_BIGINT) return id.toString();
    }
    throw new ProblemException(400, 'request.bad_id', `"${printable(value)}" is not a game id: expected decimal digits naming 1 to ${MAX_BIGINT}`);
  }
}

function printable(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return shown.replace(/[\u0000-\u001F\u007F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
