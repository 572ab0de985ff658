import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { ManagedProcess } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';
import { type NodeHost, SINGLE_NODE } from './layout.ts';

/** Debian's containerd (1.6), runc and CNI plugins: where the packages put them. */
const CNI_BIN_DIR = '/usr/lib/cni';

/**
 * The CRI's registry `config_path`: one `<host>/hosts.toml` per registry. containerd reads it on
 * each pull, so a registry started after the node is reachable once its file is written.
 */
export const REGISTRY_HOSTS_DIR = SINGLE_NODE.registryHostsDir;

/**
 * Lets the node pull from a registry on loopback over plain HTTP (`host` is 127.0.0.1:<port>).
 * containerd runs in the host's network namespace, so 127.0.0.1 is this machine's loopback.
 */
export async function allowPlainHttpRegistry(host: string): Promise<string> {
  const dir = path.join(REGISTRY_HOSTS_DIR, host);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'hosts.toml');
  await writeFile(file, `server = "http://${host}"\n\n[host."http://${host}"]\n  capabilities = ["pull", "resolve"]\n`);
  return file;
}

export interface Containerd {
  process: ManagedProcess;
  socket: string;
  /** `ctr` against this containerd, in the CRI's namespace. */
  ctr(args: string[]): Promise<string>;
}

/**
 * Gives every imported image its digest reference too (`<repository>@sha256:<manifest>`), as a
 * pull through the CRI records both names. `ctr images import` records only the tag, and the CRI
 * reports the digest form as the container's image (its repo digest): what KubeVirt copies into a
 * migration's target pod, which another node then finds only under that name.
 */
export async function addDigestReferences(containerd: Pick<Containerd, 'ctr'>): Promise<void> {
  const listing = await containerd.ctr(['images', 'ls']);
  const names = new Set(listing.split('\n').slice(1).map((line) => line.split(/\s+/)[0]));
  for (const line of listing.split('\n').slice(1)) {
    const [ref, , digest] = line.split(/\s+/);
    if (!ref || !digest?.startsWith('sha256:') || ref.includes('@') || ref.startsWith('sha256:')) continue;
    const tagAt = ref.lastIndexOf(':');
    const repository = tagAt > ref.lastIndexOf('/') ? ref.slice(0, tagAt) : ref;
    const digested = `${repository}@${digest}`;
    if (!names.has(digested)) await containerd.ctr(['images', 'tag', ref, digested]);
  }
}

/**
 * containerd with its CRI plugin, all of its state under the node's directory, runc as the only
 * runtime (crun refuses this cgroup v1 hybrid layout: "cgroups in hybrid mode not supported").
 */
export async function startContainerd(sandboxImage: string, node: NodeHost = SINGLE_NODE): Promise<Containerd> {
  const root = path.join(node.root, 'containerd');
  const socket = path.join(node.root, 'containerd.sock');
  const cniConfDir = path.join(node.root, 'cni', 'net.d');
  await mkdir(cniConfDir, { recursive: true });
  await mkdir(node.registryHostsDir, { recursive: true });
  await writeFile(path.join(cniConfDir, '10-virtgate-node.conflist'), JSON.stringify(cniConfig(node), null, 2));
  const config = path.join(node.root, 'containerd.toml');
  await writeFile(config, containerdConfig(root, socket, cniConfDir, sandboxImage, node.registryHostsDir));

  // containerd runs as PID 1 of its own PID namespace, with its own /proc, and so do the pods
  // that ask for the host's (hostPID): KubeVirt's virt-handler enters `/proc/1/ns/mnt`
  // (virt-chroot), which this machine's own PID 1 refuses even to root. The new /proc needs a
  // mount namespace of its own: a slave of the host's (the kubelet's volume mounts reach the
  // containers) and shared within (containerd requires shared mounts for Bidirectional
  // propagation), so nothing mounted in it reaches the host. --kill-child: stopping it stops every
  // container, as a node's reboot would.
  const inNamespace = 'mount --make-rslave / && mount --make-rshared / && mount -t proc proc /proc && exec containerd --config "$0"';
  const [command = 'unshare', ...prefix] = [...node.enter, 'unshare'];
  const process = new ManagedProcess('containerd', node.root, command, () => [
    ...prefix,
    '--pid', '--fork', '--kill-child', '--mount', '--propagation', 'unchanged', 'sh', '-c', inNamespace, config,
  ]);
  await process.start();
  const ctr = async (args: string[]): Promise<string> =>
    (await execa('ctr', ['--address', socket, '--namespace', 'k8s.io', ...args], { timeout: 300_000 })).stdout;
  await waitFor('containerd to answer', async () => ((await ctr(['version'])) ? true : undefined), 30_000, 250);
  return { process, socket, ctr };
}

function containerdConfig(root: string, socket: string, cniConfDir: string, sandboxImage: string, registryHostsDir: string): string {
  return `version = 2
root = "${path.join(root, 'root')}"
state = "${path.join(root, 'state')}"
# Snapshotters this machine has no use for, so they do not log their absence.
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = "${socket}"

[ttrpc]
  address = "${socket}.ttrpc"

[plugins."io.containerd.internal.v1.opt"]
  path = "${path.join(root, 'opt')}"

[plugins."io.containerd.grpc.v1.cri"]
  # Built locally (test/lab/node/pause) and imported, never pulled.
  sandbox_image = "${sandboxImage}"
  # Without CAP_SYS_RESOURCE, raising a process's oom_score_adj fails ("write to
  # /proc/self/oom_score_adj: Permission denied"); this keeps it at or above the current value.
  restrict_oom_score_adj = true
  disable_apparmor = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "runc"
        Root = "${path.join(root, 'runc')}"
        SystemdCgroup = false
  # One hosts.toml per registry a test starts on loopback (allowPlainHttpRegistry).
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "${registryHostsDir}"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${CNI_BIN_DIR}"
    conf_dir = "${cniConfDir}"
    max_conf_num = 1
`;
}

/**
 * Pods on the suite's bridge: no masquerade, and the bridge is not made a gateway by the plugin
 * (that would turn IP forwarding on); the pods' default route points at the node's address,
 * where only the API server and the kubelet answer.
 */
function cniConfig(node: NodeHost): object {
  return {
    cniVersion: '0.4.0',
    name: 'virtgate-node',
    plugins: [
      {
        type: 'bridge',
        bridge: node.pods.bridge,
        isGateway: false,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          dataDir: path.join(node.root, 'cni', 'ipam'),
          ranges: [[{ subnet: node.pods.subnet, gateway: node.pods.gateway }]],
          routes: [{ dst: '0.0.0.0/0', gw: node.pods.gateway }],
        },
      },
      // hostPort support, without its masquerade of hairpin traffic.
      { type: 'portmap', capabilities: { portMappings: true }, snat: false },
    ],
  };
}
