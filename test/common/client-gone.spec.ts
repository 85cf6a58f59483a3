import { clientSignal, withDeadline } from '../../src/common/client-gone.js';
import { ProblemException, searchTimeout } from '../../src/common/problem-codes.js';

describe('withDeadline', () => {
  it('answers search.timeout at the deadline and aborts the work with that reason', async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    const error = await withDeadline(150, () => searchTimeout(150), () => {
      seen = clientSignal();
      return new Promise<never>(() => undefined);
    }).catch((failure: unknown) => failure);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ProblemException);
    expect(error).toMatchObject({ code: 'search.timeout' });
    expect((error as ProblemException).getStatus()).toBe(503);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(error);
  });

  it('gives the work its answer when it comes in time, and leaves no signal behind', async () => {
    expect(await withDeadline(1000, () => searchTimeout(1000), async () => 42)).toBe(42);
    expect(clientSignal()).toBeUndefined();
  });
});
