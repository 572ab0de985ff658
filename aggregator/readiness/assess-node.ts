import type { NodeModel } from '../model/node.ts';
import type { NodeReport, ReportCheck, ReportParse } from '../../core/report/read.ts';
import { clip } from '../../core/untrusted.ts';
import { attributionProblem } from './attribution.ts';
import type { NodeReadiness, NodeState, UnknownCause } from '../documents/readiness.ts';

/**
 * A node with what the gate checks need: its readiness, the Node, and its attributed report.
 * `readiness.heartbeatAgeSeconds` and `readiness.migrationTargets` are null here: the age moves
 * with the clock and the targets need every node, so summariseReadiness fills both in, and an
 * assessment stays valid (and is kept, cluster-readiness.ts) while the node's objects and its
 * freshness do not change.
 */
export interface AssessedNode {
  node: NodeModel;
  readiness: NodeReadiness;
  /** The node's own valid report (fresh or stale); null when missing, invalid or forged. */
  report: NodeReport | null;
}

export interface AssessOptions {
  staleAfterSeconds: number;
  /** The label prefix, for the cpu-vendor label fallback. */
  prefix: string;
  /** Evaluation time, epoch milliseconds. */
  nowMs: number;
}

/**
 * One node's readiness from its Node and the reports named after it. Pure.
 * A heartbeat further in the future than the stale limit is treated as invalid (a clock that far
 * off, or a report written to stay fresh forever).
 */
export function assessNode(node: NodeModel, reports: readonly ReportParse[], options: AssessOptions): AssessedNode {
  if (reports.length === 0) return unknown(node, null, 'missing', 'no NodeValidation report: is the virtgate agent running on this node?');
  if (reports.length > 1) return unknown(node, null, 'duplicate', `${reports.length} reports claim this node; none is trusted`);
  const [parse] = reports as [ReportParse];
  if (parse.state === 'invalid') return unknown(node, null, 'invalid', `report is invalid: ${parse.reason}`);
  const report = parse.report;
  const problem = attributionProblem(report, node);
  if (problem !== null) return unknown(node, null, 'forged', `report ignored: ${problem}`);

  const ageSeconds = heartbeatAgeSeconds(report, options.nowMs);
  if (ageSeconds < -options.staleAfterSeconds) {
    return unknown(node, null, 'invalid', `report ignored: heartbeatAt ${report.heartbeatAt} is ${-ageSeconds}s in the future`);
  }
  if (ageSeconds > options.staleAfterSeconds) {
    return unknown(node, report, 'stale', `report is stale: last heartbeat ${formatAge(ageSeconds)} ago (limit ${formatAge(options.staleAfterSeconds)})`);
  }
  const { state, reason } = stateOf(node, report);
  return { node, report, readiness: readinessOf(node, report, state, reason, null, options.prefix) };

  function unknown(node: NodeModel, report: NodeReport | null, cause: UnknownCause, reason: string): AssessedNode {
    return { node, report, readiness: readinessOf(node, report, 'unknown', reason, cause, options.prefix) };
  }
}

/** Seconds from the report's heartbeat to `nowMs` (negative: in the future). */
export function heartbeatAgeSeconds(report: NodeReport, nowMs: number): number {
  return Math.round((nowMs - report.heartbeatMs) / 1000);
}

/**
 * Whether `assessNode` would give the same answer at `nowMs` as when `assessed` was made from the
 * same objects: its state does not depend on the clock (no report, duplicates, forged) or the
 * report is still fresh. A stale report's reason names its age and an invalid one may be a
 * heartbeat in the future, so neither is reused (both are rare).
 */
export function stillValidAt(assessed: AssessedNode, options: Pick<AssessOptions, 'staleAfterSeconds' | 'nowMs'>): boolean {
  const { report, readiness } = assessed;
  if (readiness.unknownCause === 'stale' || readiness.unknownCause === 'invalid') return false;
  if (report === null) return true;
  const age = heartbeatAgeSeconds(report, options.nowMs);
  return age >= -options.staleAfterSeconds && age <= options.staleAfterSeconds;
}

function stateOf(node: NodeModel, report: NodeReport): { state: NodeState; reason: string } {
  // The kubelet knows sooner than the heartbeat goes stale that the node is gone.
  const kubelet = node.conditions.find((condition) => condition.type === 'Ready');
  if (kubelet && kubelet.status !== 'True' && report.ready) {
    return { state: 'not-ready', reason: `the agent reports ready, but the kubelet's Ready condition is ${clip(kubelet.status, 16)}` };
  }
  if (!report.ready) {
    const failing = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
    const why = failing.length > 0 ? `failing: ${failing.slice(0, 5).join(', ')}` : `tier ${report.tier}`;
    return { state: 'not-ready', reason: `not ready (${why})` };
  }
  switch (report.tier) {
    case 'hardware':
      return { state: 'ready', reason: 'ready: KVM acceleration' };
    case 'emulation':
      return { state: 'emulation', reason: 'ready for emulation only (no usable KVM; needs KubeVirt useEmulation, slow)' };
    case 'none':
      return { state: 'not-ready', reason: 'report says ready at tier none, which cannot run VMs' };
  }
}

function readinessOf(
  node: NodeModel,
  report: NodeReport | null,
  state: NodeState,
  reason: string,
  unknownCause: UnknownCause | null,
  prefix: string,
): NodeReadiness {
  return {
    name: node.name,
    state,
    reason,
    unknownCause,
    tier: report?.tier ?? null,
    cpuVendor: report?.cpuVendor ?? labelVendor(node, prefix),
    kernel: report?.kernel ?? (node.kernelVersion === null ? null : clip(node.kernelVersion, 64)),
    containerRuntime: node.containerRuntimeVersion === null ? null : clip(node.containerRuntimeVersion, 100),
    heartbeatAt: report?.heartbeatAt ?? null,
    // Both filled in by summariseReadiness (see AssessedNode).
    heartbeatAgeSeconds: null,
    agentVersion: report?.agentVersion ?? null,
    failingChecks: report === null ? [] : failingChecks(report.checks),
    migrationTargets: null,
    inventory: report?.inventory ?? null,
    confidential: report?.confidential ? STRONGEST_FIRST.filter((kind) => report.confidential?.[kind].available === true) : null,
    unreadFields: report && report.unreadFields.length > 0 ? [...report.unreadFields] : NONE,
  };
}

/** No unread fields: one shared empty list rather than one per node (documents are serialised, never edited). */
const NONE: string[] = [];

/** SEV-SNP ⊃ SEV-ES ⊃ SEV on AMD; TDX on Intel. */
const STRONGEST_FIRST = ['sev-snp', 'tdx', 'sev-es', 'sev'] as const;

const MAX_FAILING_LISTED = 20;

/** The first MAX_FAILING_LISTED checks that did not pass, in one pass (this runs for every node on every recompute). */
function failingChecks(checks: readonly ReportCheck[]): ReportCheck[] {
  const failing: ReportCheck[] = [];
  for (const check of checks) {
    if (check.status === 'pass' || check.status === 'skip') continue;
    failing.push(check);
    if (failing.length === MAX_FAILING_LISTED) break;
  }
  return failing;
}

/** The agent's `<prefix>/cpu-vendor` label, when the report has no CPU facts. */
function labelVendor(node: NodeModel, prefix: string): string | null {
  const value = node.labels[`${prefix}/cpu-vendor`];
  return value === undefined ? null : clip(value.toLowerCase(), 63);
}

function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
