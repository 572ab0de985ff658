import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  V1ClusterRole,
  V1ConfigMap,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1Namespace,
  V1PodDisruptionBudget,
  V1Pod,
  V1PolicyRule,
  V1Role,
  V1ValidatingAdmissionPolicy,
  V1ValidatingAdmissionPolicyBinding,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { ALL_ON_VALUES, CHART_DIR, findManifest, helm, type Manifest, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';

const cp = useControlPlane();
const render = (args: string[] = []) => renderChart(cp.binDir, args);

function rulesOf(objects: Manifest[]): V1PolicyRule[] {
  return objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => (o as unknown as V1Role).rules ?? []);
}

describe('helm lint', () => {
  it('passes with the defaults and with every option on (--strict)', async () => {
    const defaults = await helm(cp.binDir, ['lint', CHART_DIR, '--strict']);
    expect(defaults.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(defaults.code).toBe(0);
    const allOn = await helm(cp.binDir, ['lint', CHART_DIR, '--strict', '-f', ALL_ON_VALUES]);
    expect(allOn.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(allOn.code).toBe(0);
  });

  it('fails on a typo in a values key, naming it', async () => {
    const outcome = await helm(cp.binDir, ['lint', CHART_DIR, '--set', 'agent.taint.polciy=not-ready']);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stdout + outcome.stderr).toContain("at '/agent/taint': additional properties 'polciy' not allowed");
  });
});

describe('values.schema.json rejects bad values with a message that names them', () => {
  const cases: Array<[string, string[], string]> = [
    ['a misspelt top-level key', ['--set', 'agnet.interval=5m'], "additional properties 'agnet' not allowed"],
    ['a misspelt nested key', ['--set', 'aggregator.service.prot=80'], "at '/aggregator/service': additional properties 'prot' not allowed"],
    ['a wrong type', ['--set', 'agent.port=http'], "at '/agent/port'"],
    ['an unknown taint policy', ['--set', 'agent.taint.policy=always'], "at '/agent/taint/policy'"],
    ['the bootstrap policy without its taint key', ['--set', 'agent.taint.policy=bootstrap'], "at '/agent/taint/bootstrapKey'"],
    ['NoExecute without allowNoExecute', ['--set', 'agent.taint.effect=NoExecute'], "at '/agent/taint/allowNoExecute'"],
    ['a prefix that is no DNS name', ['--set', 'prefix=Virt_Gate'], "at '/prefix'"],
    ['a bad duration', ['--set', 'agent.interval=soon'], "at '/agent/interval'"],
    // The extension points stay strict.
    ['a misspelt key in the agent securityContext', ['--set', 'agent.securityContext.privilegd=true'], "at '/agent/securityContext': additional properties 'privilegd' not allowed"],
    ['a misspelt key in the aggregator pod securityContext', ['--set', 'aggregator.podSecurityContext.runAsUsr=1'], "at '/aggregator/podSecurityContext': additional properties 'runAsUsr' not allowed"],
    ['a negative revisionHistoryLimit', ['--set', 'agent.revisionHistoryLimit=-1'], "at '/agent/revisionHistoryLimit'"],
    ['a revisionHistoryLimit that is no number', ['--set', 'aggregator.revisionHistoryLimit=ten'], "at '/aggregator/revisionHistoryLimit'"],
    ['a DaemonSet strategy Deployments have', ['--set', 'agent.updateStrategy.type=Recreate'], "at '/agent/updateStrategy/type'"],
    ['a Deployment strategy DaemonSets have', ['--set', 'aggregator.updateStrategy.type=OnDelete'], "at '/aggregator/updateStrategy/type'"],
    ['an extraEnv entry without a name', ['--set', 'agent.extraEnv[0].value=x'], "at '/agent/extraEnv/0'"],
    ['an extraEnv entry with a misspelt key', ['--set', 'aggregator.extraEnv[0].name=A', '--set', 'aggregator.extraEnv[0].valu=x'], "additional properties 'valu' not allowed"],
    ['an extraVolumeMount without a mountPath', ['--set', 'agent.extraVolumeMounts[0].name=ca'], "at '/agent/extraVolumeMounts/0'"],
    ['an extraVolume that is no object', ['--set', 'aggregator.extraVolumes[0]=ca'], "at '/aggregator/extraVolumes/0'"],
    ['a PodDisruptionBudget minAvailable that is neither a count nor a percentage', ['--set', 'aggregator.podDisruptionBudget.minAvailable=half'], "at '/aggregator/podDisruptionBudget/minAvailable'"],
    ['a misspelt PodDisruptionBudget key', ['--set', 'aggregator.podDisruptionBudget.maxUnavailabe=1'], "additional properties 'maxUnavailabe' not allowed"],
    ['an unknown unhealthyPodEvictionPolicy', ['--set', 'aggregator.podDisruptionBudget.unhealthyPodEvictionPolicy=Never'], "at '/aggregator/podDisruptionBudget/unhealthyPodEvictionPolicy'"],
    ['a NetworkPolicy peer with a misspelt key', ['--set', 'aggregator.networkPolicy.ingressFrom[0].podSelectr.x=y'], "additional properties 'podSelectr' not allowed"],
    ['a networkPolicy.enabled that is no boolean', ['--set', 'aggregator.networkPolicy.enabled=yes'], "at '/aggregator/networkPolicy/enabled'"],
    ['a bad scrapeTimeout', ['--set', 'monitoring.serviceMonitor.scrapeTimeout=soon'], "at '/monitoring/serviceMonitor/scrapeTimeout'"],
    ['a honorLabels that is no boolean', ['--set', 'monitoring.podMonitor.honorLabels=maybe'], "at '/monitoring/podMonitor/honorLabels'"],
    ['an unknown relabeling action', ['--set', 'monitoring.serviceMonitor.relabelings[0].action=rename'], "at '/monitoring/serviceMonitor/relabelings/0/action'"],
    ['a misspelt metricRelabelings key', ['--set', 'monitoring.podMonitor.metricRelabelings[0].sourceLabel=x'], "additional properties 'sourceLabel' not allowed"],
    ['a namespaceOverride that is no namespace name', ['--set', 'namespaceOverride=Virt_Gate'], "at '/namespaceOverride'"],
    ['a misspelt testFramework key', ['--set', 'testFramework.enabeld=false'], "at '/testFramework': additional properties 'enabeld' not allowed"],
    ['a helm test that would not wait for the aggregator', ['--set', 'testFramework.aggregatorWaitSeconds=0'], "at '/testFramework/aggregatorWaitSeconds': minimum: got 0, want 5"],
    ['a misspelt crds key', ['--set', 'crds.instal=false'], "at '/crds': additional properties 'instal' not allowed"],
    ['a shutdown delay past the pod\'s grace', ['--set', 'aggregator.shutdownDelaySeconds=25'], "at '/aggregator/shutdownDelaySeconds'"],
    ['a connection drain longer than 5 s', ['--set', 'aggregator.shutdownDrain=30'], "at '/aggregator/shutdownDrain'"],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, ...args]);
      expect(outcome.code).not.toBe(0);
      expect(outcome.stderr).toContain("values don't meet the specifications of the schema");
      expect(outcome.stderr).toContain(message);
    });
  }

  it('a prefix under kubevirt.io, with the reason', async () => {
    const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--set', 'prefix=nodes.kubevirt.io']);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain('virtgate never writes under kubevirt.io, kubernetes.io or k8s.io');
  });
});

describe('helm template with the defaults', () => {
  it('renders the agent DaemonSet as the design says', async () => {
    const objects = await render();
    const daemonSet = findManifest<V1DaemonSet>(objects, 'DaemonSet', 'virtgate-agent');
    expect(daemonSet.metadata?.namespace).toBe('virtgate');
    expect(daemonSet.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } });
    const pod = daemonSet.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('virtgate-agent');
    expect(pod?.automountServiceAccountToken).toBe(true);
    expect(pod?.terminationGracePeriodSeconds).toBe(30);
    expect(pod?.tolerations).toEqual([{ operator: 'Exists' }]);
    const container = pod?.containers[0];
    expect(container?.image).toBe('ghcr.io/virtgate/virtgate-agent:0.1.0');
    expect(container?.securityContext).toEqual({ privileged: true });
    expect(container?.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect(container?.resources).toEqual({ requests: { cpu: '10m', memory: '160Mi' }, limits: { memory: '256Mi' } });
    expect(container?.env).toContainEqual({ name: 'NODE_OPTIONS', value: '--max-semi-space-size=1 --jitless' });
    expect(container?.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container?.args).toEqual([
      'agent',
      '--host-root=/host',
      '--prefix=virtgate.io',
      '--interval=5m',
      '--jitter=0.1',
      '--heartbeat=10m',
      '--port=8080',
      '--request-timeout=15s',
      '--publish-failure-threshold=2m',
      '--min-kernel=4.18',
      '--vhv-timeout=30s',
      '--taint-policy=off',
      '--taint-effect=NoSchedule',
      '--taint-max-share=0.5',
      '--watch-timeout=5m',
      '--watch-stale-after=6m',
      '--watch-backoff-base=1s',
      '--watch-backoff-max=30s',
      '--shutdown-grace=20s',
      '--log-level=info',
    ]);
    // Every host path is mounted read-only under /host.
    const mounts = Object.fromEntries((container?.volumeMounts ?? []).map((m) => [m.mountPath, m]));
    const hostPaths = Object.fromEntries((pod?.volumes ?? []).map((v) => [v.name, v.hostPath?.path]));
    expect(Object.keys(mounts).sort()).toEqual(['/host/dev', '/host/etc/os-release', '/host/proc', '/host/sys']);
    for (const [mountPath, mount] of Object.entries(mounts)) {
      expect(mount.readOnly, mountPath).toBe(true);
      expect(hostPaths[mount.name], mountPath).toBe(mountPath.replace(/^\/host/, ''));
    }
  });

  it('renders the aggregator non-root, read-only, without capabilities, with seccomp', async () => {
    const objects = await render();
    const deployment = findManifest<V1Deployment>(objects, 'Deployment', 'virtgate-aggregator');
    const pod = deployment.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('virtgate-aggregator');
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    const container = pod?.containers[0];
    expect(container?.securityContext).toEqual({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    // Sized from the 1,000- and 5,000-node benchmark (docs/development.md, Benchmarks).
    expect(container?.resources).toEqual({ requests: { cpu: '20m', memory: '192Mi' }, limits: { memory: '384Mi' } });
    expect(container?.env).toContainEqual({ name: 'NODE_OPTIONS', value: '--max-semi-space-size=8' });
    expect(container?.args).toEqual([
      'aggregator',
      '--bind-address=0.0.0.0',
      '--port=8080',
      '--prefix=virtgate.io',
      '--stale-after=30m',
      '--min-ready=2',
      '--eol-warn-days=90',
      '--data-max-age-days=180',
      '--request-timeout=30s',
      '--shutdown-drain=2s',
      '--watch-timeout=5m',
      '--watch-stale-after=330s',
      '--watch-backoff-base=500ms',
      '--watch-backoff-max=30s',
      '--log-level=info',
    ]);
    expect(container?.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
    // Serves on while kube-proxy drops the stopping pod's endpoint (upgrade.test.ts on three nodes: no poll refused).
    expect(container?.lifecycle).toEqual({ preStop: { sleep: { seconds: 5 } } });
    // The sleep, the drain (at most 5 s) and the stop all fit in the grace period.
    expect(pod?.terminationGracePeriodSeconds).toBe(30);
    const withoutDelay = findManifest<V1Deployment>(await render(['--set', 'aggregator.shutdownDelaySeconds=0']), 'Deployment', 'virtgate-aggregator');
    expect(withoutDelay.spec?.template.spec?.containers[0]?.lifecycle).toBeUndefined();
    expect(withoutDelay.spec?.template.spec?.terminationGracePeriodSeconds).toBe(25);
    const longest = findManifest<V1Deployment>(await render(['--set', 'aggregator.shutdownDelaySeconds=20']), 'Deployment', 'virtgate-aggregator');
    expect(longest.spec?.template.spec?.terminationGracePeriodSeconds).toBe(45);
    const service = findManifest<{ spec: { selector: Record<string, string>; ports: Array<{ port: number; targetPort: string }> } }>(
      objects,
      'Service',
      'virtgate-aggregator',
    );
    expect(service.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' }]);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject(service.spec.selector);
  });

  it('grants no wildcard, no Secrets, no pods/exec, and the aggregator only reads', async () => {
    const objects = await render(['-f', ALL_ON_VALUES]);
    const rules = [...rulesOf(objects), ...rulesOf(await render())];
    expect(rules.length).toBeGreaterThan(5);
    for (const rule of rules) {
      for (const list of [rule.verbs, rule.resources ?? [], rule.apiGroups ?? []]) expect(list).not.toContain('*');
      expect(rule.resources).not.toContain('secrets');
      expect(rule.resources).not.toContain('pods/exec');
    }
    const aggregator = findManifest<V1ClusterRole>(objects, 'ClusterRole', 'vg-aggregator');
    expect(new Set(aggregator.rules?.flatMap((rule) => rule.verbs))).toEqual(new Set(['get', 'list', 'watch']));
  });

  it('lets the agent list nodes only when the not-ready taint policy needs its share guard', async () => {
    const agentRules = async (args: string[]) =>
      findManifest<V1ClusterRole>(await render(args), 'ClusterRole', 'virtgate-agent').rules?.map((rule) => ({
        resources: rule.resources,
        verbs: rule.verbs,
      }));
    const base = [
      { resources: ['nodes/status'], verbs: ['patch'] },
      { resources: ['nodevalidations'], verbs: ['get', 'create'] },
      { resources: ['nodevalidations/status'], verbs: ['patch'] },
    ];
    expect(await agentRules([])).toEqual([{ resources: ['nodes'], verbs: ['get', 'watch', 'patch'] }, ...base]);
    expect(await agentRules(['--set', 'agent.taint.policy=not-ready'])).toEqual([
      { resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
      ...base,
    ]);
    const events = findManifest<V1Role>(await render(), 'Role', 'virtgate-agent-events');
    expect(events.metadata?.namespace).toBe('default');
    expect(events.rules).toEqual([{ apiGroups: [''], resources: ['events'], verbs: ['create'] }]);
  });

  it('renders the admission policies for the agent ServiceAccount only, failing closed, denying with Forbidden', async () => {
    const objects = await render();
    const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy') as unknown as V1ValidatingAdmissionPolicy[];
    const bindings = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding') as unknown as V1ValidatingAdmissionPolicyBinding[];
    expect(policies.map((p) => p.metadata?.name).sort()).toEqual(['virtgate-agent-event', 'virtgate-agent-node', 'virtgate-agent-nodevalidation']);
    for (const policy of policies) {
      expect(policy.spec?.failurePolicy).toBe('Fail');
      expect(policy.spec?.matchConditions).toEqual([
        { name: 'virtgate-agent', expression: "request.userInfo.username == 'system:serviceaccount:virtgate:virtgate-agent'" },
      ]);
      for (const validation of policy.spec?.validations ?? []) expect(validation.reason).toBe('Forbidden');
      const binding = bindings.find((b) => b.spec?.policyName === policy.metadata?.name);
      expect(binding?.spec?.validationActions).toEqual(['Deny']);
    }
  });

  it('ships the prune Job as a post-delete hook with its own ServiceAccount and RBAC, and none with prune.onUninstall=false', async () => {
    const objects = await render();
    const job = findManifest<V1Job>(objects, 'Job', 'virtgate-prune');
    expect(job.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'post-delete', 'helm.sh/hook-weight': '0' });
    expect(job.spec?.template.spec?.serviceAccountName).toBe('virtgate-prune');
    expect(job.spec?.template.spec?.containers[0]?.args).toEqual(['prune', '--prefix=virtgate.io']);
    expect(job.spec?.template.spec?.containers[0]?.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true });
    for (const [kind, name] of [
      ['ServiceAccount', 'virtgate-prune'],
      ['ClusterRole', 'virtgate-prune'],
      ['ClusterRoleBinding', 'virtgate-prune'],
    ] as const) {
      // Created before the Job, deleted once it succeeds: the prune identity exists only during uninstall.
      expect(findManifest(objects, kind, name).metadata.annotations).toMatchObject({
        'helm.sh/hook': 'post-delete',
        'helm.sh/hook-weight': '-10',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
    }
    expect(findManifest<V1ClusterRole>(objects, 'ClusterRole', 'virtgate-prune').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'patch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['list', 'delete'] },
    ]);
    const optedOut = await render(['--set', 'prune.onUninstall=false']);
    expect(optedOut.filter((o) => o.metadata.name === 'virtgate-prune')).toEqual([]);
  });

  it('renders the NodeValidation CRD as a template that helm uninstall keeps, unless crds.install=false', async () => {
    const crd = findManifest(await render(), 'CustomResourceDefinition', 'nodevalidations.virtgate.io');
    expect(crd.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    expect((crd.spec as { versions: Array<{ subresources?: unknown }> }).versions[0]?.subresources).toEqual({ status: {} });
    const without = await render(['--set', 'crds.install=false']);
    expect(without.filter((o) => o.kind === 'CustomResourceDefinition')).toEqual([]);
  });

  it('leaves every optional object out', async () => {
    const kinds = new Set((await render()).map((o) => o.kind));
    for (const kind of ['Namespace', 'ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'ConfigMap', 'NetworkPolicy', 'Ingress', 'HTTPRoute']) expect(kinds.has(kind), kind).toBe(false);
  });

  it('runs the agent at system-node-critical priority, keeps 10 revisions of each workload, rolls both, and adds a PodDisruptionBudget that never blocks a drain', async () => {
    const objects = await render();
    const daemonSet = findManifest<V1DaemonSet>(objects, 'DaemonSet', 'virtgate-agent');
    expect(daemonSet.spec?.template.spec?.priorityClassName).toBe('system-node-critical');
    expect(daemonSet.spec?.revisionHistoryLimit).toBe(10);
    expect(daemonSet.spec?.template.spec?.securityContext).toBeUndefined();
    const deployment = findManifest<V1Deployment>(objects, 'Deployment', 'virtgate-aggregator');
    expect(deployment.spec?.template.spec?.priorityClassName).toBeUndefined();
    expect(deployment.spec?.revisionHistoryLimit).toBe(10);
    expect(deployment.spec?.strategy).toEqual({ type: 'RollingUpdate' });
    const budget = findManifest<V1PodDisruptionBudget>(objects, 'PodDisruptionBudget', 'virtgate-aggregator');
    expect(budget.metadata?.namespace).toBe('virtgate');
    expect(budget.spec).toEqual({
      maxUnavailable: 1,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
      selector: { matchLabels: deployment.spec?.selector.matchLabels },
    });
    expect((await render(['--set', 'aggregator.podDisruptionBudget.enabled=false'])).some((o) => o.kind === 'PodDisruptionBudget')).toBe(false);
    expect(findManifest<V1DaemonSet>(await render(['--set', 'agent.priorityClassName=']), 'DaemonSet').spec?.template.spec?.priorityClassName).toBeUndefined();
  });

  it('ships the helm test hook: a restricted Pod from the aggregator image, with a ServiceAccount that may only list what virtgate gate reads', async () => {
    const objects = await render();
    const pod = findManifest<V1Pod>(objects, 'Pod', 'virtgate-test');
    expect(pod.metadata?.namespace).toBe('virtgate');
    expect(pod.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'test', 'helm.sh/hook-weight': '0', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
    expect(pod.metadata?.labels?.['app.kubernetes.io/component']).toBe('test');
    expect(pod.spec?.restartPolicy).toBe('Never');
    expect(pod.spec?.serviceAccountName).toBe('virtgate-test');
    const container = pod.spec?.containers[0];
    expect(container?.image).toBe('ghcr.io/virtgate/virtgate-aggregator:0.1.0');
    expect(container?.command).toEqual(['/bin/sh', '-c']);
    expect(container?.args?.slice(1)).toEqual(['helm-test', '--prefix=virtgate.io', '--stale-after=30m', '--min-ready=2']);
    expect(container?.args?.[0]).toBe(await readFile(path.join(PACKAGE_ROOT, 'charts/virtgate/files/helm-test.sh'), 'utf8'));
    expect(container?.env).toEqual([
      { name: 'AGGREGATOR_URL', value: 'http://virtgate-aggregator.virtgate.svc:8080' },
      { name: 'VIRTGATE_CLI', value: '/app/dist/cli/main.js' },
      { name: 'AGGREGATOR_WAIT_SECONDS', value: '60' },
    ]);
    const patient = findManifest<V1Pod>(await render(['--set', 'testFramework.aggregatorWaitSeconds=300']), 'Pod', 'virtgate-test');
    expect(patient.spec?.containers[0]?.env).toContainEqual({ name: 'AGGREGATOR_WAIT_SECONDS', value: '300' });
    expect(container?.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    for (const [kind, name] of [
      ['ServiceAccount', 'virtgate-test'],
      ['ClusterRole', 'virtgate-test'],
      ['ClusterRoleBinding', 'virtgate-test'],
    ] as const) {
      expect(findManifest(objects, kind, name).metadata.annotations, `${kind}/${name}`).toMatchObject({ 'helm.sh/hook': 'test', 'helm.sh/hook-weight': '-10' });
    }
    expect(findManifest<V1ClusterRole>(objects, 'ClusterRole', 'virtgate-test').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list'] },
      { apiGroups: ['virtgate.io'], resources: ['nodevalidations'], verbs: ['list'] },
      { apiGroups: ['kubevirt.io'], resources: ['kubevirts'], verbs: ['list'] },
      { apiGroups: ['cdi.kubevirt.io'], resources: ['cdis'], verbs: ['list'] },
    ]);
    expect((await render(['--set', 'testFramework.enabled=false'])).filter((o) => o.metadata.name === 'virtgate-test')).toEqual([]);
  });

  it('namespaceOverride puts every namespaced object in that namespace and creates none', async () => {
    const objects = await render(['--set', 'namespaceOverride=virt-tools']);
    expect(objects.some((o) => o.kind === 'Namespace')).toBe(false);
    const namespaced = objects.filter((o) => o.metadata.namespace);
    expect(namespaced.length).toBeGreaterThan(5);
    for (const object of namespaced) {
      // Node Events live in default; the prune hook in the release namespace (docs/install.md).
      const expected = object.metadata.name === 'virtgate-agent-events' ? 'default' : object.metadata.name === 'virtgate-prune' ? 'virtgate' : 'virt-tools';
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(expected);
    }
    const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'virtgate-agent-node');
    expect(policy.spec?.matchConditions?.[0]?.expression).toBe("request.userInfo.username == 'system:serviceaccount:virt-tools:virtgate-agent'");
    expect(findManifest<V1Pod>(objects, 'Pod', 'virtgate-test').spec?.containers[0]?.env?.[0]?.value).toBe('http://virtgate-aggregator.virt-tools.svc:8080');
  });

  it('never takes ownership of the release namespace, and namespace.create excludes namespaceOverride', async () => {
    const own = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--namespace', 'virtgate', '--set', 'namespace.create=true', '--set', 'namespace.name=virtgate']);
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain('the chart would take ownership of a namespace you created');
    const both = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--set', 'namespace.create=true', '--set', 'namespaceOverride=virt-tools']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('namespace.create and namespaceOverride exclude each other');
  });

  it('renders the bootstrap policy: the agent argument and the admission exception for that one taint key', async () => {
    const objects = await render(['--set', 'agent.taint.policy=bootstrap', '--set', 'agent.taint.bootstrapKey=example.com/registering']);
    const args = findManifest<V1DaemonSet>(objects, 'DaemonSet').spec?.template.spec?.containers[0]?.args;
    expect(args).toContain('--taint-policy=bootstrap');
    expect(args).toContain('--bootstrap-taint-key=example.com/registering');
    const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'virtgate-agent-node');
    expect(policy.spec?.variables).toContainEqual({ name: 'bootstrapKey', expression: "'example.com/registering'" });
  });
});

describe('helm template with every option on', () => {
  it('renders every optional object, in the created namespace, with the one prefix everywhere', async () => {
    const objects = await render(['-f', ALL_ON_VALUES]);
    const byKind = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
    expect(byKind('Namespace')).toEqual(['virtgate-all-on']);
    expect(byKind('ServiceMonitor')).toEqual(['vg-aggregator']);
    expect(byKind('PodMonitor')).toEqual(['vg-agent']);
    expect(byKind('PrometheusRule')).toEqual(['vg']);
    expect(byKind('ConfigMap').sort()).toEqual(['vg-dashboard', 'vg-versions']);
    expect(byKind('Ingress')).toEqual(['vg-aggregator']);
    expect(byKind('HTTPRoute')).toEqual(['vg-aggregator']);

    const namespace = findManifest<V1Namespace>(objects, 'Namespace');
    expect(namespace.metadata?.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'privileged', team: 'platform' });
    // Workloads go to the created namespace; the prune hook to the release namespace, which outlives the uninstall.
    for (const object of objects) {
      if (!object.metadata.namespace || object.metadata.namespace === 'default') continue;
      const expected = object.metadata.name === 'vg-prune' ? 'virtgate' : 'virtgate-all-on';
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(expected);
      expect(object.metadata.labels?.['cost-center'], `${object.kind}/${object.metadata.name}`).toBe('infra');
    }

    const agent = findManifest<V1DaemonSet>(objects, 'DaemonSet', 'vg-agent').spec?.template.spec;
    expect(agent?.containers[0]?.image).toBe(`registry.example.com/virtgate-agent@sha256:${'0'.repeat(64)}`);
    expect(agent?.containers[0]?.args).toEqual([
      'agent',
      '--host-root=/host',
      '--prefix=nodes.example.com',
      '--interval=2m',
      '--jitter=0.1',
      '--heartbeat=15m',
      '--port=8080',
      '--request-timeout=20s',
      '--publish-failure-threshold=2m',
      '--allow-emulation',
      '--min-kernel=5.14',
      '--no-vhv',
      '--vhv-timeout=30s',
      '--taint-policy=not-ready',
      '--taint-pool-selector=node-role.kubernetes.io/virt=',
      '--taint-effect=NoExecute',
      '--allow-no-execute',
      '--taint-max-share=0.25',
      '--watch-timeout=5m',
      '--watch-stale-after=6m',
      '--watch-backoff-base=1s',
      '--watch-backoff-max=30s',
      '--shutdown-grace=20s',
      '--log-level=debug',
      '--vhv-command=/opt/libvirt/bin/virt-host-validate',
    ]);
    expect(agent?.serviceAccountName).toBe('custom-agent');
    expect(agent?.priorityClassName).toBe('virtgate-agents');
    expect(agent?.imagePullSecrets).toEqual([{ name: 'mirror-cred' }, { name: 'regcred' }]);
    expect(agent?.containers[0]?.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 60, timeoutSeconds: 5, failureThreshold: 5 });
    const agentSet = findManifest<V1DaemonSet>(objects, 'DaemonSet', 'vg-agent').spec;
    expect(agentSet?.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(agentSet?.revisionHistoryLimit).toBe(3);
    expect(agent?.securityContext).toEqual({ seccompProfile: { type: 'Unconfined' } });
    expect(agent?.containers[0]?.securityContext).toEqual({ privileged: true, readOnlyRootFilesystem: true });
    expect(agent?.containers[0]?.env?.slice(-2)).toEqual([
      { name: 'HTTPS_PROXY', value: 'http://proxy.example.com:3128' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
    expect(agent?.containers[0]?.env?.[0]?.name).toBe('NODE_NAME');
    expect(agent?.volumes).toContainEqual({ name: 'ca', configMap: { name: 'corporate-ca' } });
    expect(agent?.containers[0]?.volumeMounts).toContainEqual({ name: 'ca', mountPath: '/etc/ssl/corporate', readOnly: true });
    expect(agent?.volumes?.length).toBe(5);

    const aggregatorDeployment = findManifest<V1Deployment>(objects, 'Deployment', 'vg-aggregator').spec;
    expect(aggregatorDeployment?.strategy).toEqual({ type: 'Recreate' });
    expect(aggregatorDeployment?.revisionHistoryLimit).toBe(2);
    const aggregatorPod = aggregatorDeployment?.template.spec;
    expect(aggregatorPod?.containers[0]?.image).toBe('registry.example.com/virtgate-aggregator:0.1.0-rc1');
    expect(aggregatorPod?.topologySpreadConstraints).toEqual([
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: aggregatorDeployment?.selector.matchLabels } },
    ]);
    expect(aggregatorPod?.containers[0]?.readinessProbe).toEqual({ httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10, timeoutSeconds: 5, initialDelaySeconds: 5 });
    expect(aggregatorPod?.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 2000, runAsGroup: 2000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } });
    expect(aggregatorPod?.containers[0]?.env).toEqual([
      { name: 'NODE_OPTIONS', value: '--max-semi-space-size=8' },
      { name: 'HTTPS_PROXY', value: 'http://proxy.example.com:3128' },
    ]);
    expect(aggregatorPod?.volumes?.map((v) => v.name)).toEqual(['tmp', 'versions', 'ca']);
    expect(aggregatorPod?.containers[0]?.volumeMounts?.map((m) => m.mountPath)).toEqual(['/tmp', '/etc/virtgate', '/etc/ssl/corporate']);

    const budget = findManifest<V1PodDisruptionBudget>(objects, 'PodDisruptionBudget', 'vg-aggregator').spec;
    expect(budget?.minAvailable).toBe(1);
    expect(budget?.maxUnavailable).toBeUndefined();
    expect(budget?.unhealthyPodEvictionPolicy).toBe('IfHealthyBudget');
    // As rendered (client-node's V1NetworkPolicy calls `from` `_from`).
    const networkPolicy = findManifest<{ spec: { podSelector: { matchLabels: Record<string, string> }; policyTypes: string[]; ingress: Array<{ from: Array<{ podSelector?: { matchLabels: Record<string, string> } }> }> } }>(
      objects,
      'NetworkPolicy',
      'vg-aggregator',
    );
    expect(networkPolicy.spec?.podSelector.matchLabels).toEqual(aggregatorDeployment?.selector.matchLabels);
    expect(networkPolicy.spec?.policyTypes).toEqual(['Ingress']);
    expect(networkPolicy.spec?.ingress).toEqual([
      {
        ports: [{ port: 'http', protocol: 'TCP' }],
        from: [
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'virtgate', 'app.kubernetes.io/instance': 'virtgate', 'app.kubernetes.io/component': 'test' } } },
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
        ],
      },
    ]);
    // The peer the policy admits is the test Pod.
    expect(findManifest<V1Pod>(objects, 'Pod', 'vg-test').metadata?.labels).toMatchObject(networkPolicy.spec.ingress[0]?.from[0]?.podSelector?.matchLabels ?? { missing: 'labels' });

    const serviceMonitor = findManifest<{ spec: { endpoints: unknown[] } }>(objects, 'ServiceMonitor', 'vg-aggregator');
    expect(serviceMonitor.spec.endpoints).toEqual([
      {
        port: 'http',
        path: '/metrics',
        interval: '30s',
        scrapeTimeout: '10s',
        honorLabels: true,
        relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' }],
        metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'virtgate_aggregator_lists_total', action: 'drop' }],
      },
    ]);
    const podMonitor = findManifest<{ spec: { podMetricsEndpoints: unknown[] } }>(objects, 'PodMonitor', 'vg-agent');
    expect(podMonitor.spec.podMetricsEndpoints).toEqual([
      {
        port: 'http',
        path: '/metrics',
        interval: '30s',
        scrapeTimeout: '20s',
        relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'instance' }],
        metricRelabelings: [{ regex: 'pod', action: 'labeldrop' }],
      },
    ]);
    const rules = findManifest<{ spec: { groups: Array<{ rules: Array<{ alert: string; labels: Record<string, string>; annotations: Record<string, string> }> }> } }>(
      objects,
      'PrometheusRule',
      'vg',
    ).spec.groups[0]?.rules ?? [];
    expect(rules.map((rule) => rule.alert)).not.toContain('VirtgateMetricsAbsent');
    expect(rules.length).toBe(6);
    for (const rule of rules) {
      expect(rule.labels.team, rule.alert).toBe('platform');
      expect(rule.annotations.runbook_url, rule.alert).toBe(`https://wiki.example.com/virtgate#${rule.alert.toLowerCase()}`);
    }
    const testPod = findManifest<V1Pod>(objects, 'Pod', 'vg-test').spec;
    expect(testPod?.containers[0]?.resources).toEqual({ requests: { cpu: '5m', memory: '32Mi' }, limits: { memory: '96Mi' } });
    expect(testPod?.containers[0]?.args).toContain('--versions=/etc/virtgate/versions.yaml');
    expect(testPod?.volumes).toEqual([{ name: 'versions', configMap: { name: 'vg-versions' } }]);
    expect(testPod?.imagePullSecrets).toEqual([{ name: 'mirror-cred' }, { name: 'regcred' }]);

    const aggregator = findManifest<V1Deployment>(objects, 'Deployment', 'vg-aggregator').spec?.template;
    expect(aggregator?.spec?.containers[0]?.args).toContain('--versions=/etc/virtgate/versions.yaml');
    expect(aggregator?.spec?.containers[0]?.args).toContain('--prefix=nodes.example.com');
    expect(aggregator?.spec?.containers[0]?.volumeMounts).toContainEqual({ name: 'versions', mountPath: '/etc/virtgate', readOnly: true });
    expect(aggregator?.spec?.volumes).toContainEqual({ name: 'versions', configMap: { name: 'vg-versions' } });
    expect(aggregator?.metadata?.annotations?.['checksum/versions']).toMatch(/^[a-f0-9]{64}$/);
    expect(findManifest<V1ConfigMap>(objects, 'ConfigMap', 'vg-versions').data?.['versions.yaml']).toContain('schemaVersion: 1');

    const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'vg-agent-node');
    expect(policy.spec?.variables).toContainEqual({ name: 'prefix', expression: "'nodes.example.com/'" });
    expect(policy.spec?.matchConditions?.[0]?.expression).toBe("request.userInfo.username == 'system:serviceaccount:virtgate-all-on:custom-agent'");
    // allowNoExecute is on: no rule against adding a NoExecute taint.
    expect(policy.spec?.validations?.some((v) => v.expression.includes('NoExecute'))).toBe(false);
    expect(findManifest<V1Job>(objects, 'Job', 'vg-prune').spec?.template.spec?.containers[0]?.args).toEqual(['prune', '--prefix=nodes.example.com']);
  });

  it('embeds the Grafana dashboard from the chart, as valid JSON', async () => {
    const objects = await render(['-f', ALL_ON_VALUES]);
    const configMap = findManifest<V1ConfigMap>(objects, 'ConfigMap', 'vg-dashboard');
    expect(configMap.metadata?.labels?.grafana_dashboard).toBe('1');
    const shipped = await readFile(path.join(PACKAGE_ROOT, 'charts/virtgate/dashboards/virtgate.json'), 'utf8');
    expect(JSON.parse(configMap.data?.['virtgate.json'] ?? '')).toEqual(JSON.parse(shipped));
  });
});
