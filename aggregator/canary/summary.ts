import type { CanaryClass, CanaryResult, CanarySummary } from '../documents/canary.ts';
import type { NodeCanaryResult } from './results.ts';

/**
 * The canary's results per node class (vmBoot.nodeClass), for /api/v1/canary, the page and the
 * metrics. Pure: `now` only dates the ages. Per class: how many nodes last ran a canary VM for it,
 * the newest result (by runAt), its classFailedRuns, the latest lastSuccessAt over the class, and
 * the newest Booted result with its times. Worst first: most failed runs, then classes whose
 * newest result did not boot, then by name. One pass, each time parsed once: it runs on every
 * recompute, over every node once the canary has visited them all.
 */
export function summariseCanary(results: readonly NodeCanaryResult[], now: Date): CanarySummary {
  const byClass = new Map<string, Accumulator>();
  for (const result of results) {
    const runMs = Date.parse(result.vmBoot.runAt);
    const successMs = result.vmBoot.lastSuccessAt === undefined ? Number.NaN : Date.parse(result.vmBoot.lastSuccessAt);
    const entry = byClass.get(result.vmBoot.nodeClass);
    if (!entry) {
      byClass.set(result.vmBoot.nodeClass, {
        nodes: 1,
        booted: result.vmBoot.reason === 'Booted' ? 1 : 0,
        latest: result,
        latestMs: runMs,
        lastBoot: result.vmBoot.reason === 'Booted' ? result : null,
        lastBootMs: runMs,
        lastSuccessAt: Number.isFinite(successMs) ? (result.vmBoot.lastSuccessAt ?? null) : null,
        lastSuccessMs: Number.isFinite(successMs) ? successMs : Number.NEGATIVE_INFINITY,
      });
      continue;
    }
    entry.nodes += 1;
    if (newer(result, runMs, entry.latest, entry.latestMs)) {
      entry.latest = result;
      entry.latestMs = runMs;
    }
    if (result.vmBoot.reason === 'Booted') {
      entry.booted += 1;
      if (entry.lastBoot === null || newer(result, runMs, entry.lastBoot, entry.lastBootMs)) {
        entry.lastBoot = result;
        entry.lastBootMs = runMs;
      }
    }
    if (successMs > entry.lastSuccessMs) {
      entry.lastSuccessMs = successMs;
      entry.lastSuccessAt = result.vmBoot.lastSuccessAt ?? null;
    }
  }
  const nowMs = now.getTime();
  const classes: CanaryClass[] = [];
  for (const [nodeClass, entry] of byClass) {
    classes.push({
      nodeClass,
      nodes: entry.nodes,
      booted: entry.booted,
      latest: resultOf(entry.latest, entry.latestMs, nowMs),
      failedRuns: entry.latest.vmBoot.classFailedRuns,
      lastSuccessAt: entry.lastSuccessAt,
      lastBoot: entry.lastBoot === null ? null : { node: entry.lastBoot.node, runAt: entry.lastBoot.vmBoot.runAt, seconds: entry.lastBoot.vmBoot.seconds },
    });
  }
  classes.sort((a, b) => b.failedRuns - a.failedRuns || statusRank(a) - statusRank(b) || compareText(a.nodeClass, b.nodeClass));
  return { nodes: results.length, classes };
}

interface Accumulator {
  nodes: number;
  booted: number;
  latest: NodeCanaryResult;
  latestMs: number;
  lastBoot: NodeCanaryResult | null;
  lastBootMs: number;
  lastSuccessAt: string | null;
  lastSuccessMs: number;
}

function resultOf({ node, vmBoot }: NodeCanaryResult, runMs: number, nowMs: number): CanaryResult {
  return {
    node,
    status: vmBoot.status,
    reason: vmBoot.reason,
    message: vmBoot.message,
    runAt: vmBoot.runAt,
    ageSeconds: Math.round((nowMs - runMs) / 1000),
    seconds: vmBoot.seconds,
  };
}

/** Later runAt first; of one run's results (one node per class per run, so rare), the node name decides. */
function newer(a: NodeCanaryResult, aMs: number, b: NodeCanaryResult, bMs: number): boolean {
  return aMs > bMs || (aMs === bMs && a.node < b.node);
}

const statusRank = (entry: CanaryClass): number => (entry.latest.status === 'True' ? 1 : 0);

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
