import { FormatError } from '../../src/core/errors.js';
import { DEFAULT_LIMITS, ReadLimits } from '../../src/core/limits.js';
import type { ReadOptions } from '../../src/formats/plugin.js';

/** Read options with some bounds changed from the defaults. */
export const limitOptions = (limits: Partial<ReadLimits> = {}): ReadOptions => ({ timeBudgetMs: 1000, limits: { ...DEFAULT_LIMITS, ...limits } });

/** An upload of UTF-8 text. */
export const textFile = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });

/** The FormatError a read ends with; fails the test when the read succeeds or fails otherwise. */
export async function refusal(promise: Promise<unknown>): Promise<FormatError> {
  const outcome = await promise.then(() => new Error('the upload was accepted'), (error: unknown) => error);
  if (!(outcome instanceof FormatError)) throw new Error(`expected a FormatError: ${outcome instanceof Error ? outcome.message : String(outcome)}`);
  return outcome;
}
