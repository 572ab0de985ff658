/**
 * The one-off pod of `virtgate check --node`: the agent image running `virtgate check
 * --host-root=/host` on one node, with the chart's DaemonSet's view of the host (the same /host
 * mounts, privileged, tolerating every taint), and nothing else: no host PID namespace, no
 * ServiceAccount token, no restart. Pure: the settings in, the Pod out.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { CheckSettings } from '../settings/check.ts';

export const CHECK_POD_CONTAINER = 'check';
export const CHECK_POD_LABELS = {
  'app.kubernetes.io/name': 'virtgate',
  'app.kubernetes.io/component': 'check',
  'app.kubernetes.io/managed-by': 'virtgate-check',
} as const;
/** The node the pod checks, as an annotation: a node name can be longer than a label value may be. */
export const CHECK_NODE_ANNOTATION = 'virtgate.io/check-node';

/** The arguments of `virtgate check` in the pod: the user's verdict policy and output, the host under /host. */
export function podCheckArgs(check: Pick<CheckSettings, 'json' | 'policy' | 'vhv' | 'kvmRun'>): string[] {
  return [
    'check',
    '--host-root=/host',
    ...(check.json ? ['--json'] : []),
    ...(check.policy.allowEmulation ? ['--allow-emulation'] : []),
    `--min-kernel=${check.policy.minKernel}`,
    ...(check.vhv.enabled ? [`--vhv-timeout=${check.vhv.timeoutSeconds}s`] : ['--no-vhv']),
    ...(check.kvmRun ? [] : ['--no-kvm-run']),
  ];
}

export interface CheckPodOptions {
  node: string;
  namespace: string;
  image: string;
  args: string[];
  /** The kubelet stops the pod after this long even if the CLI is gone (killed, lost its connection). */
  deadlineSeconds: number;
}

/** The chart's agent mounts, read-only (templates/agent/daemonset.yaml). */
const HOST_PATHS = [
  { name: 'host-proc', path: '/proc', type: 'Directory' },
  { name: 'host-sys', path: '/sys', type: 'Directory' },
  { name: 'host-dev', path: '/dev', type: 'Directory' },
  { name: 'host-os-release', path: '/etc/os-release', type: 'File' },
] as const;

export function checkPod(options: CheckPodOptions): V1Pod {
  // generateName: two runs on one node never collide; the server keeps the base at 58 characters.
  const base = `virtgate-check-${options.node}`.slice(0, 57).replace(/[.-]+$/, '');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${base}-`,
      namespace: options.namespace,
      labels: { ...CHECK_POD_LABELS },
      annotations: { [CHECK_NODE_ANNOTATION]: options.node },
    },
    spec: {
      // Bound by name: no scheduler involved, so a cordoned or tainted node is checked too.
      nodeName: options.node,
      hostPID: false,
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 1,
      activeDeadlineSeconds: options.deadlineSeconds,
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: CHECK_POD_CONTAINER,
          image: options.image,
          imagePullPolicy: 'IfNotPresent',
          args: options.args,
          // As the agent: /dev/kvm, /dev/net/tun and /dev/vhost-net open read-write only in a privileged container.
          securityContext: { privileged: true },
          volumeMounts: HOST_PATHS.map(({ name, path }) => ({ name, mountPath: `/host${path}`, readOnly: true })),
        },
      ],
      volumes: HOST_PATHS.map(({ name, path, type }) => ({ name, hostPath: { path, type } })),
    },
  };
}
