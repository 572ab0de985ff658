import { describe, expect, it } from 'vitest';
import { heartbeatDue, type HeartbeatState, nextHeartbeatAt } from './heartbeat.ts';

const PERIOD = 10 * 60_000;

/** Replays the agent's heartbeat timer over simulated time, with both objects written together at t=0. */
function simulate(hours: number) {
  const start = Date.UTC(2026, 11, 2);
  const state: HeartbeatState = { conditionAt: new Date(start), reportAt: new Date(start), lastHeartbeatWrite: 0 };
  const writes: Array<{ at: number; object: 'condition' | 'report' }> = [];
  let now = start;
  while (now < start + hours * 3_600_000) {
    now = nextHeartbeatAt(state, new Date(now), PERIOD);
    const due = heartbeatDue(state, new Date(now), PERIOD);
    expect(due.condition && due.report).toBe(false);
    if (due.condition) state.conditionAt = new Date(now);
    if (due.report) state.reportAt = new Date(now);
    if (due.condition || due.report) {
      state.lastHeartbeatWrite = now;
      writes.push({ at: now, object: due.condition ? 'condition' : 'report' });
    } else {
      now += 1; // nothing due: the timer fires again later
    }
  }
  return writes;
}

describe('heartbeat', () => {
  it('writes one object per heartbeat and staggers the two refreshes', () => {
    const writes = simulate(4);
    const gaps = writes.slice(1).map((w, i) => w.at - (writes[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PERIOD / 2);
    // Two objects, each refreshed once per period: 12 writes an hour at a 10 min period.
    expect(writes.length).toBeGreaterThanOrEqual(4 * 12 - 2);
    expect(writes.length).toBeLessThanOrEqual(4 * 12 + 1);
  });

  it('refreshes each object at least every period and a half', () => {
    const writes = simulate(4);
    for (const object of ['condition', 'report'] as const) {
      const times = writes.filter((w) => w.object === object).map((w) => w.at);
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
      expect(Math.max(...gaps)).toBeLessThanOrEqual(PERIOD * 1.5);
    }
  });

  it('refreshes nothing before a period has passed', () => {
    const t0 = new Date('2026-12-02T00:00:00Z');
    const state = { conditionAt: t0, reportAt: t0, lastHeartbeatWrite: 0 };
    expect(heartbeatDue(state, new Date(t0.getTime() + PERIOD - 1), PERIOD)).toEqual({ condition: false, report: false });
    expect(heartbeatDue(state, new Date(t0.getTime() + PERIOD), PERIOD)).toEqual({ condition: true, report: false });
  });
});
