import { z } from 'zod';
import { parseWorkloadPlacement, type NodeSelectorTerm, type Toleration } from '../aggregator/model/placement.ts';
import { firstIssue, isRecord } from '../core/untrusted.ts';
import { parseQuantity } from './quantity.ts';

/**
 * The parts of a VirtualMachineInstance spec (kubevirt.io/v1, KubeVirt v1.9.0) that decide where
 * its virt-launcher pod may run, narrowed from a VMI, a VM's template or a file. The field names
 * are KubeVirt's (staging/src/kubevirt.io/api/core/v1/schema.go).
 */
export interface VmiInput {
  /** Where it came from, for messages: `vmi default/fedora`, `vm default/fedora`, `file vm.yaml`. */
  source: string;
  kind: 'VirtualMachineInstance' | 'VirtualMachine';
  name: string;
  namespace: string;
  uid: string | null;
  /** Whether KubeVirt's defaults were applied to it already (a VMI the API server holds) or are applied here. */
  defaulted: boolean;
  nodeSelector: Record<string, string>;
  /** The VMI's own required node affinity terms; null when it sets none. */
  requiredTerms: NodeSelectorTerm[] | null;
  tolerations: Toleration[];
  architecture: string | null;
  cpu: {
    /** After KubeVirt's defaulting: a named model, `host-model` or `host-passthrough`. */
    model: string;
    vcpus: number;
    dedicated: boolean;
    isolateEmulatorThread: boolean;
    realtime: boolean;
    features: { name: string; policy: string }[];
  };
  memory: { guestBytes: number | null; hugepageSize: string | null };
  requests: { cpu: number | null; memoryBytes: number | null };
  limits: { cpu: number | null; memoryBytes: number | null };
  machineType: string | null;
  interfaces: { name: string; model: string }[];
  autoattachPodInterface: boolean;
  autoattachVsock: boolean;
  gpus: { name: string; deviceName: string }[];
  hostDevices: { name: string; deviceName: string }[];
  launchSecurity: { sev: boolean; sevEs: boolean; snp: boolean; tdx: boolean };
  status: {
    phase: string | null;
    nodeName: string | null;
    /** status.topologyHints.tscFrequency: set by virt-controller when the VMI needs a TSC frequency. */
    tscFrequency: number | null;
    machineType: string | null;
  };
}

/** What KubeVirt's defaulting needs from the cluster (pkg/defaults/defaults.go). */
export interface InputDefaults {
  /** spec.configuration.cpuModel of the KubeVirt CR; null: KubeVirt's default, host-model. */
  clusterCpuModel: string | null;
  /** status.defaultArchitecture of the KubeVirt CR (the operator's GOARCH unless configured). */
  defaultArchitecture: string | null;
}

export class VmiInputError extends Error {
  override name = 'VmiInputError';
}

const name = z.string().min(1).max(253);
const quantity = z.union([z.string().max(64), z.number()]);
const resourceList = z.object({ cpu: quantity.nullish(), memory: quantity.nullish() }).nullish();

const specSchema = z.object({
  architecture: z.string().max(64).nullish(),
  domain: z.object({
    cpu: z
      .object({
        model: z.string().max(253).nullish(),
        cores: z.int().min(0).max(65_536).nullish(),
        sockets: z.int().min(0).max(65_536).nullish(),
        threads: z.int().min(0).max(65_536).nullish(),
        dedicatedCpuPlacement: z.boolean().nullish(),
        isolateEmulatorThread: z.boolean().nullish(),
        realtime: z.object({}).loose().nullish(),
        features: z.array(z.object({ name: z.string().min(1).max(253), policy: z.string().max(32).nullish() })).max(500).nullish(),
      })
      .nullish(),
    memory: z.object({ guest: quantity.nullish(), hugepages: z.object({ pageSize: z.string().min(1).max(32) }).nullish() }).nullish(),
    resources: z.object({ requests: resourceList, limits: resourceList }).nullish(),
    machine: z.object({ type: z.string().max(253).nullish() }).nullish(),
    devices: z
      .object({
        interfaces: z.array(z.object({ name: z.string().max(253), model: z.string().max(64).nullish() })).max(256).nullish(),
        autoattachPodInterface: z.boolean().nullish(),
        autoattachVSOCK: z.boolean().nullish(),
        gpus: z.array(z.object({ name: z.string().max(253), deviceName: z.string().max(317).nullish() })).max(64).nullish(),
        hostDevices: z.array(z.object({ name: z.string().max(253), deviceName: z.string().max(317).nullish() })).max(64).nullish(),
      })
      .nullish(),
    launchSecurity: z
      .object({
        sev: z.object({ policy: z.object({ encryptedState: z.boolean().nullish() }).nullish() }).loose().nullish(),
        snp: z.object({}).loose().nullish(),
        tdx: z.object({}).loose().nullish(),
      })
      .nullish(),
  }),
});

const statusSchema = z
  .object({
    phase: z.string().max(64).nullish(),
    nodeName: z.string().max(253).nullish(),
    topologyHints: z.object({ tscFrequency: z.int().nullish() }).nullish(),
    machine: z.object({ type: z.string().max(253).nullish() }).nullish(),
  })
  .nullish();

const metadataSchema = z.object({ name, namespace: name.nullish(), uid: z.string().max(128).nullish() });

/**
 * Narrows a VMI or a VM (its template) into what placement needs. `defaulted`: the object comes
 * from the API server, where virt-api's mutating webhook already applied KubeVirt's defaults to a
 * VMI; a VM's template and a file are defaulted here as the webhook would. Throws VmiInputError
 * with the field at fault.
 */
export function readVmiInput(raw: unknown, source: string, defaults: InputDefaults, options: { fromServer: boolean; namespace?: string }): VmiInput {
  if (!isRecord(raw)) throw new VmiInputError(`${source}: not an object`);
  const kind = raw.kind;
  if (kind !== 'VirtualMachineInstance' && kind !== 'VirtualMachine') {
    throw new VmiInputError(`${source}: kind ${JSON.stringify(kind ?? null)} is neither VirtualMachineInstance nor VirtualMachine (kubevirt.io/v1)`);
  }
  const metadata = metadataSchema.safeParse(raw.metadata);
  if (!metadata.success) throw new VmiInputError(`${source}: metadata: ${firstIssue(metadata.error)}`);
  const specPath = kind === 'VirtualMachine' ? 'spec.template.spec' : 'spec';
  const rawSpec = kind === 'VirtualMachine' ? (isRecord(raw.spec) && isRecord(raw.spec.template) ? raw.spec.template.spec : undefined) : raw.spec;
  const spec = specSchema.safeParse(rawSpec);
  if (!spec.success) throw new VmiInputError(`${source}: ${specPath}: ${firstIssue(spec.error)}`);
  const placement = parseWorkloadPlacement(rawSpec);
  if (placement.state === 'invalid') throw new VmiInputError(`${source}: ${specPath} (nodeSelector, affinity, tolerations): ${placement.reason}`);
  const status = kind === 'VirtualMachineInstance' ? statusSchema.safeParse(raw.status) : statusSchema.safeParse(undefined);
  if (!status.success) throw new VmiInputError(`${source}: status: ${firstIssue(status.error)}`);

  const domain = spec.data.domain;
  const fromTemplateOrFile = !options.fromServer || kind === 'VirtualMachine';
  const amount = quantityReader(source);
  const requests = { cpu: amount(domain.resources?.requests?.cpu, `${specPath}.domain.resources.requests.cpu`), memoryBytes: amount(domain.resources?.requests?.memory, `${specPath}.domain.resources.requests.memory`) };
  const limits = { cpu: amount(domain.resources?.limits?.cpu, `${specPath}.domain.resources.limits.cpu`), memoryBytes: amount(domain.resources?.limits?.memory, `${specPath}.domain.resources.limits.memory`) };
  const cpu = domain.cpu ?? {};
  const sev = domain.launchSecurity?.sev;
  return {
    source,
    kind,
    name: metadata.data.name,
    namespace: metadata.data.namespace ?? options.namespace ?? 'default',
    uid: metadata.data.uid ?? null,
    defaulted: !fromTemplateOrFile,
    nodeSelector: placement.nodeSelector,
    requiredTerms: placement.requiredTerms,
    tolerations: placement.tolerations,
    architecture: spec.data.architecture || (fromTemplateOrFile ? defaults.defaultArchitecture : null),
    cpu: {
      // pkg/defaults setDefaultCPUModel (a VMI from the API server has it set already).
      model: cpu.model || (defaults.clusterCpuModel ?? 'host-model'),
      vcpus: vcpusOf(cpu, limits.cpu ?? requests.cpu),
      dedicated: cpu.dedicatedCpuPlacement === true,
      isolateEmulatorThread: cpu.isolateEmulatorThread === true,
      realtime: cpu.realtime !== undefined && cpu.realtime !== null,
      features: (cpu.features ?? []).map((feature) => ({ name: feature.name, policy: feature.policy || 'require' })),
    },
    memory: { guestBytes: amount(domain.memory?.guest, `${specPath}.domain.memory.guest`), hugepageSize: domain.memory?.hugepages?.pageSize ?? null },
    requests,
    limits,
    machineType: domain.machine?.type || null,
    interfaces: (domain.devices?.interfaces ?? []).map((iface) => ({ name: iface.name, model: iface.model || 'virtio' })),
    autoattachPodInterface: domain.devices?.autoattachPodInterface !== false,
    autoattachVsock: domain.devices?.autoattachVSOCK === true,
    gpus: (domain.devices?.gpus ?? []).filter((gpu) => gpu.deviceName).map((gpu) => ({ name: gpu.name, deviceName: gpu.deviceName ?? '' })),
    hostDevices: (domain.devices?.hostDevices ?? []).filter((device) => device.deviceName).map((device) => ({ name: device.name, deviceName: device.deviceName ?? '' })),
    launchSecurity: {
      sev: sev !== undefined && sev !== null,
      sevEs: sev?.policy?.encryptedState === true,
      snp: domain.launchSecurity?.snp !== undefined && domain.launchSecurity?.snp !== null,
      tdx: domain.launchSecurity?.tdx !== undefined && domain.launchSecurity?.tdx !== null,
    },
    status: {
      phase: status.data?.phase ?? null,
      nodeName: status.data?.nodeName || null,
      tscFrequency: status.data?.topologyHints?.tscFrequency ?? null,
      machineType: status.data?.machine?.type || null,
    },
  };
}

function quantityReader(source: string) {
  return (value: string | number | null | undefined, path: string): number | null => {
    if (value === undefined || value === null) return null;
    const parsed = parseQuantity(value);
    if (parsed === null || parsed < 0) throw new VmiInputError(`${source}: ${path}: ${JSON.stringify(value)} is not a Kubernetes quantity`);
    return parsed;
  };
}

/**
 * vCPUs as KubeVirt counts them (pkg/util/hardware GetNumberOfVCPUs): cores × sockets × threads,
 * an unset one skipped. Without any, KubeVirt's defaulting (pkg/defaults SetDefaultGuestCPUTopology)
 * takes the CPU limit, else the request, rounded up, as sockets, and 1 otherwise.
 */
function vcpusOf(cpu: { cores?: number | null; sockets?: number | null; threads?: number | null }, cpuAmount: number | null): number {
  const parts = [cpu.cores, cpu.sockets, cpu.threads].filter((part): part is number => typeof part === 'number' && part > 0);
  if (parts.length > 0) return parts.reduce((product, part) => product * part, 1);
  return cpuAmount !== null && cpuAmount > 0 ? Math.ceil(cpuAmount) : 1;
}
