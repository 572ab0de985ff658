/**
 * `node bench/narrowing.ts`: in-process CPU time to narrow 5,000 Nodes and 5,000 NodeValidations as
 * the aggregator's informers do on arrival (aggregator/watch/keep.ts). No cluster needed. The
 * objects are shaped as a real API server returns them: Nodes with managedFields, images and
 * condition messages; reports with every declared field and check observations.
 */
import { keepNode, keepReport } from '../aggregator/watch/keep.ts';
import { median } from './stats.ts';
import { agentNodeValidation } from '../test/lab/reports/agent-report.ts';

const COUNT = 5000;
const RUNS = 15;

export function benchNode(i: number): unknown {
  const name = `scale-${String(i).padStart(5, '0')}`;
  const now = '2026-12-02T12:00:00Z';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `6f1c2d3e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: now,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
      managedFields: [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:images': {}, 'f:nodeInfo': {} } } }],
    },
    spec: { taints: [{ key: 'virtgate.io/not-ready', effect: 'NoSchedule' }] },
    status: {
      capacity: { cpu: '64', memory: '256Gi', pods: '110' },
      conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({
        type, status: type === 'Ready' ? 'True' : 'False', reason: `Kubelet${type}`, message: `kubelet reports ${type} as expected`, lastHeartbeatTime: now, lastTransitionTime: now,
      })),
      nodeInfo: { containerRuntimeVersion: 'containerd://2.0.5', kernelVersion: '5.14.0-503.el9.x86_64', osImage: 'Rocky Linux 9.5', kubeletVersion: 'v1.36.3', architecture: 'amd64' },
      images: Array.from({ length: 20 }, (_, j) => ({ names: [`registry.example/image-${j}@sha256:${'a'.repeat(64)}`, `registry.example/image-${j}:v1`], sizeBytes: 1e8 })),
    },
  };
}

export function benchReport(i: number): unknown {
  const name = `scale-${String(i).padStart(5, '0')}`;
  return agentNodeValidation(name, `uid-${i}`, { features: ['aes', 'avx', 'avx2', 'avx512f', 'sse4_2', 'vmx'] }, new Date('2026-12-02T12:00:00.000Z'), String(9000 + i));
}

/** CPU time rather than wall time: the figure should not depend on what else the machine runs. */
function timed(label: string, objects: readonly unknown[], narrow: (raw: unknown) => unknown): void {
  const durations: number[] = [];
  for (let run = 0; run < RUNS + 3; run += 1) {
    const start = process.cpuUsage();
    for (const object of objects) narrow(object);
    const used = process.cpuUsage(start);
    if (run >= 3) durations.push((used.user + used.system) / 1000);
  }
  process.stdout.write(`${label}: median ${median(durations).toFixed(1)} ms of CPU, min ${Math.min(...durations).toFixed(1)} ms (${RUNS} runs)\n`);
}

if (import.meta.main) {
  const nodes = Array.from({ length: COUNT }, (_, i) => benchNode(i));
  const reports = Array.from({ length: COUNT }, (_, i) => benchReport(i));
  timed(`narrow ${COUNT} Nodes`, nodes, keepNode);
  timed(`narrow ${COUNT} NodeValidations`, reports, keepReport);
}
