import type { ResourceClient, WatchClients } from '../aggregator/watch/resources.ts';
import { type AgentNodeValidation, agentHostFacts, agentNodeValidation } from '../test/lab/reports/agent-report.ts';

/**
 * A cluster of `size` Nodes and their NodeValidations that exists only in this process, served to
 * the aggregator's reflectors as an API server would: LIST pages, then a WATCH whose events the
 * bench pushes. Each page is made on request and passed through JSON text and back, so the
 * aggregator receives freshly decoded objects (as client-node hands them over) and the source
 * itself holds nothing. Reports are built as the agent builds them (test/lab/reports/agent-report.ts),
 * with the fields the API server adds and many `cpuFeatures`, so the migration plan has work to do.
 */

/** CPU kinds the nodes are spread over (vendor × feature set), and kernels: the migration plan groups by these. */
const CPU_KINDS = 8;
const KERNELS = ['5.14.0-503.el9.x86_64', '6.8.0-45-generic'];
/** Guest-relevant flags as the agent lists them (about as many as a current x86 host has). */
const BASE_FEATURES = Array.from({ length: 60 }, (_, i) => `feature${String(i).padStart(2, '0')}`);

export const nodeName = (index: number) => `scale-${String(index).padStart(6, '0')}`;

function kindOf(index: number) {
  const kind = index % CPU_KINDS;
  return {
    vendor: kind % 2 === 0 ? ('intel' as const) : ('amd' as const),
    // Each kind adds a few flags of its own: some kinds are supersets of others, some are not.
    features: [...BASE_FEATURES, ...Array.from({ length: kind }, (_, i) => `extra${i}`)].sort(),
    kernel: KERNELS[Math.floor(index / CPU_KINDS) % KERNELS.length] as string,
  };
}

const stampOf = (now: Date) => now.toISOString();

export function syntheticNode(index: number, now: Date): Record<string, unknown> {
  const name = nodeName(index);
  const resources = { cpu: '64', memory: '256Gi', pods: '110' };
  const { kernel } = kindOf(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      resourceVersion: String(1000 + index),
      creationTimestamp: stampOf(now),
      labels: { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware', 'virtgate.io/cpu-vendor': kindOf(index).vendor, 'kubevirt.io/schedulable': 'true', 'kubernetes.io/hostname': name },
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: stampOf(now), lastTransitionTime: stampOf(now) }],
      nodeInfo: {
        architecture: 'amd64', bootID: '', containerRuntimeVersion: 'containerd://2.0.5', kernelVersion: kernel,
        kubeProxyVersion: '', kubeletVersion: 'v1.36.3', machineID: '', operatingSystem: 'linux', osImage: 'Rocky Linux 9.5', systemUUID: '',
      },
    },
  };
}

/** Reports as agents store them today, or `withFacts`: also the raw probe facts, as agents stored them before status held declared fields only (an old CRD kept them). */
export function syntheticReport(index: number, now: Date, ready = true, withFacts = false): AgentNodeValidation {
  const kind = kindOf(index);
  const uid = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  const host = { vendor: kind.vendor, features: kind.features, kernelRelease: kind.kernel, kvm: ready };
  const report = agentNodeValidation(nodeName(index), uid, host, now, String(500_000 + index));
  return withFacts ? { ...report, status: { ...report.status, facts: agentHostFacts(host) } as AgentNodeValidation['status'] } : report;
}

const PAGE_RESOURCE_VERSION = '900000';

/** LIST pages made from `make(index)` on request; the continue token is the next index. */
function pagedClient(size: number, make: (index: number) => unknown, onWatch: (push: (type: string, object: unknown) => void) => void): ResourceClient {
  return {
    list: async ({ limit, continueToken }) => {
      const from = continueToken === undefined ? 0 : Number(continueToken);
      const to = Math.min(size, from + limit);
      const items = JSON.parse(JSON.stringify(Array.from({ length: to - from }, (_, i) => make(from + i)))) as unknown[];
      return { items, resourceVersion: PAGE_RESOURCE_VERSION, continueToken: to < size ? String(to) : undefined };
    },
    watch: async (_resourceVersion, _timeoutSeconds, onEvent) => {
      onWatch(onEvent);
      return { abort: () => undefined };
    },
  };
}

/** An empty LIST and a silent WATCH: the CRD is not installed. */
const absent: ResourceClient = {
  list: async () => ({ items: [], resourceVersion: PAGE_RESOURCE_VERSION, continueToken: undefined }),
  watch: async () => ({ abort: () => undefined }),
};

export interface SyntheticCluster {
  clients: WatchClients;
  /** Sends a WATCH event for node `index`'s report, as the API server would after the agent wrote it. */
  writeReport(index: number, ready: boolean, now: Date): void;
}

export function syntheticCluster(size: number, now: Date, withFacts = false): SyntheticCluster {
  let pushReport: ((type: string, object: unknown) => void) | undefined;
  let version = 1_000_000;
  return {
    clients: {
      nodes: pagedClient(size, (index) => syntheticNode(index, now), () => undefined),
      nodeValidations: pagedClient(size, (index) => syntheticReport(index, now, true, withFacts), (push) => {
        pushReport = push;
      }),
      crd: () => absent,
      customResource: () => absent,
    },
    writeReport(index, ready, at) {
      if (!pushReport) throw new Error('the NodeValidation watch is not open yet');
      const object = JSON.parse(JSON.stringify(syntheticReport(index, at, ready, withFacts))) as { metadata: { resourceVersion: string } };
      version += 1;
      object.metadata.resourceVersion = String(version);
      pushReport('MODIFIED', object);
    },
  };
}
