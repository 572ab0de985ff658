/** What the demo prints once it is up: where to look, what to run, what to try. Pure. */
import path from 'node:path';
import { nodeKeys } from '../core/kube/names.ts';
import type { RunningDemo } from './demo.ts';

export interface BannerInput {
  demo: Pick<RunningDemo, 'url' | 'kubeconfig' | 'dir' | 'hosts' | 'agentInterval' | 'pids'>;
  /** Where kubectl is, or null when it is not on PATH. */
  kubectl: string | null;
  /** How to run the CLI from this checkout, e.g. `node /src/virtgate/cli/main.ts`. */
  cli: string;
}

export function banner({ demo, kubectl, cli }: BannerInput): string {
  const keys = nodeKeys();
  const width = Math.max(...demo.hosts.map(({ node }) => node.name.length));
  const example = demo.hosts[0];
  const lines = [
    '',
    'virtgate demo is running.',
    '',
    `  Page:        ${demo.url}`,
    `  Gate, JSON:  curl -s ${demo.url}api/v1/gate`,
    `  Nodes, JSON: curl -s ${demo.url}api/v1/nodes`,
    `  Metrics:     curl -s ${demo.url}metrics`,
    '',
    `Nodes (each a fake Node with a fixture host and a real agent probing it every ${demo.agentInterval}):`,
    ...demo.hosts.map(({ node }) => `  ${node.name.padEnd(width)}  ${node.expect}`),
    '',
    'Look around:',
    `  export KUBECONFIG=${demo.kubeconfig}`,
    `  kubectl get nodes -L ${keys.labels.ready},${keys.labels.tier},kubevirt.io/schedulable`,
    '  kubectl get nodevalidations -o wide',
    `  kubectl describe node ${demo.hosts.find(({ node }) => node.profile === 'no-vmx')?.node.name ?? example?.node.name ?? ''}`,
    `  ${cli} gate --kubeconfig ${demo.kubeconfig}`,
    kubectl
      ? `  (kubectl: ${kubectl})`
      : '  (kubectl is not on PATH: install it for the kubectl commands, https://kubernetes.io/docs/tasks/tools/)',
    '',
  ];
  if (example) {
    const kvm = path.join(example.root, 'dev/kvm');
    lines.push(
      'Try it: take /dev/kvm away from a host and watch its node turn not ready within one probe interval:',
      `  rm ${kvm}`,
      `  mknod -m 666 ${kvm} c 1 3     # puts it back (the fixture's stand-in for a working /dev/kvm)`,
      '',
    );
  }
  lines.push(
    `Logs:  ${path.join(demo.dir, 'logs')}/`,
    `pids:  ${Object.entries(demo.pids).map(([name, pid]) => `${name}=${pid}`).join(' ')}`,
    '',
    'Press Ctrl-C to stop everything and remove the temp directory.',
    '',
  );
  return lines.join('\n');
}
