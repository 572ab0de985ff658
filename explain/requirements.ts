import type { NodeSelectorTerm, Toleration } from '../aggregator/model/placement.ts';
import type { KubeVirtPlacementConfig } from './kubevirt-config.ts';
import { formatBytes, formatCpu, parseQuantity } from './quantity.ts';
import type { VmiInput } from './vmi-input.ts';

/**
 * A VMI's virt-launcher pod's scheduling requirements, derived as KubeVirt v1.9.0 renders the pod
 * (kubevirt.io/kubevirt@v1.9.0):
 *  - pkg/virt-controller/services/nodeselectorrenderer.go: the nodeSelector (kubevirt.io/schedulable,
 *    the architecture, developerConfiguration.nodeSelectors, the VMI's nodeSelector, cpumanager,
 *    the CPU model and required features, machine type, TSC frequency, realtime, SEV/SEV-ES/SEV-SNP/TDX);
 *  - pkg/virt-controller/services/template.go (renderLaunchManifest, setNodeAffinityForPod): the
 *    VMI's affinity and tolerations, plus DoesNotExist on each forbidden feature and, for host-model,
 *    on node-labeller.kubevirt.io/obsolete-host-model;
 *  - pkg/virt-controller/services/renderresources.go (getRequiredResources, WithoutDedicatedCPU,
 *    WithCPUPinning, WithMemoryRequests, WithHugePages, WithGPUsDevicePlugins,
 *    WithHostDevicesDevicePlugins, WithSEV, WithTDX) and pkg/network/vmispec/devices.go: the
 *    resources, kvm unless useEmulation, tun, vhost-net for a virtio interface;
 *  - pkg/virt-controller/watch/migration/migration.go (prepareNodeSelectorForHostCpuModel): a
 *    host-model VMI's migration target needs the source's host CPU model and its required features.
 * The order is kube-scheduler's filters' (TaintToleration, NodeAffinity, NodeResourcesFit): the
 * first requirement a node fails is the reason the scheduler gives for that node, and then
 * virtgate says why.
 */

/** Why a requirement exists: the VMI field or the KubeVirt rule behind it. */
export const REQUIREMENT_SOURCES = [
  'virt-handler',
  'kvm',
  'tun',
  'vhost-net',
  'vhost-vsock',
  'architecture',
  'cluster-node-selectors',
  'vmi-node-selector',
  'vmi-affinity',
  'dedicated-cpu',
  'cpu-model',
  'cpu-feature',
  'cpu-feature-forbidden',
  'host-model',
  'migration-cpu',
  'machine-type',
  'tsc-frequency',
  'realtime',
  'sev',
  'sev-es',
  'sev-snp',
  'tdx',
  'hugepages',
  'gpu',
  'host-device',
  'cpu',
  'memory',
  'tolerations',
] as const;
export type RequirementSource = (typeof REQUIREMENT_SOURCES)[number];

interface RequirementBase {
  /** Stable within one answer; nodes are grouped by it. */
  id: string;
  source: RequirementSource;
  /** What is asked, for people: `kubevirt.io/schedulable=true`, `devices.kubevirt.io/kvm: 1`. */
  text: string;
  /** Why it is asked: the VMI field or the KubeVirt rule. */
  because: string;
}

export type Requirement =
  | (RequirementBase & { kind: 'label'; key: string; value: string })
  | (RequirementBase & { kind: 'label-absent'; key: string })
  | (RequirementBase & { kind: 'affinity'; terms: NodeSelectorTerm[] })
  | (RequirementBase & { kind: 'resource'; resource: string; amount: number; shown: string })
  | (RequirementBase & { kind: 'tolerations'; tolerations: Toleration[] });

export interface LauncherRequirements {
  requirements: Requirement[];
  /** What KubeVirt adds that is not judged here, said rather than guessed. */
  notes: string[];
}

export interface RequirementOptions {
  /** For a migration: the labels of the node the VMI runs on (host-model targets are derived from them). */
  migrationSourceLabels?: Readonly<Record<string, string>>;
  /**
   * What the VMI's virt-launcher pod, when KubeVirt has made one, requests (node-view.ts
   * podRequests): KubeVirt's own figures, its memory overhead included, replace the derived ones.
   */
  launcherRequests?: Readonly<Record<string, number>> | null;
}

const CPU_MODEL = 'cpu-model.node.kubevirt.io/';
const CPU_FEATURE = 'cpu-feature.node.kubevirt.io/';
const HOST_MODEL_CPU = 'host-model-cpu.node.kubevirt.io/';
const HOST_MODEL_REQUIRED = 'host-model-required-features.node.kubevirt.io/';
const MIGRATION_CPU = 'cpu-model-migration.node.kubevirt.io/';
const MACHINE_TYPE = 'machine-type.node.kubevirt.io/';
const OBSOLETE_HOST_MODEL = 'node-labeller.kubevirt.io/obsolete-host-model';
const TSC_SCHEDULING = 'scheduling.node.kubevirt.io/tsc-frequency';
export const KUBEVIRT_DEVICE = 'devices.kubevirt.io/';

const HOST_CPU_MODES = new Set(['host-model', 'host-passthrough']);

/** kube-scheduler's default filter order: NodeUnschedulable and TaintToleration, NodeAffinity, NodeResourcesFit. */
const FILTER_ORDER: Record<Requirement['kind'], number> = { tolerations: 0, label: 1, 'label-absent': 1, affinity: 1, resource: 2 };

export function launcherRequirements(vmi: VmiInput, config: KubeVirtPlacementConfig, options: RequirementOptions = {}): LauncherRequirements {
  const requirements: Requirement[] = [];
  const notes: string[] = [];
  const label = (source: RequirementSource, key: string, because: string, value = 'true') =>
    requirements.push({ kind: 'label', id: `label:${key}`, source, key, value, text: `${key}=${value}`, because });
  const absent = (source: RequirementSource, key: string, because: string) =>
    requirements.push({ kind: 'label-absent', id: `absent:${key}`, source, key, text: `no label ${key}`, because });
  const resource = (source: RequirementSource, name: string, amount: number, because: string, shown = String(amount)) =>
    requirements.push({ kind: 'resource', id: `resource:${name}`, source, resource: name, amount, shown, text: `${name}: ${shown}`, because });

  label('virt-handler', 'kubevirt.io/schedulable', 'every virt-launcher pod selects it; virt-handler sets it on the nodes it runs on');

  // getRequiredResources: the devices virt-handler's device plugins advertise.
  if (!config.useEmulation) resource('kvm', `${KUBEVIRT_DEVICE}kvm`, 1, 'hardware virtualization (KubeVirt useEmulation is off)');
  if (vmi.interfaces.length > 0 || vmi.autoattachPodInterface) resource('tun', `${KUBEVIRT_DEVICE}tun`, 1, 'the pod network interface');
  if (!config.useEmulation && vmi.interfaces.some((iface) => iface.model === 'virtio')) {
    resource('vhost-net', `${KUBEVIRT_DEVICE}vhost-net`, 1, 'a virtio network interface (in-kernel vhost-net)');
  }
  if (vmi.autoattachVsock) resource('vhost-vsock', `${KUBEVIRT_DEVICE}vhost-vsock`, 1, 'spec.domain.devices.autoattachVSOCK');

  // NewNodeSelectorRenderer: schedulable, the architecture, the cluster's selectors, then the VMI's (later wins).
  const selectors = new Map<string, { value: string; source: RequirementSource; because: string }>();
  if (vmi.architecture) selectors.set('kubernetes.io/arch', { value: vmi.architecture.toLowerCase(), source: 'architecture', because: "the VMI's architecture (spec.architecture, which KubeVirt defaults)" });
  for (const [key, value] of Object.entries(config.nodeSelectors)) selectors.set(key, { value, source: 'cluster-node-selectors', because: "KubeVirt's developerConfiguration.nodeSelectors" });
  for (const [key, value] of Object.entries(vmi.nodeSelector)) selectors.set(key, { value, source: 'vmi-node-selector', because: "the VMI's spec.nodeSelector" });
  selectors.delete('kubevirt.io/schedulable');
  for (const [key, { value, source, because }] of selectors) label(source, key, because, value);
  if (vmi.nodeSelector['kubevirt.io/schedulable'] !== undefined && vmi.nodeSelector['kubevirt.io/schedulable'] !== 'true') {
    notes.push(`the VMI's nodeSelector sets kubevirt.io/schedulable=${vmi.nodeSelector['kubevirt.io/schedulable']}, which KubeVirt keeps over its own "true"; judged as "true"`);
  }
  if (vmi.requiredTerms !== null) {
    requirements.push({ kind: 'affinity', id: 'affinity', source: 'vmi-affinity', terms: vmi.requiredTerms, text: 'required node affinity', because: "the VMI's spec.affinity.nodeAffinity" });
  }

  // Render(): the CPU.
  if (vmi.cpu.dedicated) label('dedicated-cpu', 'kubevirt.io/cpumanager', 'spec.domain.cpu.dedicatedCpuPlacement: the kubelet must run the static CPU manager policy');
  const namedModel = !HOST_CPU_MODES.has(vmi.cpu.model);
  if (namedModel) label('cpu-model', `${CPU_MODEL}${vmi.cpu.model}`, `CPU model ${vmi.cpu.model} (spec.domain.cpu.model)`);
  // The required features become selectors only with a named model (WithModelAndFeatureLabels).
  for (const feature of vmi.cpu.features) {
    if (feature.policy === 'require' && namedModel) label('cpu-feature', `${CPU_FEATURE}${feature.name}`, `CPU feature ${feature.name} required (spec.domain.cpu.features)`);
    if (feature.policy === 'forbid') absent('cpu-feature-forbidden', `${CPU_FEATURE}${feature.name}`, `CPU feature ${feature.name} forbidden (spec.domain.cpu.features)`);
  }
  if (vmi.cpu.model === 'host-model') absent('host-model', OBSOLETE_HOST_MODEL, "host-model: KubeVirt avoids nodes whose host CPU model libvirt calls obsolete");
  if (options.migrationSourceLabels && vmi.cpu.model === 'host-model') migrationCpu(options.migrationSourceLabels, label, notes);

  const machineType = vmi.status.machineType ?? vmi.machineType;
  if (machineType) label('machine-type', `${MACHINE_TYPE}${machineType}`, `machine type ${machineType} (${vmi.status.machineType ? 'status.machine.type' : 'spec.domain.machine.type'})`);
  if (vmi.status.tscFrequency !== null && vmi.status.tscFrequency > 0 && needsTsc(vmi)) {
    label('tsc-frequency', `${TSC_SCHEDULING}-${vmi.status.tscFrequency}`, 'the invtsc CPU feature: the guest needs the same TSC frequency (status.topologyHints.tscFrequency)');
  } else if (needsTsc(vmi)) {
    notes.push('the invtsc CPU feature pins a TSC frequency, which KubeVirt chooses when it first schedules the VMI (status.topologyHints): not judged');
  }
  if (vmi.cpu.realtime) label('realtime', 'kubevirt.io/realtime', 'spec.domain.cpu.realtime');

  // Confidential guests: SEV covers SNP too (pkg/util/amd64.go IsSEVVMI).
  const { sev, sevEs, snp, tdx } = vmi.launchSecurity;
  if (sev || snp) label('sev', 'kubevirt.io/sev', 'spec.domain.launchSecurity (SEV)');
  if (sevEs) label('sev-es', 'kubevirt.io/sev-es', 'spec.domain.launchSecurity.sev.policy.encryptedState (SEV-ES)');
  if (snp) label('sev-snp', 'kubevirt.io/sev-snp', 'spec.domain.launchSecurity.snp (SEV-SNP)');
  if (tdx) label('tdx', 'kubevirt.io/tdx', 'spec.domain.launchSecurity.tdx (TDX)');
  if (sev || snp) resource('sev', `${KUBEVIRT_DEVICE}sev`, 1, 'a confidential guest (SEV)');
  if (tdx) resource('tdx', `${KUBEVIRT_DEVICE}tdx`, 1, 'a confidential guest (TDX)');

  // Memory (WithMemoryRequests, WithHugePages) and devices.
  const memory = memoryRequest(vmi, config);
  if (vmi.memory.hugepageSize) {
    const hugepages = vmi.memory.guestBytes !== null && memory !== null && memory > vmi.memory.guestBytes ? vmi.memory.guestBytes : memory;
    if (hugepages !== null) resource('hugepages', `hugepages-${vmi.memory.hugepageSize}`, hugepages, `guest memory backed by ${vmi.memory.hugepageSize} pages (spec.domain.memory.hugepages)`, formatBytes(hugepages));
  }
  const counted = (devices: { deviceName: string }[]) => [...Map.groupBy(devices, (device) => device.deviceName)].map(([name, list]) => [name, list.length] as const);
  for (const [name, count] of counted(vmi.gpus)) resource('gpu', name, count, 'spec.domain.devices.gpus');
  for (const [name, count] of counted(vmi.hostDevices)) resource('host-device', name, count, 'spec.domain.devices.hostDevices');

  const pod = options.launcherRequests ?? null;
  const cpu = pod?.cpu ?? cpuRequest(vmi, config);
  const cpuBecause = pod?.cpu !== undefined ? 'as its virt-launcher pod requests it' : vmi.cpu.dedicated ? 'dedicated CPUs, one per vCPU' : vmi.requests.cpu !== null ? 'spec.domain.resources.requests.cpu' : `${vmi.cpu.vcpus} vCPU / cpuAllocationRatio ${config.cpuAllocationRatio}`;
  if (cpu !== null) resource('cpu', 'cpu', cpu, cpuBecause, formatCpu(cpu));
  if (pod?.memory !== undefined) {
    resource('memory', 'memory', pod.memory, "as its virt-launcher pod requests it, KubeVirt's overhead included", formatBytes(pod.memory));
  } else if (memory !== null) {
    if (!vmi.memory.hugepageSize) resource('memory', 'memory', memory, 'the guest memory; KubeVirt adds its overhead, not counted here', formatBytes(memory));
    notes.push("KubeVirt adds a memory overhead (QEMU, virt-launcher) to the pod's request that is known only once it renders the pod: a node judged by the guest's memory alone can still be short");
  }

  requirements.push({
    kind: 'tolerations',
    id: 'taints',
    source: 'tolerations',
    tolerations: vmi.tolerations,
    text: 'no taint it does not tolerate, and not cordoned',
    because: "the VMI's spec.tolerations, and the not-ready/unreachable ones every pod gets",
  });

  // Stable: within a filter, the order above (virt-handler before the devices it serves).
  const rank = (requirement: Requirement) => FILTER_ORDER[requirement.kind];
  requirements.sort((a, b) => rank(a) - rank(b));

  if (config.hypervStrictCheck) notes.push('the HypervStrictCheck feature gate turns Hyper-V enlightenments into hyperv.node.kubevirt.io/* selectors: not judged');
  if (!config.found) notes.push('no KubeVirt CR was read: KubeVirt\'s defaults were assumed (useEmulation off, cpuAllocationRatio 10, no extra node selectors)');
  if (!vmi.defaulted) notes.push("judged with KubeVirt's defaults applied as virt-api would (CPU model, architecture, topology)");
  notes.push('pod affinity and anti-affinity, topology spread, DRA claims and secondary networks are left to the scheduler: not judged');
  return { requirements, notes };
}

/** prepareNodeSelectorForHostCpuModel: the source's host model and its required features. */
function migrationCpu(source: Readonly<Record<string, string>>, label: (source: RequirementSource, key: string, because: string, value?: string) => void, notes: string[]): void {
  const keys = Object.keys(source);
  const model = keys.find((key) => key.startsWith(HOST_MODEL_CPU));
  if (!model) {
    notes.push(`the source node has no ${HOST_MODEL_CPU}* label, so KubeVirt cannot pick a migration target for a host-model VMI ("unable to locate host cpu model")`);
    return;
  }
  const because = 'host-model: a migration target must offer the source host\'s CPU model';
  label('migration-cpu', `${MIGRATION_CPU}${model.slice(HOST_MODEL_CPU.length)}`, because, source[model] ?? 'true');
  for (const key of keys.filter((candidate) => candidate.startsWith(HOST_MODEL_REQUIRED)).sort()) {
    label('migration-cpu', `${CPU_FEATURE}${key.slice(HOST_MODEL_REQUIRED.length)}`, "host-model: a feature the source host's model needs", source[key] ?? 'true');
  }
}

/** topology.GetTscFrequencyRequirement: invtsc required or forced. */
function needsTsc(vmi: VmiInput): boolean {
  return vmi.cpu.features.some((feature) => feature.name === 'invtsc' && (feature.policy === 'require' || feature.policy === 'force'));
}

/** WithCPUPinning / WithoutDedicatedCPU; the VMI's own request wins over the computed one. */
function cpuRequest(vmi: VmiInput, config: KubeVirtPlacementConfig): number | null {
  if (vmi.cpu.dedicated) return vmi.cpu.vcpus + (vmi.cpu.isolateEmulatorThread ? 1 : 0);
  if (vmi.requests.cpu !== null) return vmi.requests.cpu;
  return vmi.cpu.vcpus > 0 ? Math.round((vmi.cpu.vcpus / config.cpuAllocationRatio) * 1000) / 1000 : null;
}

/** WithMemoryRequests: the request, else the limit, else the guest memory (or one huge page) over the overcommit ratio. */
function memoryRequest(vmi: VmiInput, config: KubeVirtPlacementConfig): number | null {
  if (vmi.requests.memoryBytes !== null && vmi.requests.memoryBytes > 0) return vmi.requests.memoryBytes;
  if (vmi.limits.memoryBytes !== null && vmi.limits.memoryBytes > 0) return vmi.limits.memoryBytes;
  const guest = vmi.memory.guestBytes ?? (vmi.memory.hugepageSize ? parseQuantity(vmi.memory.hugepageSize) : null);
  if (guest === null || guest <= 0) return null;
  return config.memoryOvercommit === 100 ? guest : Math.floor((guest * 100) / config.memoryOvercommit);
}
