import type { JsonObject } from '../../../core/json.ts';
import type { GateConfig } from '../../model/config.ts';
import type { VmiSummary } from '../../model/vmi.ts';
import { clip } from '../../../core/untrusted.ts';
import { canRunVms } from '../../readiness/sort.ts';
import type { AssessedNode } from '../../readiness/assess-node.ts';
import type { ClusterReadiness } from '../../documents/readiness.ts';
import { firstFew, nameList, plural } from '../evidence.ts';
import type { MigrationPlan } from '../migration.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';

/** "Ready" below means able to take VMs: state ready or emulation (see documents/readiness.ts). */

/** nodes.min-ready: fewer than minReady ready nodes → fail (live migration needs two). */
export function checkMinReady(nodes: readonly AssessedNode[], config: Pick<GateConfig, 'minReady'>): Finding {
  const ready = nodes.filter((item) => canRunVms(item.readiness.state));
  const emulation = ready.filter((item) => item.readiness.state === 'emulation').length;
  const evidence = { ready: ready.length, emulation, total: nodes.length, minReady: config.minReady };
  const detail = emulation > 0 ? ` (${emulation} of them emulation only)` : '';
  if (ready.length < config.minReady) {
    return {
      status: 'fail',
      message: `${plural(ready.length, 'ready node')} of ${nodes.length}${detail}; at least ${config.minReady} needed (a VM can only live-migrate to another ready node)`,
      evidence,
    };
  }
  return { status: 'pass', message: `${plural(ready.length, 'ready node')} of ${nodes.length}${detail}`, evidence };
}

/** containerd://… and cri-o://… are the runtimes KubeVirt supports. */
const SUPPORTED_RUNTIMES = new Set(['containerd', 'cri-o']);

/** nodes.runtime (every node): a runtime other than containerd or CRI-O → fail; unreported → unknown. */
export function checkRuntime(nodes: readonly AssessedNode[]): Finding {
  if (nodes.length === 0) return { status: 'unknown', message: 'no nodes to check', evidence: { nodes: 0 } };
  const byRuntime = new Map<string, number>();
  const unsupported: string[] = [];
  const unreported: string[] = [];
  for (const { node } of nodes) {
    const runtime = node.containerRuntimeVersion;
    if (runtime === null || runtime === '') {
      unreported.push(node.name);
      continue;
    }
    const name = runtime.includes('://') ? runtime.slice(0, runtime.indexOf('://')) : runtime;
    const key = SUPPORTED_RUNTIMES.has(name) ? name : clip(name, 30);
    if (byRuntime.size < 20 || byRuntime.has(key)) byRuntime.set(key, (byRuntime.get(key) ?? 0) + 1);
    if (!SUPPORTED_RUNTIMES.has(name)) unsupported.push(`${node.name} (${clip(runtime, 40)})`);
  }
  const evidence: JsonObject = { byRuntime: Object.fromEntries(byRuntime), unsupported: firstFew(unsupported), unreported: firstFew(unreported) };
  if (unsupported.length > 0) {
    return { status: 'fail', message: `KubeVirt needs containerd or CRI-O; ${plural(unsupported.length, 'node runs', 'nodes run')} another runtime: ${nameList(unsupported)}`, evidence };
  }
  if (unreported.length > 0) {
    return { status: 'unknown', message: `${plural(unreported.length, 'node does', 'nodes do')} not report a container runtime: ${nameList(unreported)}`, evidence };
  }
  return { status: 'pass', message: `every node runs ${[...byRuntime.keys()].join(' or ')}`, evidence };
}

/**
 * nodes.migration-pairs: every ready node has a live-migration target (gate/migration.ts) → pass;
 * otherwise warn, naming each stranded node and what it lacks a partner for, and — where
 * KubeVirt's VMIs are read — how many running VMs must live-migrate when it is drained
 * (model/vmi.ts mustLiveMigrate): KubeVirt refuses their eviction until a migration moves them, so
 * the drain cannot finish. The evidence also holds every node's drain figure (`liveMigrateOnDrain`),
 * stranded or not: how many running VMs a drain of it makes KubeVirt live-migrate.
 */
export function checkMigrationPairs(plan: MigrationPlan, vmis: VmiSummary): Finding {
  const vmisOn = (name: string): number | null => (vmis.state === 'listed' ? (vmis.liveMigrateByNode.get(name) ?? 0) : null);
  const stranded = plan.stranded.map((node) => {
    const count = vmisOn(node.name);
    const drain = count !== null && count > 0 ? `; a drain of ${node.name} would wait on ${plural(count, 'running VM')} that must live-migrate (evictionStrategy LiveMigrate)` : '';
    return { node, count, line: `${node.name} (${node.vendor ?? 'unknown vendor'}): ${node.lacks}${drain}` };
  });
  const atRisk = stranded.reduce((sum, item) => sum + (item.count ?? 0), 0);
  const evidence: JsonObject = {
    readyNodes: plan.nodes.length,
    strandedNodes: plan.stranded.length,
    stranded: firstFew(stranded.map((item) => item.line), 10).map((line) => clip(line, 400)),
    featureSources: countBy(plan.nodes.map((node) => node.source ?? 'none')),
    unverified: firstFew(plan.nodes.filter((node) => node.unverifiedTargets > 0).map((node) => node.name)),
    vmis: vmis.state === 'listed' ? { state: 'listed', total: vmis.total, liveMigrateOnStranded: atRisk, ...drainFigures(vmis.liveMigrateByNode) } : vmis.state === 'crd-absent' ? { state: 'crd-absent' } : { state: 'unknown', reason: vmis.reason },
  };
  if (plan.nodes.length === 0) return { status: 'unknown', message: 'no ready nodes to pair', evidence };
  if (stranded.length === 0) {
    const fewest = plan.nodes.reduce((least, node) => Math.min(least, node.targetCount), Number.MAX_SAFE_INTEGER);
    const unverified = plan.nodes.filter((node) => node.unverifiedTargets > 0).length;
    const note = unverified > 0 ? `; CPU features unknown for some pairs of ${plural(unverified, 'node')}, compared by vendor and kernel only` : '';
    return { status: 'pass', message: `every ready node (${plan.nodes.length}) has a live-migration target (at least ${fewest})${note}`, evidence };
  }
  const vmNote = vmis.state === 'listed' ? ` ${plural(atRisk, 'running VM')} on them must live-migrate on a drain and cannot.` : '';
  return {
    status: 'warn',
    message: `${plural(stranded.length, 'ready node has', 'ready nodes have')} no live-migration target (${stranded.length === 1 ? 'its' : 'their'} VMs cannot move when ${stranded.length === 1 ? 'it is' : 'they are'} drained or upgraded): ${clip(stranded.slice(0, 3).map((item) => item.line).join('; '), 900)}${stranded.length > 3 ? ` (+${stranded.length - 3} more)` : ''}.${vmNote}`,
    evidence,
  };
}

/** Nodes whose drain would live-migrate VMs, most first (ties by name); at most this many are listed. */
const MAX_DRAIN_FIGURES = 20;

/** `liveMigrateOnDrain` (node → running VMs a drain of it live-migrates) and, beyond the listed nodes, `liveMigrateOnDrainUnlisted`. */
function drainFigures(byNode: ReadonlyMap<string, number>): JsonObject {
  const nodes = [...byNode].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const listed = nodes.slice(0, MAX_DRAIN_FIGURES);
  return {
    liveMigrateOnDrain: Object.fromEntries(listed.map(([name, count]) => [clip(name, 253), count])),
    ...(nodes.length > listed.length ? { liveMigrateOnDrainUnlisted: nodes.length - listed.length } : {}),
  };
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const KERNEL_USERLAND_CHECKS = new Set(['kernel.version', 'os.userland']);

/** nodes.kernel-userland: ready nodes whose report warns on kernel.version or os.userland → warn. */
export function checkKernelUserland(nodes: readonly AssessedNode[]): Finding {
  const warnings: string[] = [];
  let affected = 0;
  for (const item of nodes) {
    if (!canRunVms(item.readiness.state) || item.report === null) continue;
    // One pass, no intermediate list: this runs for every ready node on every recompute.
    let found = 0;
    for (const check of item.report.checks) {
      if (!KERNEL_USERLAND_CHECKS.has(check.id) || check.status !== 'warn') continue;
      found += 1;
      warnings.push(`${item.node.name}: ${check.id}: ${clip(check.message, 160)}`);
    }
    if (found > 0) affected += 1;
  }
  const evidence = { nodes: affected, warnings: firstFew(warnings).map((warning) => clip(warning, 300)) };
  if (affected > 0) {
    const first = warnings[0] ?? '';
    return {
      status: 'warn',
      message: `${plural(affected, 'ready node')} warn${affected === 1 ? 's' : ''} on the host kernel or userland (virt-launcher's Enterprise-Linux QEMU may mismatch; test live migration): ${clip(first, 200)}${warnings.length > 1 ? ` (+${warnings.length - 1} more)` : ''}`,
      evidence,
    };
  }
  return { status: 'pass', message: 'no ready node warns on kernel.version or os.userland', evidence };
}

/**
 * nodes.reports-fresh: nodes without a usable report (missing, stale, invalid, forged) → warn,
 * naming them and why; no node with a fresh report at all → fail.
 */
export function checkReportsFresh(nodes: readonly AssessedNode[], readiness: ClusterReadiness): Finding {
  const stale = nodes.filter((item) => item.readiness.state === 'unknown');
  const byCause: Record<string, number> = {};
  for (const item of stale) {
    const cause = item.readiness.unknownCause ?? 'missing';
    byCause[cause] = (byCause[cause] ?? 0) + 1;
  }
  const evidence: JsonObject = {
    nodes: nodes.length,
    fresh: nodes.length - stale.length,
    byCause,
    unusable: firstFew(stale.map((item) => `${item.node.name}: ${clip(item.readiness.reason, 120)}`)).map((line) => clip(line, 240)),
    orphanReports: readiness.ignored.orphanReportCount,
  };
  if (nodes.length === 0) return { status: 'fail', message: 'no nodes in the cluster snapshot', evidence };
  const names = nameList(stale.map((item) => `${item.node.name} (${item.readiness.unknownCause ?? 'missing'})`));
  if (stale.length === nodes.length) {
    return { status: 'fail', message: `no node has a fresh, valid virtgate report: ${names}; is the agent DaemonSet running?`, evidence };
  }
  if (stale.length > 0) {
    return { status: 'warn', message: `${plural(stale.length, 'node has', 'nodes have')} no fresh, valid report: ${names}`, evidence };
  }
  return { status: 'pass', message: `every node (${nodes.length}) has a fresh report`, evidence };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const minReadyRule = gateRule('nodes.min-ready', ({ nodes, config }: ClusterInputs) => checkMinReady(nodes, config));
export const runtimeRule = gateRule('nodes.runtime', ({ nodes }: ClusterInputs) => checkRuntime(nodes));
export const migrationPairsRule = gateRule('nodes.migration-pairs', ({ plan, model }: ClusterInputs) => checkMigrationPairs(plan, model.vmis));
export const kernelUserlandRule = gateRule('nodes.kernel-userland', ({ nodes }: ClusterInputs) => checkKernelUserland(nodes));
export const reportsFreshRule = gateRule('nodes.reports-fresh', ({ nodes, readiness }: ClusterInputs) => checkReportsFresh(nodes, readiness));
