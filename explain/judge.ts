import { hostDeviceAnswer } from '../aggregator/gate/host-devices.ts';
import type { PermittedHostDevice } from '../aggregator/model/permitted-host-devices.ts';
import type { WorkloadPlacement } from '../aggregator/model/placement.ts';
import { matchesRequiredTerms } from '../aggregator/placement/node-selector.ts';
import { placementSelects } from '../aggregator/placement/select-nodes.ts';
import { hasUntoleratedTaint, untoleratedTaints } from '../aggregator/placement/tolerations.ts';
import { TIER_CHECKS } from '../core/checks/evaluate.ts';
import type { NodeReport, ReportCheck } from '../core/report/read.ts';
import { clip } from '../core/untrusted.ts';
import type { NodeView } from './node-view.ts';
import { formatBytes, formatCpu } from './quantity.ts';
import { KUBEVIRT_DEVICE, type Requirement } from './requirements.ts';

/**
 * Whether a node meets each requirement of a virt-launcher pod and, where it does not, why, in
 * virtgate's own evidence: the node's report (its checks, their hints, its CPU features,
 * confidential kinds and passthrough inventory) and its readiness. Pure.
 */
export interface Failure {
  requirement: string;
  /** The same for every node that fails the same way: nodes are grouped by requirement and cause. */
  cause: string;
  /** This node's own figures and readings. */
  detail: string;
  /** What to do, when virtgate knows (a check's hint). */
  remedy: string | null;
}

export interface NodeJudgement {
  node: string;
  fits: boolean;
  /** Every requirement the node fails, in requirement order: the first is its reason. */
  failures: Failure[];
}

export interface JudgeContext {
  /** The label prefix virtgate writes under (`virtgate.io`). */
  prefix: string;
  /** KubeVirt's spec.workloads.nodePlacement: where virt-handler runs; null when no KubeVirt CR was read. */
  workloadsPlacement: WorkloadPlacement | null;
  permittedHostDevices: readonly PermittedHostDevice[];
}

/** Every pod gets these from the DefaultTolerationSeconds admission plugin (for 300 s). */
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', value: '', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', value: '', effect: 'NoExecute' },
];

/** virtgate's check behind each device KubeVirt's device plugins advertise, in the order of cause. */
const DEVICE_CHECKS: Record<string, readonly string[]> = {
  [`${KUBEVIRT_DEVICE}kvm`]: ['cpu.virtualization', 'dev.kvm', 'kvm.run', 'kernel.modules'],
  [`${KUBEVIRT_DEVICE}tun`]: ['dev.tun'],
  [`${KUBEVIRT_DEVICE}vhost-net`]: ['dev.vhost-net'],
};

/** `firstOnly`: stop at the first unmet requirement (enough to group nodes; a tenth of the cost at 5,000 nodes). */
export function judgeNode(view: NodeView, requirements: readonly Requirement[], context: JudgeContext, firstOnly = false): NodeJudgement {
  const failures: Failure[] = [];
  for (const requirement of requirements) {
    const failure = judge(view, requirement, context);
    if (failure === null) continue;
    failures.push({ requirement: requirement.id, ...failure });
    if (firstOnly) break;
  }
  return { node: view.node.name, fits: failures.length === 0, failures };
}

type Verdict = Omit<Failure, 'requirement'> | null;

function judge(view: NodeView, requirement: Requirement, context: JudgeContext): Verdict {
  const { labels } = view.node;
  switch (requirement.kind) {
    case 'label': {
      if (labels[requirement.key] === requirement.value) return null;
      return labelFailure(view, requirement, context);
    }
    case 'label-absent': {
      if (!Object.hasOwn(labels, requirement.key)) return null;
      if (requirement.source === 'host-model') {
        return { cause: "libvirt calls this node's host CPU model obsolete (node-labeller.kubevirt.io/obsolete-host-model)", detail: hostModelText(labels), remedy: 'give the VMI a named CPU model the node offers, or use host-passthrough' };
      }
      const feature = requirement.key.slice(requirement.key.lastIndexOf('/') + 1);
      return { cause: `the CPU has ${feature}, which the VMI forbids`, detail: `${requirement.key}=${labels[requirement.key]}`, remedy: null };
    }
    case 'affinity':
      return matchesRequiredTerms(view.node, requirement.terms) ? null : { cause: "no term of the VMI's required node affinity matches", detail: `labels: ${labelSample(labels)}`, remedy: null };
    case 'resource':
      return resourceFailure(view, requirement, context);
    case 'tolerations':
      return taintFailure(view, requirement.tolerations, context);
  }
}

function labelFailure(view: NodeView, requirement: Extract<Requirement, { kind: 'label' }>, context: JudgeContext): Verdict {
  const { labels } = view.node;
  const actual = labels[requirement.key];
  const has = actual === undefined ? `${requirement.key} absent` : `${requirement.key}=${clip(actual, 63)}`;
  const report = view.assessed.report;
  switch (requirement.source) {
    case 'virt-handler':
      return virtHandlerFailure(view, has, context);
    case 'cpu-model': {
      const model = requirement.key.slice(requirement.key.lastIndexOf('/') + 1);
      const offered = suffixes(labels, 'cpu-model.node.kubevirt.io/');
      if (offered.length === 0) return { cause: `cpu-model ${model}: the node has no cpu-model labels`, detail: "KubeVirt's node-labeller labels no named CPU model here (none under useEmulation, as seen on KubeVirt v1.9.0, or none while virt-handler does not run here)", remedy: 'use host-model, or a node whose KubeVirt runs with hardware virtualization' };
      return { cause: `cpu-model ${model}: not offered by this node's CPU`, detail: `offers ${listed(offered, 8)}; ${hostModelText(labels)}`, remedy: 'pick a model every target node offers, or use host-model' };
    }
    case 'cpu-feature':
    case 'migration-cpu': {
      const feature = requirement.key.slice(requirement.key.lastIndexOf('/') + 1);
      if (requirement.key.startsWith('cpu-model-migration.node.kubevirt.io/')) {
        return { cause: `host model ${feature}: this node cannot take it as a migration target`, detail: `${hostModelText(labels)}; supports ${listed(suffixes(labels, 'cpu-model-migration.node.kubevirt.io/'), 6)}`, remedy: null };
      }
      const features = report?.cpuFeatures ?? null;
      const reading =
        features === null
          ? 'virtgate has no CPU feature reading for it'
          : features.includes(feature)
            ? `virtgate reads ${feature} in the host's CPU flags, but KubeVirt's node-labeller has not labelled it`
            : `absent from the host's CPU flags (virtgate's report${report?.cpuVendor ? `, ${report.cpuVendor} CPU` : ''})`;
      return { cause: `CPU feature ${feature} missing`, detail: reading, remedy: null };
    }
    case 'dedicated-cpu':
      return { cause: 'no kubevirt.io/cpumanager: the kubelet does not run the static CPU manager policy', detail: has, remedy: 'set the kubelet\'s cpuManagerPolicy to static on the nodes for dedicated-CPU VMs' };
    case 'machine-type':
      return { cause: `machine type ${requirement.key.slice(requirement.key.lastIndexOf('/') + 1)} not supported here`, detail: `supports ${listed(suffixes(labels, 'machine-type.node.kubevirt.io/'), 6)}`, remedy: null };
    case 'tsc-frequency':
      return { cause: "the VMI's TSC frequency is not offered here", detail: has, remedy: null };
    case 'realtime':
      return { cause: 'not a realtime node (kubevirt.io/realtime)', detail: has, remedy: null };
    case 'sev':
    case 'sev-es':
    case 'sev-snp':
    case 'tdx': {
      const kind = requirement.source;
      const reading = report?.confidential?.[kind];
      if (!reading) return { cause: `${kind}: not labelled by KubeVirt`, detail: `${has}; virtgate has no confidential-guest reading for this node`, remedy: null };
      if (!reading.available) return { cause: `${kind}: unavailable on this host`, detail: reading.reason ?? 'virtgate finds it unavailable', remedy: confidentialCheck(report?.checks)?.hint ?? null };
      return { cause: `${kind}: available on the host, but KubeVirt has not labelled it`, detail: `${has}; is the ${kind === 'tdx' ? 'WorkloadEncryptionTDX' : 'WorkloadEncryptionSEV'} feature gate on, and virt-handler running here?`, remedy: null };
    }
    default:
      return { cause: `${requirement.text} not on the node`, detail: has, remedy: null };
  }
}

/** No kubevirt.io/schedulable=true: virt-handler does not run here, or has not (re)started. Why, from virtgate's side. */
function virtHandlerFailure(view: NodeView, has: string, context: JudgeContext): Verdict {
  const { readiness, report } = view.assessed;
  const readyLabel = `${context.prefix}/ready`;
  if (readiness.state === 'not-ready') {
    const check = whyNotReady(report);
    return {
      cause: `no virt-handler here: ${readyLabel}=false${check ? ` (${check.id}: ${check.status})` : ''}`,
      detail: check ? check.message : readiness.reason,
      remedy: check?.hint ?? null,
    };
  }
  if (readiness.state === 'unknown') {
    return { cause: `no virt-handler here, and virtgate has no current report (${readiness.unknownCause ?? 'unknown'})`, detail: readiness.reason, remedy: 'see that the virtgate agent runs on the node' };
  }
  const placement = context.workloadsPlacement;
  if (placement !== null && placement.state === 'valid' && !placementSelects(placement, view.node)) {
    return { cause: "no virt-handler here: KubeVirt's spec.workloads.nodePlacement does not select the node", detail: `${has}; virtgate finds it ${readiness.state}`, remedy: `label it ${readyLabel}=true through virtgate, or widen the placement` };
  }
  return { cause: 'virt-handler is not serving this node', detail: `${has} although virtgate finds it ${readiness.state}: virt-handler is starting, crashing, or its heartbeat is late`, remedy: 'kubectl -n kubevirt get pods -l kubevirt.io=virt-handler -o wide' };
}

function resourceFailure(view: NodeView, requirement: Extract<Requirement, { kind: 'resource' }>, context: JudgeContext): Verdict {
  const name = requirement.resource;
  const allocatable = view.allocatable[name] ?? 0;
  const used = view.requested?.[name] ?? 0;
  const free = allocatable - used;
  // In thousandths, rounded: sums of decimal CPU amounts are not exact in binary (4 - 3.9 - 0.1 > 0).
  if (Math.round(free * 1000) >= Math.round(requirement.amount * 1000)) return null;
  const show = (amount: number) => (name === 'cpu' ? formatCpu(amount) : name === 'memory' || name.startsWith('hugepages-') ? formatBytes(amount) : String(amount));
  const usage = view.requested === null ? `${show(allocatable)} allocatable (pods not counted: they could not be listed)` : `${show(Math.max(free, 0))} free of ${show(allocatable)}`;
  if (allocatable > 0) return { cause: `insufficient ${name}`, detail: `${requirement.shown} needed, ${usage}`, remedy: null };
  // None at all: say why the node has none.
  const report = view.assessed.report;
  const checks = DEVICE_CHECKS[name];
  if (checks) {
    const check = firstFailing((report?.checks ?? []).filter((candidate) => checks.includes(candidate.id)), checks);
    const short = name.slice(KUBEVIRT_DEVICE.length);
    if (check) return { cause: `${short}: 0 because ${check.id} ${check.status}s`, detail: check.message, remedy: check.hint ?? null };
    if (report === null) return { cause: `${short}: 0 advertised, and virtgate has no report for the node`, detail: view.assessed.readiness.reason, remedy: null };
    return { cause: `${short}: 0 advertised, though virtgate finds the device usable`, detail: "virt-handler's device plugin does not serve it here (no virt-handler, or it is starting)", remedy: null };
  }
  if (name.startsWith('hugepages-')) {
    const check = report?.checks.find((candidate) => candidate.id === 'hugepages');
    return { cause: `${name}: none reserved`, detail: check ? check.message : `${name} allocatable 0`, remedy: check?.hint ?? `reserve ${name.slice('hugepages-'.length)} pages on the kernel command line (hugepagesz=, hugepages=)` };
  }
  if (requirement.source === 'gpu' || requirement.source === 'host-device') {
    const entry = context.permittedHostDevices.find((candidate) => candidate.resourceName === name);
    if (!entry) return { cause: `${name}: not in KubeVirt's permittedHostDevices`, detail: "with permittedHostDevices set, virt-controller makes no pod for a VMI that asks for it (\"not permitted in permittedHostDevices configuration\")", remedy: 'add it to spec.configuration.permittedHostDevices of the KubeVirt CR' };
    const answer = hostDeviceAnswer(entry, report?.hostDevices ?? null);
    return { cause: `${name}: none advertised`, detail: answer.reason ?? `${answer.devices} vfio-ready on the host, but KubeVirt's device plugin advertises none`, remedy: null };
  }
  if (name === `${KUBEVIRT_DEVICE}sev` || name === `${KUBEVIRT_DEVICE}tdx`) {
    const kind = name === `${KUBEVIRT_DEVICE}sev` ? 'sev' : 'tdx';
    const reading = report?.confidential?.[kind];
    return { cause: `${kind}: no device advertised`, detail: reading?.available === false ? (reading.reason ?? 'unavailable') : `${name} allocatable 0`, remedy: null };
  }
  return { cause: `${name}: none on this node`, detail: `${name} allocatable 0`, remedy: null };
}

type Tolerations = Extract<Requirement, { kind: 'tolerations' }>['tolerations'];

/** A VMI's tolerations with the ones every pod gets, built once per requirement, not once per node. */
const withDefaults = new WeakMap<Tolerations, Tolerations>();

function taintFailure(view: NodeView, tolerations: Tolerations, context: JudgeContext): Verdict {
  let all = withDefaults.get(tolerations);
  if (!all) {
    all = [...tolerations, ...DEFAULT_TOLERATIONS];
    withDefaults.set(tolerations, all);
  }
  if (!view.unschedulable && !hasUntoleratedTaint(view.node.taints, all)) return null;
  if (view.unschedulable && !all.some((toleration) => (toleration.key === 'node.kubernetes.io/unschedulable' || (toleration.key === '' && toleration.operator === 'Exists')) && (toleration.effect === '' || toleration.effect === 'NoSchedule'))) {
    return { cause: 'cordoned (spec.unschedulable)', detail: 'kubectl uncordon, once the node is fit', remedy: null };
  }
  const [taint] = untoleratedTaints(view.node.taints, all);
  if (!taint) return null;
  const text = `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
  if (taint.key.startsWith(`${context.prefix}/`)) {
    const check = whyNotReady(view.assessed.report);
    return { cause: `taint ${text}: virtgate's not-ready taint`, detail: check ? `${check.id}: ${check.message}` : view.assessed.readiness.reason, remedy: check?.hint ?? null };
  }
  return { cause: `taint ${text} not tolerated`, detail: `${view.node.taints.length} taint(s) on the node`, remedy: null };
}

/** kvm.run fails whenever dev.kvm does (it follows from it): on its own it never says why a node is not ready. */
const FOLLOWS_THE_TIER = new Set<string>([...TIER_CHECKS, 'kvm.run']);

/**
 * The check that kept the node from ready, as the agent's verdict decides it (core/checks/evaluate.ts
 * decide): at tier none, dev.tun; otherwise a failing check outside the tier's own (those only lower
 * the tier: under useEmulation a host without VT-x is ready), else the failing tier check (KVM
 * missing where emulation is not allowed).
 */
function whyNotReady(report: NodeReport | null): ReportCheck | null {
  const failing = (report?.checks ?? []).filter((check) => check.status === 'fail');
  if (report?.tier === 'none') {
    const tun = failing.find((check) => check.id === 'dev.tun');
    if (tun) return tun;
  }
  return failing.find((check) => !FOLLOWS_THE_TIER.has(check.id)) ?? failing.find((check) => TIER_CHECKS.includes(check.id as (typeof TIER_CHECKS)[number])) ?? firstFailing(report?.checks ?? []);
}

const FAILING_ORDER = { fail: 0, error: 1, warn: 2, skip: 3, pass: 4 } as const;

/** The worst check, first in the given order among equals. */
function firstFailing(checks: readonly ReportCheck[], order?: readonly string[]): ReportCheck | null {
  const ranked = checks
    .filter((check) => check.status === 'fail' || check.status === 'error')
    .sort((a, b) => FAILING_ORDER[a.status] - FAILING_ORDER[b.status] || (order ? order.indexOf(a.id) - order.indexOf(b.id) : 0));
  return ranked[0] ?? null;
}

function confidentialCheck(checks: readonly ReportCheck[] | undefined): ReportCheck | null {
  return checks?.find((check) => check.id === 'confidential') ?? null;
}

function suffixes(labels: Readonly<Record<string, string>>, prefix: string): string[] {
  return Object.keys(labels)
    .filter((key) => key.startsWith(prefix) && labels[key] === 'true')
    .map((key) => key.slice(prefix.length))
    .sort();
}

function hostModelText(labels: Readonly<Record<string, string>>): string {
  const [model] = suffixes(labels, 'host-model-cpu.node.kubevirt.io/');
  return model ? `host model ${model}` : 'no host-model label';
}

function listed(items: readonly string[], max: number): string {
  if (items.length === 0) return 'none';
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

function labelSample(labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels).sort();
  return listed(keys.slice(0, 200).map((key) => `${key}=${clip(labels[key] ?? '', 40)}`), 5);
}
