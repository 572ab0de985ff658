/**
 * When to recompute the gate: after `debounceMs` without a new change (a burst of events costs
 * one recompute), but no later than `maxWaitMs` after the first pending change (a steady trickle
 * of heartbeats cannot postpone it forever), and every `periodMs` regardless (report ages and
 * end-of-life days move with the clock). Requests are never lost: one arriving while a run is
 * in progress schedules another.
 */
export interface RecomputeTiming {
  debounceMs: number;
  maxWaitMs: number;
  periodMs: number;
}

export const DEFAULT_RECOMPUTE_TIMING: RecomputeTiming = { debounceMs: 200, maxWaitMs: 2000, periodMs: 60_000 };

export class RecomputeScheduler {
  private readonly run: () => void;
  private readonly timing: RecomputeTiming;
  private readonly now: () => number;
  private debounceTimer: NodeJS.Timeout | undefined;
  private periodTimer: NodeJS.Timeout | undefined;
  /** When the oldest pending request arrived; undefined when nothing is pending. */
  private pendingSince: number | undefined;
  private stopped = false;

  constructor(run: () => void, timing: RecomputeTiming = DEFAULT_RECOMPUTE_TIMING, now: () => number = Date.now) {
    this.run = run;
    this.timing = timing;
    this.now = now;
  }

  /** Starts the periodic recompute. */
  start(): void {
    this.stopped = false;
    clearInterval(this.periodTimer);
    this.periodTimer = setInterval(() => this.flush(), this.timing.periodMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.debounceTimer);
    clearInterval(this.periodTimer);
    this.pendingSince = undefined;
  }

  /** Something changed: recompute soon. */
  request(): void {
    if (this.stopped) return;
    const now = this.now();
    this.pendingSince ??= now;
    const deadline = this.pendingSince + this.timing.maxWaitMs;
    const delay = Math.max(0, Math.min(this.timing.debounceMs, deadline - now));
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => this.flush(), delay);
  }

  /** Runs now, dropping what was pending (it is included in this run). */
  flush(): void {
    if (this.stopped) return;
    clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
    this.pendingSince = undefined;
    this.run();
  }
}
