import os from 'node:os';
import path from 'node:path';

/** One node of the three: its name, its address on the cluster's bridge, its pod subnet. */
export interface ClusterNodeLayout {
  name: string;
  /** Network namespace (`ip netns`): the node's own interfaces, routes and iptables. */
  netns: string;
  /** The host end of the node's veth on the cluster bridge; the node's end is `eth0`. */
  hostVeth: string;
  /** InternalIP: the kubelet, kube-proxy and host-network pods bind here. */
  address: string;
  /** Pod addresses (host-local IPAM) on the node's own `cni0` bridge. */
  podSubnet: string;
  /** `cni0`'s address: the pods' gateway, inside the node's namespace only. */
  podGateway: string;
  /**
   * Devices the node's mount namespace hides from everything on the node (kubelet, containerd,
   * pods), so the node is a host without them. Paths under /dev.
   */
  hiddenDevices: string[];
}

function node(index: number, hiddenDevices: string[] = []): ClusterNodeLayout {
  return {
    name: `vgcl-node-${index}`,
    netns: `vgcl-${index}`,
    hostVeth: `vgcl${index}h`,
    address: `10.251.0.${10 + index}`,
    podSubnet: `10.252.${index}.0/24`,
    podGateway: `10.252.${index}.1`,
    hiddenDevices,
  };
}

/**
 * The three-node cluster's fixed names and addresses (fixed, so that a run finds and removes
 * whatever an earlier, killed run left: cleanup.sh). Apart from the single real node's
 * (test/lab/node/layout.ts) in every name and range, so the two never touch each other.
 */
export const CLUSTER_LAYOUT = {
  root: path.join(os.tmpdir(), 'virtgate-cluster'),
  /** The kernel's values the kubelets change, restored at the end. */
  sysctlBackup: path.join(os.tmpdir(), 'virtgate-cluster.sysctl'),
  /** The host's bridge between the nodes: L2 only, no uplink. */
  bridge: 'vgcl0',
  /** The bridge's address on the host: the API server's. */
  controlPlaneAddress: '10.251.0.1',
  nodeNetwork: '10.251.0.0/24',
  /** Blackholed as a whole on the host; each node's /24 is routed to that node. */
  podRange: '10.252.0.0/16',
  serviceRange: '10.97.0.0/16',
  clusterDns: '10.97.0.10',
  namespacePrefix: 'vgcl-',
  /**
   * Three nodes; the third's mount namespace hides /dev/net/tun and /dev/kvm (where the machine
   * serves it), so its own agent finds a host that cannot run VMs.
   */
  nodes: [node(1), node(2), node(3, ['/dev/net/tun', '/dev/kvm'])],
  /**
   * Paths KubeVirt and the kubelet hard-code, each a directory of the node's own inside its mount
   * namespace (with /run a fresh tmpfs there, which holds /run/kubevirt*). Created empty on the
   * host as mount points where missing (and removed again by cleanup.sh).
   */
  nodePaths: ['/var/lib/kubelet', '/var/lib/kubevirt', '/var/lib/kubevirt-node-labeller', '/var/log/pods', '/var/log/containers'],
} as const;

/** A node's directory: containerd's root, the kubelet's root (mounted at /var/lib/kubelet), logs. */
export function nodeRoot(node: ClusterNodeLayout): string {
  return path.join(CLUSTER_LAYOUT.root, 'nodes', node.name);
}

/** The file that holds the node's mount namespace open (nsenter --mount=...). */
export function mountNamespaceFile(node: ClusterNodeLayout): string {
  return path.join(CLUSTER_LAYOUT.root, 'ns', `${node.name}.mnt`);
}

/** The cgroup (in every v1 hierarchy) under which the node's kubelet puts its pods. */
export function cgroupRoot(node: ClusterNodeLayout): string {
  return `/virtgate-cluster/${node.name}`;
}

/** The command prefix that runs a program inside the node: its network and mount namespaces. */
export function enterNode(node: ClusterNodeLayout): string[] {
  return ['nsenter', `--net=/run/netns/${node.netns}`, `--mount=${mountNamespaceFile(node)}`, '--'];
}

/** The layout as environment variables for the shell scripts. */
export function clusterEnv(): Record<string, string> {
  const { nodes } = CLUSTER_LAYOUT;
  return {
    VGCL_ROOT: CLUSTER_LAYOUT.root,
    VGCL_SYSCTL_BACKUP: CLUSTER_LAYOUT.sysctlBackup,
    VGCL_BRIDGE: CLUSTER_LAYOUT.bridge,
    VGCL_CONTROL_PLANE_ADDRESS: CLUSTER_LAYOUT.controlPlaneAddress,
    VGCL_NODE_NETWORK: CLUSTER_LAYOUT.nodeNetwork,
    VGCL_POD_RANGE: CLUSTER_LAYOUT.podRange,
    VGCL_SERVICE_RANGE: CLUSTER_LAYOUT.serviceRange,
    VGCL_NAMESPACE_PREFIX: CLUSTER_LAYOUT.namespacePrefix,
    VGCL_NODE_PATHS: CLUSTER_LAYOUT.nodePaths.join(' '),
    // One word per node: name,netns,hostVeth,address,podSubnet,podGateway,mountNamespaceFile,cgroupRoot,hidden:devices
    VGCL_NODES: nodes
      .map((n) => [n.name, n.netns, n.hostVeth, n.address, n.podSubnet, n.podGateway, mountNamespaceFile(n), cgroupRoot(n), n.hiddenDevices.join(':')].join(','))
      .join(' '),
  };
}
