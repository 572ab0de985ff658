/**
 * NodeValidations as an agent on a host of a given kind would write them, for the bench's clusters
 * of thousands of nodes: the agent's own buildReport() and Ready condition over the example host's
 * facts, changed where the kind says, and evaluate()'s verdict of them. One evaluation per kind (cached), so a
 * cluster of 100,000 reports costs a lookup each.
 */
import { evaluate } from '../../../core/checks/evaluate.ts';
import { DEFAULT_POLICY } from '../../../core/checks/policy.ts';
import { exampleFacts, type HostFacts } from '../../../core/checks/registry.ts';
import type { CpuVendor } from '../../../core/checks/host/parse/cpuinfo.ts';
import { buildReport, type VerdictReport } from '../../../core/report/build.ts';
import type { NodeValidationStatus, TaintReport } from '../../../core/report/schema.ts';
import type { Tier, Verdict } from '../../../core/checks/verdict.ts';
import { type DesiredCondition, desiredCondition } from '../../../agent/desired/condition.ts';
import { statusContent } from '../../../agent/desired/report.ts';
import { holdVerdict } from '../../../agent/desired/verdict-hold.ts';

export interface HostKind {
  vendor?: CpuVendor;
  /** The kernel release, as `uname -r` prints it. */
  kernelRelease?: string;
  /** The guest-relevant CPU features, sorted. */
  features?: readonly string[];
  /** False: /dev/kvm is missing, so the node is not ready. */
  kvm?: boolean;
  /** False: /dev/net/tun is missing, so the node is not ready. */
  tun?: boolean;
}

/** The example host's facts, changed where the kind says (a fresh object each call). */
function hostFactsOf(kind: HostKind): HostFacts {
  const facts = exampleFacts('/');
  if (facts.cpu.state === 'ok') {
    const vendor = kind.vendor ?? facts.cpu.value.vendor;
    facts.cpu.value = { ...facts.cpu.value, vendor, vmx: vendor === 'intel', svm: vendor === 'amd', features: [...(kind.features ?? facts.cpu.value.features)] };
  }
  if (kind.kernelRelease) facts.kernelRelease = { state: 'ok', value: kind.kernelRelease };
  if (kind.kvm === false) facts.kvm = { path: 'dev/kvm', state: 'missing' };
  if (kind.tun === false) facts.tun = { path: 'dev/net/tun', state: 'missing' };
  return facts;
}

interface Built {
  facts: HostFacts;
  report: VerdictReport;
  condition: DesiredCondition;
}

const built = new Map<string, Built>();

/** buildReport()'s report for a host of this kind and its Ready condition (shared between calls: do not mutate). */
function builtFor(kind: HostKind): Built {
  const key = JSON.stringify(kind);
  let entry = built.get(key);
  if (!entry) {
    const facts = hostFactsOf(kind);
    const verdict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
    const effective = holdVerdict(verdict, undefined);
    const report = buildReport({ verdict, effective, facts, agentVersion: '0.1.0', taint: { policy: 'off', applied: false } });
    entry = { facts, report, condition: desiredCondition(verdict, effective) };
    built.set(key, entry);
  }
  return entry;
}

/** The facts a host of this kind probes as (shared between calls: do not mutate). */
export function agentHostFacts(kind: HostKind): HostFacts {
  return builtFor(kind).facts;
}

/** The status an agent writes first at `at`: the report, its conditions (agent/desired/report.ts) and timestamps. */
export function agentReportStatus(kind: HostKind, at: Date): NodeValidationStatus {
  const { report, condition } = builtFor(kind);
  const stamp = at.toISOString();
  return { ...statusContent(report, condition, 1, undefined, at), probedAt: stamp, lastTransitionAt: stamp, heartbeatAt: stamp };
}

// A type, not an interface: it must fit `Record<string, unknown>` bodies.
export type AgentNodeValidation = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion?: string; ownerReferences: Array<{ apiVersion: string; kind: string; name: string; uid: string }> };
  spec: { nodeName: string };
  status: NodeValidationStatus;
};

/** A whole NodeValidation for node `name` (uid: its Node's), as the API server would store it. */
export function agentNodeValidation(name: string, nodeUid: string, kind: HostKind, at: Date, resourceVersion?: string): AgentNodeValidation {
  return {
    apiVersion: 'virtgate.io/v1alpha1',
    kind: 'NodeValidation',
    metadata: { name, ...(resourceVersion ? { resourceVersion } : {}), ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: nodeUid }] },
    spec: { nodeName: name },
    status: agentReportStatus(kind, at),
  };
}

/** A verdict as a test states it, and the host details its report carries. */
export interface ScenarioVerdict {
  ready: boolean;
  tier: Tier;
  conclusive?: boolean;
  /** Any id and status: a reader's test may hand it a check no agent writes. */
  checks: ReadonlyArray<{ id: string; status: string; message: string }>;
  vendor?: CpuVendor;
  /** status.kernel, e.g. `6.8`: as the test states it (a reader's test may give one no agent writes, such as markup). */
  kernel?: string;
  /** status.cpuFeatures; absent when not given, as from an agent before the field. */
  cpuFeatures?: readonly string[];
  taint?: TaintReport;
}

/**
 * The report an agent on the example host publishes for this verdict. The confidential and
 * passthrough facts are left unknown, so those fields are absent unless a test adds them.
 */
export function scenarioVerdictReport(scenario: ScenarioVerdict): VerdictReport {
  const facts = hostFactsOf({
    ...(scenario.vendor ? { vendor: scenario.vendor } : {}),
    ...(scenario.kernel ? { kernelRelease: `${scenario.kernel}.0` } : {}),
    features: scenario.cpuFeatures ?? [],
  });
  facts.confidential = { state: 'unknown', reason: 'not part of the scenario' };
  facts.passthrough = { state: 'unknown', reason: 'not part of the scenario' };
  // A scenario may name checks by any id or status (a reader must cope with one it does not know).
  const verdict = { tier: scenario.tier, ready: scenario.ready, conclusive: scenario.conclusive ?? true, checks: scenario.checks.map((check) => ({ ...check })) } as Verdict;
  const { cpuFeatures, ...report } = buildReport({
    verdict,
    effective: { ready: scenario.ready, tier: scenario.tier },
    facts,
    agentVersion: '0.1.0',
    taint: scenario.taint ?? { policy: 'off', applied: false },
  });
  return {
    ...report,
    ...(scenario.kernel === undefined ? {} : { kernel: scenario.kernel }),
    ...(scenario.cpuFeatures && cpuFeatures ? { cpuFeatures } : {}),
  };
}
