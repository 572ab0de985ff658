import type { JsonObject } from '../../../core/json.ts';
import type { GateConfig } from '../../model/config.ts';
import { clip } from '../../model/untrusted.ts';
import { canRunVms } from '../../readiness/sort.ts';
import type { AssessedNode, ClusterReadiness } from '../../readiness/types.ts';
import { firstFew, nameList, plural } from '../evidence.ts';
import type { GateCheck } from '../types.ts';

/** "Ready" below means able to take VMs: state ready or emulation (see readiness/types.ts). */

/** nodes.min-ready: fewer than minReady ready nodes → fail (live migration needs two). */
export function checkMinReady(nodes: readonly AssessedNode[], config: Pick<GateConfig, 'minReady'>): GateCheck<'nodes.min-ready'> {
  const id = 'nodes.min-ready';
  const ready = nodes.filter((item) => canRunVms(item.readiness.state));
  const emulation = ready.filter((item) => item.readiness.state === 'emulation').length;
  const evidence = { ready: ready.length, emulation, total: nodes.length, minReady: config.minReady };
  const detail = emulation > 0 ? ` (${emulation} of them emulation only)` : '';
  if (ready.length < config.minReady) {
    return {
      id,
      status: 'fail',
      message: `${plural(ready.length, 'ready node')} of ${nodes.length}${detail}; at least ${config.minReady} needed (a VM can only live-migrate to another ready node)`,
      evidence,
    };
  }
  return { id, status: 'pass', message: `${plural(ready.length, 'ready node')} of ${nodes.length}${detail}`, evidence };
}

/** containerd://… and cri-o://… are the runtimes KubeVirt supports. */
const SUPPORTED_RUNTIMES = new Set(['containerd', 'cri-o']);

/** nodes.runtime (every node): a runtime other than containerd or CRI-O → fail; unreported → unknown. */
export function checkRuntime(nodes: readonly AssessedNode[]): GateCheck<'nodes.runtime'> {
  const id = 'nodes.runtime';
  if (nodes.length === 0) return { id, status: 'unknown', message: 'no nodes to check', evidence: { nodes: 0 } };
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
    return { id, status: 'fail', message: `KubeVirt needs containerd or CRI-O; ${plural(unsupported.length, 'node runs', 'nodes run')} another runtime: ${nameList(unsupported)}`, evidence };
  }
  if (unreported.length > 0) {
    return { id, status: 'unknown', message: `${plural(unreported.length, 'node does', 'nodes do')} not report a container runtime: ${nameList(unreported)}`, evidence };
  }
  return { id, status: 'pass', message: `every node runs ${[...byRuntime.keys()].join(' or ')}`, evidence };
}

/** Vendors whose CPUs can host each other's migrating VMs; "other" and unknown are not grouped. */
const KNOWN_VENDORS = new Set(['intel', 'amd', 'hygon', 'arm']);

/** nodes.migration-pairs: at least two ready nodes of one CPU vendor → pass, else warn. */
export function checkMigrationPairs(nodes: readonly AssessedNode[]): GateCheck<'nodes.migration-pairs'> {
  const id = 'nodes.migration-pairs';
  const byVendor: Record<string, number> = {};
  let unknownVendor = 0;
  for (const item of nodes) {
    if (!canRunVms(item.readiness.state)) continue;
    const vendor = item.readiness.cpuVendor;
    if (vendor !== null && KNOWN_VENDORS.has(vendor)) byVendor[vendor] = (byVendor[vendor] ?? 0) + 1;
    else unknownVendor += 1;
  }
  const pairs = Object.entries(byVendor).filter(([, count]) => count >= 2).map(([vendor]) => vendor);
  const evidence = { byVendor, unknownVendor };
  if (pairs.length > 0) return { id, status: 'pass', message: `live migration has a target: ready nodes share a CPU vendor (${pairs.join(', ')})`, evidence };
  return {
    id,
    status: 'warn',
    message: 'no two ready nodes share a CPU vendor: a VM cannot live-migrate (node drains and upgrades will stop VMs)',
    evidence,
  };
}

const KERNEL_USERLAND_CHECKS = new Set(['kernel.version', 'os.userland']);

/** nodes.kernel-userland: ready nodes whose report warns on kernel.version or os.userland → warn. */
export function checkKernelUserland(nodes: readonly AssessedNode[]): GateCheck<'nodes.kernel-userland'> {
  const id = 'nodes.kernel-userland';
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
      id,
      status: 'warn',
      message: `${plural(affected, 'ready node')} warn${affected === 1 ? 's' : ''} on the host kernel or userland (virt-launcher's Enterprise-Linux QEMU may mismatch; test live migration): ${clip(first, 200)}${warnings.length > 1 ? ` (+${warnings.length - 1} more)` : ''}`,
      evidence,
    };
  }
  return { id, status: 'pass', message: 'no ready node warns on kernel.version or os.userland', evidence };
}

/**
 * nodes.reports-fresh: nodes without a usable report (missing, stale, invalid, forged) → warn,
 * naming them and why; no node with a fresh report at all → fail.
 */
export function checkReportsFresh(nodes: readonly AssessedNode[], readiness: ClusterReadiness): GateCheck<'nodes.reports-fresh'> {
  const id = 'nodes.reports-fresh';
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
  if (nodes.length === 0) return { id, status: 'fail', message: 'no nodes in the cluster snapshot', evidence };
  const names = nameList(stale.map((item) => `${item.node.name} (${item.readiness.unknownCause ?? 'missing'})`));
  if (stale.length === nodes.length) {
    return { id, status: 'fail', message: `no node has a fresh, valid virtgate report: ${names}; is the agent DaemonSet running?`, evidence };
  }
  if (stale.length > 0) {
    return { id, status: 'warn', message: `${plural(stale.length, 'node has', 'nodes have')} no fresh, valid report: ${names}`, evidence };
  }
  return { id, status: 'pass', message: `every node (${nodes.length}) has a fresh report`, evidence };
}
