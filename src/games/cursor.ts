import { ProblemException } from '../common/problem-codes.js';

/** Search cursors are opaque to clients; inside they hold the last id of the page. */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`g:${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^g:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new ProblemException(400, 'request.invalid', 'cursor is not valid: pass the "next" value of a previous page unchanged');
  return Number(match[1]);
}
