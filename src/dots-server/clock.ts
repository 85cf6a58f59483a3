/** Time as the lobby sees it: injected, so that tests run move timers without waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `run` after `ms` milliseconds unless cancelled. */
  schedule(ms: number, run: () => void): Timer;
}

export interface Timer {
  cancel(): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(ms, run) {
    const handle = setTimeout(run, ms);
    // A move timer alone must not keep the process alive.
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};
