/** How long the engine benches run one piece of work: at least this long, after one warm-up run. */
export const MIN_MS = 1000;

/** A piece of work run again and again: how many times, in how many milliseconds. */
export interface Measured {
  readonly rounds: number;
  readonly ms: number;
}

/** Runs `work` once to let the JIT see it, then as often as fits in {@link MIN_MS} (at least once). */
export function measure(work: () => void): Measured {
  work();
  let rounds = 0;
  const start = performance.now();
  do {
    work();
    rounds++;
  } while (performance.now() - start < MIN_MS);
  return { rounds, ms: performance.now() - start };
}

/** {@link measure} for work that waits (on an analysis thread, say). */
export async function measureAsync(work: () => Promise<void>): Promise<Measured> {
  await work();
  let rounds = 0;
  const start = performance.now();
  do {
    await work();
    rounds++;
  } while (performance.now() - start < MIN_MS);
  return { rounds, ms: performance.now() - start };
}
