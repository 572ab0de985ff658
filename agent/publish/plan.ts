import type { V1Node, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import type { Inventory } from '../../core/inventory/schema.ts';
import { API_GROUP, API_VERSION, CONDITION_TYPE, NODE_VALIDATION_KIND, type NodeKeys } from '../../core/kube/names.ts';
import { type Ownership, parseOwnership } from '../../core/kube/ownership.ts';
import type { NodeValidation, NodeValidationStatus, TaintReport } from '../../core/report/schema.ts';
import type { TaintConfig } from '../config.ts';
import { desiredNode, type DesiredNode, diff, metadataChanged, type NodeDiff } from '../desired/node-state.ts';
import { changedFields, reportContent, statusContent } from '../desired/report.ts';
import { desiredTaints, guardAllows, type PoolNode, refuseTaint, taintReport, withoutTaint, withTaint } from '../desired/taint.ts';
import { type EffectiveVerdict, holdVerdict, type PublishedVerdict } from '../desired/verdict-hold.ts';
import type { HeartbeatDue } from '../heartbeat.ts';
import type { ProbeOutcome } from './probe-outcome.ts';

export interface PlanSettings {
  keys: NodeKeys;
  taintConfig: TaintConfig;
  agentVersion: string;
  /** The hardware inventory (core/inventory), collected once at start before the first probe. */
  inventory?: Inventory;
}

/** This node is not selected by the taint pool selector (and does not carry the taint). */
export const OUTSIDE_POOL = 'outside-pool';

/** Everything one publish attempt decides from, read once at the start of the attempt (read.ts). */
export interface PublishRead {
  node: V1Node;
  /** The NodeValidation report, when it exists. */
  report: NodeValidation | undefined;
  /** The share guard's input, read only when the taint is wanted. */
  pool: PoolNode[] | typeof OUTSIDE_POOL | undefined;
}

/** The one merge patch for labels, the ownership annotation and, when they change, the taints. */
export interface NodePatch {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
  taints?: V1Taint[];
  resourceVersion?: string;
}

/** Labels, ownership and taints: what the Node object needs, with the share guard's answer. */
export interface NodeObjectPlan {
  desired: DesiredNode;
  changes: NodeDiff;
  /** Undefined when nothing differs: no write. */
  patch: NodePatch | undefined;
  /** The patch adds virtgate's taint: the pool must be looked at again once it is visible. */
  addsTaint: boolean;
  /** The share guard's refusal to let this node carry the taint, if it refused. */
  taintRefused: string | undefined;
  /** The taint as the Node will stand once the patch is written (one computation for the report and the agent). */
  taint: TaintReport;
}

export interface ReportPlan {
  /** The report to create first, when none exists. */
  create: NodeValidation | undefined;
  /** The status write, whole (a field that is news changed) or only the timestamps (heartbeat). */
  write: { fields: Partial<NodeValidationStatus>; whole: boolean } | undefined;
  /** The fields that are news (for the log). */
  changed: string[];
  /** When the report was last refreshed once this publish is written. */
  heartbeatAt: Date | undefined;
}

export interface ConditionPlan {
  write: V1NodeCondition | undefined;
  /** Its status, reason or message changed (not only a heartbeat). */
  changed: boolean;
  heartbeatAt: Date | undefined;
}

export interface VerdictEvent {
  reason: 'VirtualizationReady' | 'VirtualizationNotReady';
  type: 'Normal' | 'Warning';
  message: string;
  nodeUid: string;
  from: PublishedVerdict;
}

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

export function carriesTaint(node: V1Node, keys: NodeKeys): boolean {
  return (node.spec?.taints ?? []).some((taint) => taint.key === keys.notReadyTaint);
}

function ownershipOf(node: V1Node, keys: NodeKeys): Ownership {
  return parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]);
}

function previousVerdict(node: V1Node, keys: NodeKeys): PublishedVerdict | undefined {
  const labels = node.metadata?.labels ?? {};
  const ready = labels[keys.labels.ready];
  const tier = labels[keys.labels.tier];
  if (!ownershipOf(node, keys).labels.includes(keys.labels.ready) || (ready !== 'true' && ready !== 'false')) return undefined;
  if (tier !== 'hardware' && tier !== 'emulation' && tier !== 'none') return undefined;
  return { ready: ready === 'true', tier };
}

function effectiveVerdict(node: V1Node, outcome: ProbeOutcome, keys: NodeKeys): EffectiveVerdict {
  return holdVerdict(outcome.verdict, previousVerdict(node, keys));
}

/** Whether the taint policy wants virtgate's taint on `node`: then the read fetches the guard's input. */
export function taintWanted(node: V1Node, outcome: ProbeOutcome, settings: PlanSettings): boolean {
  const { keys, taintConfig } = settings;
  const wanted = desiredTaints(taintConfig, keys, effectiveVerdict(node, outcome, keys), ownershipOf(node, keys));
  return wanted.present.some((taint) => taint.key === keys.notReadyTaint);
}

/**
 * The share guard's answer for `node`: undefined when it may carry the taint, else why not. A node
 * that already carries it is ranked as it stands ("may keep"); one that does not must be in the pool.
 */
function guardRefusal(node: V1Node, pool: PublishRead['pool'], settings: PlanSettings): string | undefined {
  const outside = 'this node is outside the taint pool selector';
  const name = node.metadata?.name ?? '';
  if (pool === undefined) return 'the taint pool was not read';
  if (pool === OUTSIDE_POOL) return outside;
  if (!carriesTaint(node, settings.keys) && !pool.some((member) => member.name === name)) return outside;
  const guard = guardAllows(pool, name, settings.taintConfig.maxShare);
  return guard.allowed ? undefined : guard.reason;
}

/** Labels, ownership and taints for `node` as read (or as just written, for the re-check after tainting). */
export function planNodeObject(node: V1Node, pool: PublishRead['pool'], outcome: ProbeOutcome, effective: EffectiveVerdict, settings: PlanSettings, now: Date): NodeObjectPlan {
  const { keys } = settings;
  let desired = desiredNode(settings, outcome.verdict, effective, outcome.facts, node);
  let taintRefused: string | undefined;
  if (desired.taints.present.some((taint) => taint.key === keys.notReadyTaint)) {
    taintRefused = guardRefusal(node, pool, settings);
    if (taintRefused !== undefined) desired = { ...desired, taints: refuseTaint(desired.taints, keys.notReadyTaint) };
  }
  const changes = diff(desired, node, keys);
  const { add, remove } = changes.taints;
  const taintsChange = add.length > 0 || remove.length > 0;
  const taints = remove.reduce((list, key) => withoutTaint(list, key), add.reduce((list, taint) => withTaint(list, taint, now), node.spec?.taints ?? []));
  const patch: NodePatch | undefined = metadataChanged(changes)
    ? {
        ...(Object.keys(changes.labels).length > 0 ? { labels: changes.labels } : {}),
        ...(changes.ownership !== undefined ? { annotations: { [keys.ownershipAnnotation]: changes.ownership } } : {}),
        // A list without a merge key: the resourceVersion makes a concurrent writer a 409, not a lost taint.
        ...(taintsChange ? { taints, resourceVersion: node.metadata?.resourceVersion ?? '' } : {}),
      }
    : undefined;
  const taint = taintReport(settings.taintConfig, taints.some((t) => t.key === keys.notReadyTaint), taintRefused);
  return { desired, changes, patch, addsTaint: add.some((t) => t.key === keys.notReadyTaint), taintRefused, taint };
}

function planCondition(node: V1Node, desired: DesiredNode, changed: boolean, heartbeat: HeartbeatDue, now: Date): ConditionPlan {
  const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  const lastHeartbeat = current?.lastHeartbeatTime ? new Date(current.lastHeartbeatTime) : undefined;
  if (!changed && !heartbeat.condition) return { write: undefined, changed, heartbeatAt: lastHeartbeat };
  const wanted = desired.condition;
  const write: V1NodeCondition = {
    type: CONDITION_TYPE,
    ...wanted,
    lastHeartbeatTime: now,
    lastTransitionTime: current && current.status === wanted.status && current.lastTransitionTime ? current.lastTransitionTime : now,
  };
  return { write, changed, heartbeatAt: now };
}

/** A new report: metadata and spec; the status follows through the status subresource. */
function newReport(node: V1Node, keys: NodeKeys): NodeValidation {
  const name = node.metadata?.name ?? '';
  return {
    apiVersion: `${API_GROUP}/${API_VERSION}`,
    kind: NODE_VALIDATION_KIND,
    metadata: {
      name,
      labels: { [`${keys.prefix}/node`]: name },
      // Garbage-collected with its Node.
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
    },
    spec: { nodeName: name },
  };
}

function planReport(read: PublishRead, outcome: ProbeOutcome, effective: EffectiveVerdict, nodePlan: NodeObjectPlan, settings: PlanSettings, heartbeat: HeartbeatDue, now: Date): ReportPlan {
  const create = read.report ? undefined : newReport(read.node, settings.keys);
  const published = read.report?.status;
  const generation = read.report?.metadata.generation ?? 1;
  const stamp = now.toISOString();
  const probedAt = outcome.probedAt.toISOString();
  const verdict = reportContent(outcome.verdict, effective, outcome.facts, settings.agentVersion, nodePlan.taint, settings.inventory);
  const content = statusContent(verdict, nodePlan.desired.condition, generation, published, now);
  const lastHeartbeat = published?.heartbeatAt ? new Date(published.heartbeatAt) : undefined;
  const changed = changedFields(content, published);
  if (changed.length === 0) {
    if (!heartbeat.report) return { create, write: undefined, changed, heartbeatAt: lastHeartbeat };
    return { create, write: { fields: { probedAt, heartbeatAt: stamp }, whole: false }, changed, heartbeatAt: now };
  }
  const transitioned = published?.ready !== content.ready || published?.tier !== content.tier;
  const lastTransitionAt = transitioned || !published?.lastTransitionAt ? stamp : published.lastTransitionAt;
  return { create, write: { fields: { ...content, probedAt, heartbeatAt: stamp, lastTransitionAt }, whole: true }, changed, heartbeatAt: now };
}

function planEvent(node: V1Node, previous: PublishedVerdict | undefined, effective: EffectiveVerdict, desired: DesiredNode): VerdictEvent | undefined {
  if (!previous || effective.held || (previous.ready === effective.ready && previous.tier === effective.tier)) return undefined;
  return {
    reason: effective.ready ? 'VirtualizationReady' : 'VirtualizationNotReady',
    type: effective.ready ? 'Normal' : 'Warning',
    message: `virtgate verdict changed: ready ${previous.ready} → ${effective.ready}, tier ${previous.tier} → ${effective.tier}: ${desired.condition.message}`,
    nodeUid: node.metadata?.uid ?? '',
    from: previous,
  };
}

/**
 * One publish, decided purely from what was read: the verdict to publish (a probe that could not
 * tell keeps the published one), the Node patch with the share guard's answer, the condition, the
 * report status, the Event and what the metrics record. Exporters only write what this says.
 */
export function plan(read: PublishRead, outcome: ProbeOutcome, settings: PlanSettings, heartbeat: HeartbeatDue, now: Date): Plan {
  const previous = previousVerdict(read.node, settings.keys);
  const effective = holdVerdict(outcome.verdict, previous);
  const nodePlan = planNodeObject(read.node, read.pool, outcome, effective, settings, now);
  return {
    ...nodePlan,
    now,
    previous,
    effective,
    condition: planCondition(read.node, nodePlan.desired, nodePlan.changes.condition, heartbeat, now),
    report: planReport(read, outcome, effective, nodePlan, settings, heartbeat, now),
    event: planEvent(read.node, previous, effective, nodePlan.desired),
  };
}

/**
 * The second step of the taint protocol: the taint is written and visible, so the pool is read
 * again and the node asks the guard whether it may keep it (nodes that failed at the same moment
 * may together exceed the share). Only the Node object and the report's account of the taint change.
 */
export function replanAfterTainting(first: Plan, read: PublishRead, written: V1Node, pool: PoolNode[], outcome: ProbeOutcome, settings: PlanSettings, heartbeat: HeartbeatDue): Plan {
  const nodePlan = planNodeObject(written, pool, outcome, first.effective, settings, first.now);
  return { ...first, ...nodePlan, report: planReport(read, outcome, first.effective, nodePlan, settings, heartbeat, first.now) };
}
