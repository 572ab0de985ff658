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
}

export interface ProgramPermissions {
  /** The chart's ClusterRole that grants them, by the suffix after the release's full name. */
  readonly clusterRole: string;
  readonly rules: readonly PermissionRule[];
  /** What the program can do without, and how it then behaves. */
  readonly optional?: readonly (PermissionRule & { readonly without: string })[];
}

const READ = ['get', 'list', 'watch'];

export const PERMISSIONS = {
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
  return rule.resources.map((resource) => (rule.group === '' ? resource : `${resource}.${rule.group}`));
}

/** The `--help` paragraph: "Needs get, list, watch on nodes; …". */
export function permissionsHelp(program: ClusterProgram): string {
  const { rules, optional = [] } = PERMISSIONS[program] as ProgramPermissions;
  // Rules with the same verbs read as one clause: "get, list, watch on nodes, …".
  const byVerbs = new Map<string, string[]>();
  for (const rule of rules) byVerbs.set(rule.verbs.join(', '), [...(byVerbs.get(rule.verbs.join(', ')) ?? []), ...qualified(rule)]);
  const needs = [...byVerbs].map(([verbs, resources]) => `${verbs} on ${resources.join(', ')}`).join('; ');
  const extra = optional.map((rule) => `; optional: ${rule.verbs.join(', ')} on ${qualified(rule).join(', ')} (without it ${rule.without})`).join('');
  return `Permissions (RBAC): ${needs}${extra}.`;
}
