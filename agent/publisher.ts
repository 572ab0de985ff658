import type { Inventory } from '../core/inventory/schema.ts';
import type { V1Node, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import pRetry from 'p-retry';
import type { Logger } from 'pino';
import type { HostFacts } from '../core/checks/registry.ts';
import type { Verdict } from '../core/checks/verdict.ts';
import { apiFailure, isConflict } from '../core/kube/api-error.ts';
import { API_GROUP, API_VERSION, CONDITION_TYPE, NODE_VALIDATION_KIND, type NodeKeys } from '../core/kube/names.ts';
import type { NodeValidation, TaintReport } from '../core/report/schema.ts';
import type { TaintConfig } from './config.ts';
import { type DesiredCondition, desiredCondition } from './desired/condition.ts';
import { desiredLabels, labelPatch } from './desired/labels.ts';
import { formatOwnership, type Ownership, parseOwnership } from './desired/ownership.ts';
import { changedFields, reportContent } from './desired/report.ts';
import { guardAllows, type TaintAction, taintAction, withoutTaint, withTaint } from './desired/taint.ts';
import { type EffectiveVerdict, holdVerdict, type PublishedVerdict } from './desired/verdict-hold.ts';
import type { NodeApi } from './node-api.ts';

export interface Observation {
  verdict: Verdict;
  facts: HostFacts;
  probedAt: Date;
}

/** What the last successful publish left on the cluster; the watch compares against it to spot drift. */
export interface Applied {
  effective: EffectiveVerdict;
  labels: Record<string, string>;
  /** Taint keys that must be present (virtgate's own) or absent (lifted). */
  taintsPresent: string[];
  taintsAbsent: string[];
  condition: DesiredCondition;
  taint: TaintReport;
  /** When each object was last refreshed, from what the API server holds. */
  conditionHeartbeat: Date | undefined;
  reportHeartbeat: Date | undefined;
}

export interface PublishContext {
  api: NodeApi;
  keys: NodeKeys;
  taintConfig: TaintConfig;
  agentVersion: string;
  log: Logger;
  /** Collected once at start (core/inventory), before serving; absent until then. */
  inventory?: Inventory;
}

/** Which objects a publish may refresh although nothing changed (heartbeat). */
export interface HeartbeatDue {
  condition: boolean;
  report: boolean;
}

const CONFLICT_RETRIES = 5;

function previousVerdict(node: V1Node, keys: NodeKeys, ownership: Ownership): PublishedVerdict | undefined {
  const labels = node.metadata?.labels ?? {};
  const ready = labels[keys.labels.ready];
  const tier = labels[keys.labels.tier];
  if (!ownership.labels.includes(keys.labels.ready) || (ready !== 'true' && ready !== 'false')) return undefined;
  if (tier !== 'hardware' && tier !== 'emulation' && tier !== 'none') return undefined;
  return { ready: ready === 'true', tier };
}

/**
 * One publish: reads the node and its report, works out what differs from the verdict, and
 * writes only that. Returns what is now on the cluster.
 */
export async function publish(ctx: PublishContext, observation: Observation, heartbeat: HeartbeatDue, now: Date): Promise<Applied> {
  const { api, keys, log } = ctx;
  const { verdict, facts } = observation;

  let node = await api.readNode();
  const ownership = parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]);
  const previous = previousVerdict(node, keys, ownership);
  const effective = holdVerdict(verdict, previous);
  if (effective.held) log.warn({ decision: 'hold', tier: effective.tier, ready: effective.ready }, 'probe inconclusive; keeping the published verdict');

  // Labels and the ownership annotation: one merge patch, only when something differs.
  const currentLabels = node.metadata?.labels ?? {};
  const labels = desiredLabels(keys, verdict, effective, facts, currentLabels);
  const patch = labelPatch(labels, currentLabels, ownership.labels);
  const labelOwnership: Ownership = { labels: Object.keys(labels), taints: ownership.taints };
  const annotationChanged = formatOwnership(labelOwnership) !== formatOwnership(ownership);
  if (Object.keys(patch).length > 0 || annotationChanged) {
    log.info({ decision: 'labels', changes: patch }, 'updating node labels');
    node = await api.patchNode('labels', {
      labels: patch,
      annotations: { [keys.ownershipAnnotation]: formatOwnership(labelOwnership) },
    });
  }

  const taint = await applyTaintPolicy(ctx, node, effective, now);
  node = taint.node;

  const condition = desiredCondition(verdict, effective);
  const conditionHeartbeat = await applyCondition(ctx, node, condition, heartbeat.condition, now);

  const reportHeartbeat = await applyReport(ctx, node, observation, effective, taint.report, heartbeat.report, now);

  if (previous && !effective.held && (previous.ready !== effective.ready || previous.tier !== effective.tier)) {
    const message = `virtgate verdict changed: ready ${previous.ready} → ${effective.ready}, tier ${previous.tier} → ${effective.tier}: ${condition.message}`;
    log.info({ decision: 'transition', from: previous, to: { ready: effective.ready, tier: effective.tier } }, message);
    await api
      .createEvent({
        reason: effective.ready ? 'VirtualizationReady' : 'VirtualizationNotReady',
        message,
        type: effective.ready ? 'Normal' : 'Warning',
        nodeUid: node.metadata?.uid ?? '',
        now,
      })
      .catch((error: unknown) => log.warn({ err: apiFailure(error) }, 'could not record an Event (the verdict is published)'));
  }

  return {
    effective,
    labels,
    taintsPresent: taint.present,
    taintsAbsent: taint.absent,
    condition,
    taint: taint.report,
    conditionHeartbeat,
    reportHeartbeat,
  };
}

interface TaintOutcome {
  node: V1Node;
  report: TaintReport;
  present: string[];
  absent: string[];
}

async function applyTaintPolicy(ctx: PublishContext, initial: V1Node, effective: EffectiveVerdict, now: Date): Promise<TaintOutcome> {
  const { api, keys, taintConfig, log } = ctx;
  let node = initial;
  let refused: string | undefined;
  // 409 means someone else changed the node since we read it: read again, decide again.
  await pRetry(
    async () => {
      const ownership = parseOwnership(node.metadata?.annotations?.[keys.ownershipAnnotation]);
      const taints = node.spec?.taints ?? [];
      const action = taintAction(taintConfig, keys, effective, taints, ownership);
      if (action.kind === 'none') return;
      const next = await nextTaints(ctx, node, action, taints, now);
      if (next.refused) {
        refused = next.refused;
        return;
      }
      const owned = action.kind === 'add' ? [...ownership.taints, action.taint.key ?? ''] : ownership.taints.filter((k) => k !== action.key);
      log.info({ decision: 'taint', action }, action.kind === 'add' ? 'tainting the node' : 'removing a taint');
      try {
        node = await api.patchNode('taints', {
          resourceVersion: node.metadata?.resourceVersion ?? '',
          taints: next.taints,
          annotations: { [keys.ownershipAnnotation]: formatOwnership({ labels: ownership.labels, taints: owned }) },
        });
      } catch (error) {
        if (isConflict(error)) node = await api.readNode();
        throw error;
      }
      if (action.kind === 'add') {
        node = await recheckGuard(ctx, node, now, (reason) => (refused = reason));
      }
    },
    {
      retries: CONFLICT_RETRIES,
      minTimeout: 100,
      maxTimeout: 2000,
      randomize: true,
      shouldRetry: ({ error }) => isConflict(error),
      onFailedAttempt: ({ attemptNumber }) => log.debug({ attempt: attemptNumber }, 'taint update conflicted; retrying'),
    },
  );
  const taints = node.spec?.taints ?? [];
  const has = (key: string) => taints.some((t) => t.key === key);
  const applied = has(keys.notReadyTaint);
  const lifted = [keys.notReadyTaint, ...(taintConfig.policy === 'bootstrap' && taintConfig.bootstrapKey ? [taintConfig.bootstrapKey] : [])].filter(
    (key) => !has(key),
  );
  return {
    node,
    report: { policy: taintConfig.policy, applied, ...(refused ? { refused } : {}) },
    present: applied ? [keys.notReadyTaint] : [],
    absent: effective.ready && !effective.held ? lifted : [],
  };
}

async function nextTaints(
  ctx: PublishContext,
  node: V1Node,
  action: Exclude<TaintAction, { kind: 'none' }>,
  taints: V1Taint[],
  now: Date,
): Promise<{ taints: V1Taint[]; refused?: string }> {
  if (action.kind === 'remove') return { taints: withoutTaint(taints, action.key) };
  const outside = { taints, refused: 'this node is outside the taint pool selector' };
  if (!(await ctx.api.nodeMatches(ctx.taintConfig.poolSelector, node))) return outside;
  const pool = await poolOf(ctx);
  const self = node.metadata?.name ?? '';
  if (!pool.some((member) => member.name === self)) return outside;
  const guard = guardAllows(pool, self, ctx.taintConfig.maxShare);
  if (!guard.allowed) return { taints, refused: guard.reason };
  return { taints: withTaint(taints, action.taint, now) };
}

async function poolOf(ctx: PublishContext) {
  const nodes = await ctx.api.listNodes(ctx.taintConfig.poolSelector);
  return nodes.map((n) => {
    const taint = n.spec?.taints?.find((t) => t.key === ctx.keys.notReadyTaint);
    return {
      name: n.metadata?.name ?? '',
      ...(taint ? { taintedAt: taint.timeAdded ? new Date(taint.timeAdded) : new Date(0) } : {}),
    };
  });
}

/** After tainting, look again: nodes that failed at the same moment may together exceed the share. */
async function recheckGuard(ctx: PublishContext, node: V1Node, now: Date, onRefused: (reason: string) => void): Promise<V1Node> {
  const pool = await poolOf(ctx);
  const self = node.metadata?.name ?? '';
  const guard = guardAllows(pool, self, ctx.taintConfig.maxShare);
  if (guard.allowed) return node;
  onRefused(guard.reason);
  const ownership = parseOwnership(node.metadata?.annotations?.[ctx.keys.ownershipAnnotation]);
  return ctx.api.patchNode('taints', {
    resourceVersion: node.metadata?.resourceVersion ?? '',
    taints: withoutTaint(node.spec?.taints ?? [], ctx.keys.notReadyTaint),
    annotations: {
      [ctx.keys.ownershipAnnotation]: formatOwnership({ labels: ownership.labels, taints: ownership.taints.filter((k) => k !== ctx.keys.notReadyTaint) }),
    },
  });
}

async function applyCondition(
  ctx: PublishContext,
  node: V1Node,
  desired: DesiredCondition,
  heartbeatDue: boolean,
  now: Date,
): Promise<Date | undefined> {
  const current = node.status?.conditions?.find((c) => c.type === CONDITION_TYPE);
  const changed = !current || current.status !== desired.status || current.reason !== desired.reason || current.message !== desired.message;
  const lastHeartbeat = current?.lastHeartbeatTime ? new Date(current.lastHeartbeatTime) : undefined;
  if (!changed && !heartbeatDue) return lastHeartbeat;
  const condition: V1NodeCondition = {
    type: CONDITION_TYPE,
    ...desired,
    lastHeartbeatTime: now,
    lastTransitionTime: current && current.status === desired.status && current.lastTransitionTime ? current.lastTransitionTime : now,
  };
  if (changed) ctx.log.info({ decision: 'condition', status: desired.status, reason: desired.reason }, desired.message);
  await ctx.api.patchCondition(condition);
  return now;
}

async function applyReport(
  ctx: PublishContext,
  node: V1Node,
  observation: Observation,
  effective: EffectiveVerdict,
  taint: TaintReport,
  heartbeatDue: boolean,
  now: Date,
): Promise<Date | undefined> {
  const { api, agentVersion } = ctx;
  const content = reportContent(observation.verdict, effective, observation.facts, agentVersion, taint, ctx.inventory);
  const existing = await api.readNodeValidation();
  const published = existing?.status;
  const stamp = now.toISOString();
  if (!existing) {
    const name = node.metadata?.name ?? '';
    const object: NodeValidation = {
      apiVersion: `${API_GROUP}/${API_VERSION}`,
      kind: NODE_VALIDATION_KIND,
      metadata: {
        name,
        labels: { [`${ctx.keys.prefix}/node`]: name },
        // Garbage-collected with its Node.
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
      },
      spec: { nodeName: name },
      status: { ...content, probedAt: observation.probedAt.toISOString(), lastTransitionAt: stamp, heartbeatAt: stamp },
    };
    await api.createNodeValidation(object);
    return now;
  }
  const lastHeartbeat = published?.heartbeatAt ? new Date(published.heartbeatAt) : undefined;
  const changes = changedFields(content, published);
  const changed = changes.length > 0;
  if (!changed && !heartbeatDue) return lastHeartbeat;
  if (changed) ctx.log.info({ decision: 'report', changed: changes }, 'updating the NodeValidation');
  const transitioned = published?.ready !== content.ready || published?.tier !== content.tier;
  if (changed) {
    await api.patchNodeValidationStatus(
      {
        ...content,
        probedAt: observation.probedAt.toISOString(),
        heartbeatAt: stamp,
        lastTransitionAt: transitioned || !published?.lastTransitionAt ? stamp : published.lastTransitionAt,
      },
      true,
    );
  } else {
    await api.patchNodeValidationStatus({ probedAt: observation.probedAt.toISOString(), heartbeatAt: stamp }, false);
  }
  return now;
}
