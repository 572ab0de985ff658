/** Which objects a publish may refresh although nothing changed (heartbeat). */
export interface HeartbeatDue {
  condition: boolean;
  report: boolean;
}

/** When each published object was last refreshed (from what the API server holds). */
export interface HeartbeatState {
  conditionAt: Date | undefined;
  reportAt: Date | undefined;
  /** When the agent last wrote a heartbeat-only refresh (epoch ms; 0 = never). */
  lastHeartbeatWrite: number;
}

/**
 * At most one heartbeat write per half period, to the object refreshed longest ago, so each
 * object is refreshed about once per period and the two refreshes never land together:
 * one write per heartbeat, 2 × 60/period writes per hour in steady state.
 */
export function heartbeatDue(state: HeartbeatState, now: Date, periodMs: number): HeartbeatDue {
  const none = { condition: false, report: false };
  if (now.getTime() - state.lastHeartbeatWrite < periodMs / 2) return none;
  const age = (at: Date | undefined) => (at ? now.getTime() - at.getTime() : Infinity);
  const conditionAge = age(state.conditionAt);
  const reportAge = age(state.reportAt);
  if (Math.max(conditionAge, reportAge) < periodMs) return none;
  return conditionAge >= reportAge ? { condition: true, report: false } : { condition: false, report: true };
}

/** When the next heartbeat may be due (epoch ms). */
export function nextHeartbeatAt(state: HeartbeatState, now: Date, periodMs: number): number {
  const due = (at: Date | undefined) => (at ? at.getTime() + periodMs : now.getTime());
  return Math.max(Math.min(due(state.conditionAt), due(state.reportAt)), state.lastHeartbeatWrite + periodMs / 2);
}
