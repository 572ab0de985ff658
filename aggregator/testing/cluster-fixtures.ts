/**
 * Builders for raw cluster objects, shaped as the API server returns them, for the aggregator's
 * tests. Test-only: nothing in the aggregator imports this folder.
 */
import type { ClusterSnapshot, CustomResourceObservation } from '../model/snapshot.ts';

/** The evaluation time the tests use: 2026-12-02, the day the version data was updated. */
export const NOW = new Date('2026-12-02T12:00:00Z');

/** A heartbeat `seconds` before NOW. */
export function secondsAgo(seconds: number): string {
  return new Date(NOW.getTime() - seconds * 1000).toISOString();
}

export interface NodeOptions {
  labels?: Record<string, string>;
  taints?: Array<{ key: string; value?: string; effect: string }>;
  runtime?: string;
  kernel?: string;
  uid?: string;
  kubeletReady?: 'True' | 'False' | 'Unknown';
}

export function rawNode(name: string, options: NodeOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: options.uid ?? `uid-${name}`,
      labels: { 'kubernetes.io/hostname': name, ...options.labels },
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: { taints: options.taints ?? [] },
    status: {
      nodeInfo: {
        containerRuntimeVersion: options.runtime ?? 'containerd://2.1.4',
        kernelVersion: options.kernel ?? '5.14.0-570.el9.x86_64',
        osImage: 'CentOS Stream 9',
      },
      conditions: [{ type: 'Ready', status: options.kubeletReady ?? 'True', reason: 'KubeletReady' }],
    },
  };
}

export interface ReportOptions {
  ready?: boolean;
  tier?: 'hardware' | 'emulation' | 'none';
  heartbeatAt?: string;
  vendor?: 'intel' | 'amd' | 'arm' | 'other';
  checks?: Array<{ id: string; status: string; message: string }>;
  /** Defaults to the report's own name. */
  nodeName?: string;
  ownerName?: string;
  ownerUid?: string | null;
  ownerReferences?: unknown;
}

export function rawReport(name: string, options: ReportOptions = {}): Record<string, unknown> {
  const ready = options.ready ?? true;
  const tier = options.tier ?? (ready ? 'hardware' : 'none');
  const ownerUid = options.ownerUid === undefined ? `uid-${name}` : options.ownerUid;
  return {
    apiVersion: 'virtgate.io/v1alpha1',
    kind: 'NodeValidation',
    metadata: {
      name,
      ownerReferences: options.ownerReferences ?? [
        { apiVersion: 'v1', kind: 'Node', name: options.ownerName ?? name, ...(ownerUid === null ? {} : { uid: ownerUid }) },
      ],
    },
    spec: { nodeName: options.nodeName ?? name },
    status: {
      ready,
      tier,
      conclusive: true,
      kvm: tier === 'hardware' ? 'pass' : 'fail',
      kernel: '5.14',
      checks: options.checks ?? [
        { id: 'dev.kvm', status: tier === 'hardware' ? 'pass' : 'fail', message: '/dev/kvm' },
        { id: 'dev.tun', status: tier === 'none' ? 'fail' : 'pass', message: '/dev/net/tun' },
      ],
      facts: { cpu: { state: 'ok', value: { arch: 'x86_64', vendor: options.vendor ?? 'intel', model: 'Xeon', processors: 8, vmx: true, svm: false, hypervisor: false } } },
      agentVersion: '0.1.0',
      probedAt: secondsAgo(600),
      lastTransitionAt: secondsAgo(86_400),
      heartbeatAt: options.heartbeatAt ?? secondsAgo(60),
      taint: { policy: 'off', applied: false },
    },
  };
}

export interface KubeVirtOptions {
  phase?: string;
  version?: string | null;
  available?: 'True' | 'False';
  useEmulation?: boolean;
  nodePlacement?: unknown;
}

export function rawKubeVirt(options: KubeVirtOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: 'kubevirt' },
    spec: {
      configuration: { developerConfiguration: { useEmulation: options.useEmulation ?? false } },
      workloads: options.nodePlacement === undefined ? {} : { nodePlacement: options.nodePlacement },
    },
    status: {
      phase: options.phase ?? 'Deployed',
      ...(options.version === null ? {} : { observedKubeVirtVersion: options.version ?? 'v1.9.0' }),
      conditions: [{ type: 'Available', status: options.available ?? 'True', reason: 'AllComponentsReady' }],
    },
  };
}

export function rawCdi(version = 'v1.66.0', phase = 'Deployed'): Record<string, unknown> {
  return { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name: 'cdi' }, status: { phase, observedVersion: version } };
}

export function listed(...items: unknown[]): CustomResourceObservation {
  return { state: 'listed', items };
}

/** A cluster where every gate check passes on NOW: three ready Intel nodes, KubeVirt 1.9, CDI 1.66, Kubernetes 1.36. */
export function healthyCluster(overrides: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  const names = ['node-a', 'node-b', 'node-c'];
  return {
    serverGitVersion: 'v1.36.3',
    nodes: names.map((name) => rawNode(name, { labels: { 'virtgate.io/ready': 'true', 'virtgate.io/cpu-vendor': 'intel' } })),
    nodeValidations: names.map((name) => rawReport(name)),
    kubevirt: listed(rawKubeVirt({ nodePlacement: { nodeSelector: { 'virtgate.io/ready': 'true' } } })),
    cdi: listed(rawCdi()),
    ...overrides,
  };
}
