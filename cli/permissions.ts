/**
 * The Kubernetes API permissions each cluster command needs, written once: `--help` and the
 * permission tables in the docs are made from this, and a test holds the chart's RBAC (rendered
 * by the real helm) to it.
 */

export interface PermissionRule {
  /** `""` for the core group. */
  readonly group: string;
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  /** Why the program needs it (shown in the docs). */
  readonly why?: string;
}

export interface ProgramPermissions {
  /** The chart's ClusterRole that grants them, by the suffix after the release's full name; absent for a user's own command the chart grants to no one. */
  readonly clusterRole?: string;
  readonly rules: readonly PermissionRule[];
  /** What the program can do without, and how it then behaves. */
  readonly optional?: readonly (PermissionRule & { readonly without: string })[];
  /** Rules granted only with a chart value (`agent.taint.policy=not-ready`), by that value. */
  readonly withValue?: { readonly set: string; readonly rules: readonly PermissionRule[] };
  /** Rules in one namespace, granted by the chart's Role of that suffix (none for a user's own command). */
  readonly namespaced?: { readonly role?: string; readonly namespace: string; readonly rules: readonly PermissionRule[] };
}

const READ = ['get', 'list', 'watch'];

export const PERMISSIONS = {
  // Which objects it may change (its own Node, keys under its prefix, its own report) RBAC cannot
  // say; the chart's ValidatingAdmissionPolicy narrows these verbs (docs/security.md).
  agent: {
    clusterRole: 'agent',
    rules: [
      { group: '', resources: ['nodes'], verbs: ['get', 'watch', 'patch'], why: 'read its Node, watch only its own Node (field selector) to re-apply on drift, patch labels / the ownership annotation / taints' },
      { group: '', resources: ['nodes/status'], verbs: ['patch'], why: 'the `VirtualizationReady` condition (strategic merge keyed by type)' },
      {
        group: 'virtgate.io',
        resources: ['nodevalidations'],
        verbs: ['get', 'create'],
        why: 'its report: read, and create once (metadata and spec); no patch or update (nothing there changes after create), no delete (the garbage collector removes it with its Node through the owner reference), no list',
      },
      { group: 'virtgate.io', resources: ['nodevalidations/status'], verbs: ['patch'], why: 'the report itself, written through the status subresource (the CRD drops `status` from any other write)' },
    ],
    withValue: {
      set: 'agent.taint.policy=not-ready',
      rules: [{ group: '', resources: ['nodes'], verbs: ['list'], why: "the not-ready policy's share guard, which counts the tainted nodes of the pool" }],
    },
    namespaced: {
      role: 'agent-events',
      namespace: 'default',
      rules: [{ group: '', resources: ['events'], verbs: ['create'], why: 'an Event on its Node when the verdict changes' }],
    },
  },
  aggregator: {
    clusterRole: 'aggregator',
    rules: [
      { group: '', resources: ['nodes'], verbs: READ },
      { group: 'virtgate.io', resources: ['nodevalidations'], verbs: READ },
      { group: 'kubevirt.io', resources: ['kubevirts'], verbs: READ },
      { group: 'kubevirt.io', resources: ['virtualmachineinstances'], verbs: READ },
      { group: 'cdi.kubevirt.io', resources: ['cdis'], verbs: READ },
      { group: 'apiextensions.k8s.io', resources: ['customresourcedefinitions'], verbs: READ },
    ],
  },
  // The chart's `helm test` Pod runs `virtgate gate` with exactly these.
  gate: {
    clusterRole: 'test',
    rules: [
      { group: '', resources: ['nodes'], verbs: ['list'] },
      { group: 'virtgate.io', resources: ['nodevalidations'], verbs: ['list'] },
      { group: 'kubevirt.io', resources: ['kubevirts'], verbs: ['list'] },
      { group: 'cdi.kubevirt.io', resources: ['cdis'], verbs: ['list'] },
    ],
    optional: [
      { group: 'kubevirt.io', resources: ['virtualmachineinstances'], verbs: ['list'], without: 'nodes.migration-pairs cannot count the VMs a drain would move' },
      { group: 'apiextensions.k8s.io', resources: ['customresourcedefinitions'], verbs: ['get'], without: 'a KubeVirt or CDI that is not served reads as not installed' },
    ],
  },
  // `virtgate check --node`, run by a person: its one-off pod, in the namespace of --namespace.
  check: {
    rules: [],
    namespaced: {
      namespace: '<--namespace>',
      rules: [
        { group: '', resources: ['pods'], verbs: ['create', 'get', 'delete'], why: 'the one-off check pod: create it, wait for it to end, delete it' },
        { group: '', resources: ['pods/log'], verbs: ['get'], why: "the check's output, which is the pod's log" },
      ],
    },
    optional: [{ group: '', resources: ['nodes'], verbs: ['get'], without: 'a node that does not exist shows only as a pod that never starts, until --timeout' }],
  },
  // `virtgate canary`, the chart's CronJob (canary.enabled): VMIs only in its own namespace, and of
  // the reports only status.vmBoot (the chart's ValidatingAdmissionPolicy, docs/canary.md).
  canary: {
    clusterRole: 'canary',
    rules: [
      { group: '', resources: ['nodes'], verbs: ['get', 'list'], why: 'which nodes exist and are schedulable' },
      { group: 'virtgate.io', resources: ['nodevalidations'], verbs: ['get', 'list'], why: "each node's report: ready, its class, its last VMBoot" },
      { group: 'virtgate.io', resources: ['nodevalidations/status'], verbs: ['patch'], why: 'status.vmBoot and nothing else (admission policy)' },
    ],
    namespaced: {
      role: 'canary',
      namespace: '<canary.namespace>',
      rules: [
        { group: 'kubevirt.io', resources: ['virtualmachineinstances'], verbs: ['create', 'get', 'list', 'watch', 'delete'], why: 'the canary VMIs: create, follow, always delete' },
        { group: '', resources: ['pods'], verbs: ['get', 'list', 'watch'], why: "each VMI's virt-launcher pod: the scheduler's reason, its containers' state" },
        { group: '', resources: ['pods/log'], verbs: ['get'], why: "the guest's serial console (the launcher's guest-console-log container)" },
      ],
    },
  },
  // `virtgate explain`, run by a person: reads only; the chart grants it to no one.
  explain: {
    rules: [{ group: '', resources: ['nodes'], verbs: ['list'], why: 'every node: labels, taints, allocatable' }],
    optional: [
      { group: 'kubevirt.io', resources: ['virtualmachineinstances', 'virtualmachines'], verbs: ['get'], without: 'only -f FILE can be explained' },
      { group: 'kubevirt.io', resources: ['virtualmachineinstances', 'virtualmachines'], verbs: ['create'], without: "-f FILE is not checked by the API server's dry run (KubeVirt's schema and admission; nothing is ever created)" },
      { group: 'virtgate.io', resources: ['nodevalidations'], verbs: ['list'], without: "no node has virtgate's evidence: causes are KubeVirt's labels and resources only" },
      { group: 'kubevirt.io', resources: ['kubevirts'], verbs: ['list'], without: "KubeVirt's defaults are assumed (useEmulation off, no extra node selectors)" },
      { group: '', resources: ['pods'], verbs: ['list'], without: 'free CPU, memory and devices are judged against allocatable, not what pods already hold' },
    ],
  },
  prune: {
    clusterRole: 'prune',
    rules: [
      { group: '', resources: ['nodes'], verbs: ['get', 'list', 'patch'] },
      { group: '', resources: ['nodes/status'], verbs: ['patch'] },
      { group: 'virtgate.io', resources: ['nodevalidations'], verbs: ['list', 'delete'] },
    ],
  },
} as const satisfies Record<string, ProgramPermissions>;

export type ClusterProgram = keyof typeof PERMISSIONS;

/** `nodes`, `kubevirts.kubevirt.io`: a resource as kubectl names it. */
export function qualified(rule: PermissionRule): string[] {
  // A subresource after the group, as kubectl writes it: nodevalidations.virtgate.io/status.
  return rule.resources.map((resource) => {
    if (rule.group === '') return resource;
    const [name, subresource] = resource.split('/');
    return `${name}.${rule.group}${subresource ? `/${subresource}` : ''}`;
  });
}

/** The `--help` paragraph: "Needs get, list, watch on nodes; …". */
export function permissionsHelp(program: ClusterProgram): string {
  const { rules, optional = [], withValue, namespaced } = PERMISSIONS[program] as ProgramPermissions;
  // Rules with the same verbs read as one clause: "get, list, watch on nodes, …".
  const byVerbs = new Map<string, string[]>();
  for (const rule of rules) byVerbs.set(rule.verbs.join(', '), [...(byVerbs.get(rule.verbs.join(', ')) ?? []), ...qualified(rule)]);
  const needs = [...byVerbs].map(([verbs, resources]) => `${verbs} on ${resources.join(', ')}`);
  const namespace = (namespaced?.rules ?? []).map((rule) => `${rule.verbs.join(', ')} on ${qualified(rule).join(', ')} in namespace ${namespaced?.namespace}`);
  const conditional = (withValue?.rules ?? []).map((rule) => `with ${withValue?.set}: ${rule.verbs.join(', ')} on ${qualified(rule).join(', ')}`);
  const extra = optional.map((rule) => `optional: ${rule.verbs.join(', ')} on ${qualified(rule).join(', ')} (without it ${rule.without})`);
  return `Permissions (RBAC): ${[...needs, ...namespace, ...conditional, ...extra].join('; ')}.`;
}
