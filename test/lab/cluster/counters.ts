import { execa } from 'execa';
import { CLUSTER_LAYOUT } from './layout.ts';

export interface ClusterEgressCounters {
  /** Per node: pod packets to an address outside the pod, Service and node ranges, dropped (filter FORWARD). */
  egressDropped: Record<string, number>;
  /** Per node: such packets counted as they arrived from a pod (mangle PREROUTING on cni0). */
  outsideAttempts: Record<string, number>;
  /** Per node: every pod packet the attempt chain saw, proof that it sits in the pods' path. */
  podPacketsSeen: Record<string, number>;
  /** On the host: packets from the cluster's ranges that would leave through another interface. */
  hostEgressDropped: number;
}

/** Sum of the packet counts of the rules of `chain` whose line matches `pattern` (`iptables -L -v -x`). */
async function packets(netns: string | undefined, table: string, chain: string, pattern: RegExp): Promise<number> {
  const args = ['iptables', '-t', table, '-L', chain, '-v', '-x', '-n'];
  const { stdout } = netns ? await execa('ip', ['netns', 'exec', netns, ...args]) : await execa(args[0]!, args.slice(1));
  const lines = stdout.split('\n').filter((l) => pattern.test(l));
  if (lines.length === 0) throw new Error(`no rule matching ${pattern} in ${table}/${chain}${netns ? ` of ${netns}` : ''}:\n${stdout}`);
  return lines.reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0]), 0);
}

/** The counters network.sh installed before any node started. */
export async function clusterEgressCounters(): Promise<ClusterEgressCounters> {
  const counters: ClusterEgressCounters = { egressDropped: {}, outsideAttempts: {}, podPacketsSeen: {}, hostEgressDropped: 0 };
  for (const node of CLUSTER_LAYOUT.nodes) {
    counters.egressDropped[node.name] = await packets(node.netns, 'filter', 'VGCL-EGRESS', /vgcl: pod egress/);
    counters.outsideAttempts[node.name] = await packets(node.netns, 'mangle', 'VGCL-ATTEMPT', /vgcl: pod packet to an outside address/);
    counters.podPacketsSeen[node.name] = await packets(node.netns, 'mangle', 'PREROUTING', /VGCL-ATTEMPT/);
  }
  counters.hostEgressDropped = await packets(undefined, 'filter', 'VGCL-HOST-EGRESS', /vgcl: cluster egress from the host/);
  return counters;
}
