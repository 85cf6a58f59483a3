import type { Clock, Timer } from '../../src/dots-server/clock.js';

/** A clock that moves only when told: `advance(ms)` runs the timers that fall due, in time order. */
export class ManualClock implements Clock {
  private time: number;
  private timers: { at: number; run: () => void; live: boolean; order: number }[] = [];
  private made = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  schedule(ms: number, run: () => void): Timer {
    const timer = { at: this.time + ms, run, live: true, order: this.made++ };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false) };
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (due === undefined) break;
      due.live = false;
      this.time = due.at;
      due.run();
    }
    this.timers = this.timers.filter((t) => t.live);
    this.time = until;
  }
}
