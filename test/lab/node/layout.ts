import os from 'node:os';
import path from 'node:path';

/**
 * Where the real node lives on this machine: fixed names, so that a run can find and remove
 * whatever an earlier, killed run left behind before it starts (cleanup.sh).
 */
export const NODE_LAYOUT = {
  /** Every file of the node: containerd's root and state, the kubelet's root, configs, logs. */
  root: path.join(os.tmpdir(), 'virtgate-node'),
  /** The kernel's values the kubelet changes (vm.overcommit_memory, kernel.panic, ...), restored at the end. */
  sysctlBackup: path.join(os.tmpdir(), 'virtgate-node.sysctl'),
  nodeName: 'virtgate-node',
  bridge: 'vgnode0',
  /** The bridge's address: the node's InternalIP, the API server's and the kubelet's address. */
  gateway: '10.250.0.1',
  /** Pod addresses (host-local IPAM) on the bridge. */
  podSubnet: '10.250.0.0/24',
  /** Blackholed as a whole: only the bridge's /24 is more specific. */
  podRange: '10.250.0.0/16',
  serviceRange: '10.96.0.0/16',
  clusterDns: '10.96.0.10',
  /** Policy-routing table for the host's own packets to Service addresses (see host-network.sh). */
  hostServiceTable: '250',
  /** Namespaces the suite creates start with this, so their pod logs can be found and removed. */
  namespacePrefix: 'vgnode-',
  /**
   * Host paths KubeVirt hard-codes (the kubelet's root for device plugins and pods, virt-handler's
   * shared and private directories): each is a bind mount of a directory under `root`, made
   * rshared (Bidirectional and HostToContainer propagation need it; this machine's `/` is
   * private), and removed by cleanup.sh.
   */
  hostPaths: ['/var/lib/kubelet', '/run/kubevirt', '/run/kubevirt-private', '/run/kubevirt-libvirt-runtimes', '/var/lib/kubevirt', '/var/lib/kubevirt-node-labeller'],
} as const;

/** The kubelet's root directory: KubeVirt's virt-handler expects `/var/lib/kubelet`. */
export const KUBELET_ROOT = '/var/lib/kubelet';

/** The layout as environment variables for host-network.sh and cleanup.sh. */
export function layoutEnv(): Record<string, string> {
  return {
    VGNODE_ROOT: NODE_LAYOUT.root,
    VGNODE_SYSCTL_BACKUP: NODE_LAYOUT.sysctlBackup,
    VGNODE_BRIDGE: NODE_LAYOUT.bridge,
    VGNODE_GATEWAY: NODE_LAYOUT.gateway,
    VGNODE_POD_SUBNET: NODE_LAYOUT.podSubnet,
    VGNODE_POD_RANGE: NODE_LAYOUT.podRange,
    VGNODE_SERVICE_RANGE: NODE_LAYOUT.serviceRange,
    VGNODE_HOST_SERVICE_TABLE: NODE_LAYOUT.hostServiceTable,
    VGNODE_NAMESPACE_PREFIX: NODE_LAYOUT.namespacePrefix,
    VGNODE_HOST_PATHS: NODE_LAYOUT.hostPaths.join(' '),
  };
}

/**
 * Where one kubelet node's programs run and what they are told: the single real node (below) or
 * one node of the three-node cluster (test/lab/cluster/cluster.ts). containerd.ts, kubelet.ts and
 * kube-proxy.ts take one of these.
 */
export interface NodeHost {
  name: string;
  /** The node's directory: configs, logs, containerd's root and state. */
  root: string;
  /** InternalIP: the kubelet and kube-proxy bind here. */
  address: string;
  /** Where the kubelet's and kube-proxy's health endpoints listen (reachable from the test). */
  healthzAddress: string;
  clusterDns: string;
  /** kube-proxy's clusterCIDR: Service traffic from outside it is masqueraded. */
  podRange: string;
  /** The command prefix that runs a program inside the node's namespaces ([] on the host's). */
  enter: string[];
  /** The pods' bridge and addresses (CNI bridge + host-local). */
  pods: { bridge: string; subnet: string; gateway: string };
  /** The cgroup under which the kubelet puts its pods (default: the hierarchies' root). */
  cgroupRoot?: string;
  /** The kubelet's port; 0 picks a free one (the host's network is shared). */
  kubeletPort: number;
  /** containerd's registry `config_path` (one `<host>/hosts.toml` per registry). */
  registryHostsDir: string;
}

/** The single real node: on the host's own network, bridge and cgroups. */
export const SINGLE_NODE: NodeHost = {
  name: NODE_LAYOUT.nodeName,
  root: NODE_LAYOUT.root,
  address: NODE_LAYOUT.gateway,
  healthzAddress: '127.0.0.1',
  clusterDns: NODE_LAYOUT.clusterDns,
  podRange: NODE_LAYOUT.podRange,
  enter: [],
  pods: { bridge: NODE_LAYOUT.bridge, subnet: NODE_LAYOUT.podSubnet, gateway: NODE_LAYOUT.gateway },
  kubeletPort: 0,
  registryHostsDir: path.join(NODE_LAYOUT.root, 'containerd', 'certs.d'),
};
