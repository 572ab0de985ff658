import type { NodeSettings } from '../desired/node-state.ts';
import { guardTaint } from '../desired/share-guard.ts';
import type { EffectiveVerdict, PublishedVerdict } from '../desired/verdict-hold.ts';
import type { HeartbeatDue } from '../heartbeat.ts';
import type { Decision } from './decision.ts';
import { type ConditionPlan, planCondition } from './plan/condition.ts';
import { planEvent, type VerdictEvent } from './plan/event.ts';
import { type NodeObjectPlan, planNodeObject } from './plan/node-object.ts';
import { planReport, type ReportPlan, type ReportSettings } from './plan/report.ts';
import type { PublishRead } from './read.ts';

export interface PlanSettings extends NodeSettings, ReportSettings {}

/** One publish, decided: every write the exporters make, and nothing they decide themselves. */
export interface Plan extends NodeObjectPlan {
  now: Date;
  /** The verdict the node's labels carried before this publish, if virtgate put them there. */
  previous: PublishedVerdict | undefined;
  effective: EffectiveVerdict;
  condition: ConditionPlan;
  report: ReportPlan;
  event: VerdictEvent | undefined;
}

/**
 * One publish, planned purely from what was read and what the probe outcome was decided to mean:
 * the share guard's answer, the Node patch, the condition, the report status and the Event, each
 * from its own piece, in the order their inputs become known. Exporters only write what this says.
 * After tainting, the publish plans again from the Node as written and the pool read again.
 */
export function plan(decision: Decision, read: PublishRead, settings: PlanSettings, heartbeat: HeartbeatDue, now: Date): Plan {
  const guarded = guardTaint(decision.desired, read.node, read.pool, settings);
  const nodePlan = planNodeObject(guarded, read.node, settings, now);
  return {
    ...nodePlan,
    now,
    previous: decision.previous,
    effective: decision.effective,
    condition: planCondition(nodePlan.desired.condition, nodePlan.changes.condition, read.node, heartbeat, now),
    report: planReport(decision, nodePlan, read, settings, heartbeat, now),
    event: planEvent(decision.effective, decision.previous, nodePlan.desired.condition, read.node),
  };
}
