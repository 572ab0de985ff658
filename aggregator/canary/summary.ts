import type { CanaryClass, CanaryResult, CanarySummary } from '../documents/canary.ts';
import type { NodeCanaryResult } from './results.ts';

/**
 * The canary's results per node class (vmBoot.nodeClass), for /api/v1/canary, the page and the
 * metrics. Pure: `now` only dates the ages. Per class: how many nodes last ran a canary VM for it,
 * the newest result (by runAt), its classFailedRuns, the latest lastSuccessAt over the class, and
 * the newest Booted result with its times. Worst first: most failed runs, then classes whose
 * newest result did not boot, then by name.
 */
export function summariseCanary(results: readonly NodeCanaryResult[], now: Date): CanarySummary {
  const byClass = new Map<string, NodeCanaryResult[]>();
  for (const result of results) {
    const members = byClass.get(result.vmBoot.nodeClass);
    if (members) members.push(result);
    else byClass.set(result.vmBoot.nodeClass, [result]);
  }
  const classes = [...byClass].map(([nodeClass, members]) => summariseClass(nodeClass, members, now.getTime()));
  classes.sort((a, b) => b.failedRuns - a.failedRuns || statusRank(a) - statusRank(b) || compareText(a.nodeClass, b.nodeClass));
  return { nodes: results.length, classes };
}

function summariseClass(nodeClass: string, members: readonly NodeCanaryResult[], nowMs: number): CanaryClass {
  let latest = members[0] as NodeCanaryResult;
  let lastBoot: NodeCanaryResult | null = null;
  let lastSuccessMs = Number.NEGATIVE_INFINITY;
  let lastSuccessAt: string | null = null;
  let booted = 0;
  for (const member of members) {
    if (newer(member, latest)) latest = member;
    if (member.vmBoot.reason === 'Booted') {
      booted += 1;
      if (lastBoot === null || newer(member, lastBoot)) lastBoot = member;
    }
    const successMs = member.vmBoot.lastSuccessAt === undefined ? Number.NaN : Date.parse(member.vmBoot.lastSuccessAt);
    if (successMs > lastSuccessMs) {
      lastSuccessMs = successMs;
      lastSuccessAt = member.vmBoot.lastSuccessAt ?? null;
    }
  }
  return {
    nodeClass,
    nodes: members.length,
    booted,
    latest: resultOf(latest, nowMs),
    failedRuns: latest.vmBoot.classFailedRuns,
    lastSuccessAt,
    lastBoot: lastBoot === null ? null : { node: lastBoot.node, runAt: lastBoot.vmBoot.runAt, seconds: lastBoot.vmBoot.seconds },
  };
}

function resultOf({ node, vmBoot }: NodeCanaryResult, nowMs: number): CanaryResult {
  return {
    node,
    status: vmBoot.status,
    reason: vmBoot.reason,
    message: vmBoot.message,
    runAt: vmBoot.runAt,
    ageSeconds: Math.round((nowMs - Date.parse(vmBoot.runAt)) / 1000),
    seconds: vmBoot.seconds,
  };
}

/** Later runAt first; of one run's results (one node per class per run, so rare), the node name decides. */
function newer(a: NodeCanaryResult, b: NodeCanaryResult): boolean {
  const difference = Date.parse(a.vmBoot.runAt) - Date.parse(b.vmBoot.runAt);
  return difference > 0 || (difference === 0 && a.node < b.node);
}

const statusRank = (entry: CanaryClass): number => (entry.latest.status === 'True' ? 1 : 0);

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
