/**
 * Fault-test nodes: a fixture host root, a Node carrying foreign labels and taints that every fault
 * must leave alone, the agent's pod-bound identity, and the agent process itself.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig, V1Taint } from '@kubernetes/client-node';
import type { TestControlPlane } from '../lab/controlplane/client.ts';
import { createNode } from '../lab/controlplane/identities.ts';
import { buildHost, type BuiltHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { agentIdentity } from '../lab/support/agent-identity.ts';
import { type AgentProcess, startAgentProcess } from '../lab/processes/launch.ts';
import { childEnv } from './child-env.ts';

export interface FaultNode {
  name: string;
  host: BuiltHost;
  /** The agent's pod-bound kubeconfig (straight to the API server). */
  kubeconfig: string;
  foreignLabels: Record<string, string>;
  foreignTaints: V1Taint[];
}

/** Someone else's labels and taints on every fault node: no fault may cost one of them. */
export function foreignKeys(name: string): { labels: Record<string, string>; taints: V1Taint[] } {
  return {
    labels: { 'team.example.com/owner': name, 'fault.example.com/keep': 'yes' },
    taints: [
      { key: 'example.com/dedicated', value: 'db', effect: 'NoSchedule' },
      { key: 'fault.example.com/keep', value: 'yes', effect: 'PreferNoSchedule' },
    ],
  };
}

export async function prepareFaultNode(
  admin: KubeConfig,
  cp: TestControlPlane,
  name: string,
  profile: HostProfile,
  options: { labels?: Record<string, string>; kubeconfig?: (name: string) => Promise<string> } = {},
): Promise<FaultNode> {
  const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), `${name}-`)), profile);
  const foreign = foreignKeys(name);
  const labels = { ...foreign.labels, ...options.labels };
  await createNode(admin, name, { labels, taints: foreign.taints });
  const kubeconfig = options.kubeconfig ? await options.kubeconfig(name) : (await agentIdentity(admin, cp, name)).kubeconfig;
  return { name, host, kubeconfig, foreignLabels: labels, foreignTaints: foreign.taints };
}

/**
 * The agent settings the fault tests share: a short interval, no jitter, short timeouts. The
 * recovery bounds (recovery-bounds.ts) are computed from these same numbers.
 */
export const FAULT_AGENT_SETTINGS = { intervalSeconds: 10, jitter: 0, requestTimeoutSeconds: 5, publishFailureThresholdSeconds: 5 } as const;

export const FAULT_AGENT_ARGS = [
  '--interval',
  `${FAULT_AGENT_SETTINGS.intervalSeconds}s`,
  '--jitter',
  String(FAULT_AGENT_SETTINGS.jitter),
  '--request-timeout',
  `${FAULT_AGENT_SETTINGS.requestTimeoutSeconds}s`,
  '--publish-failure-threshold',
  `${FAULT_AGENT_SETTINGS.publishFailureThresholdSeconds}s`,
];

/**
 * Runs the agent of `node`. virt-host-validate is left out (it would judge this machine, not the
 * fixture host) unless `vhvCommand` names a stand-in.
 */
export function runFaultAgent(node: FaultNode, extra: string[] = [], kubeconfig = node.kubeconfig, vhvCommand?: string): Promise<AgentProcess> {
  const vhv = vhvCommand ? ['--vhv-command', vhvCommand] : ['--no-vhv'];
  return startAgentProcess(['--node-name', node.name, '--kubeconfig', kubeconfig, ...node.host.cliArgs, ...vhv, ...FAULT_AGENT_ARGS, ...extra], childEnv());
}
