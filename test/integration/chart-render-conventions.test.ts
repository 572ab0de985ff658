/**
 * The Helm conventions users of kube-prometheus-stack's and Bitnami's charts expect, rendered by
 * the real helm: image registries, pull Secrets, ServiceAccounts, rbac.create, probe timings,
 * topology spread, the Ingress and HTTPRoute, and the Artifact Hub metadata.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { V1DaemonSet, V1Deployment, V1Ingress, V1Job, V1Pod, V1PodSpec, V1ClusterRoleBinding, V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { CHART_DIR, findManifest, helm, type Manifest, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';

const cp = useControlPlane();
const render = (args: string[] = []) => renderChart(cp.binDir, args);
const DIGEST = `sha256:${'a'.repeat(64)}`;

/** Every pod the chart renders, by its object: the agent, the aggregator, the prune Job and the test Pod. */
function podSpecs(objects: Manifest[]): Record<string, V1PodSpec | undefined> {
  return {
    agent: findManifest<V1DaemonSet>(objects, 'DaemonSet').spec?.template.spec,
    aggregator: findManifest<V1Deployment>(objects, 'Deployment').spec?.template.spec,
    prune: findManifest<V1Job>(objects, 'Job').spec?.template.spec,
    test: findManifest<V1Pod>(objects, 'Pod').spec,
  };
}

async function images(args: string[]): Promise<Record<string, string | undefined>> {
  return Object.fromEntries(Object.entries(podSpecs(await render(args))).map(([pod, spec]) => [pod, spec?.containers[0]?.image]));
}

async function refusal(args: string[]): Promise<string> {
  const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, ...args]);
  expect(outcome.code, args.join(' ')).not.toBe(0);
  return outcome.stderr;
}

describe('image references', () => {
  it('default to ghcr.io, the repository and the appVersion, in every pod', async () => {
    expect(await images([])).toEqual({
      agent: 'ghcr.io/virtgate/virtgate-agent:0.1.0',
      aggregator: 'ghcr.io/virtgate/virtgate-aggregator:0.1.0',
      prune: 'ghcr.io/virtgate/virtgate-aggregator:0.1.0',
      test: 'ghcr.io/virtgate/virtgate-aggregator:0.1.0',
    });
  });

  it('take global.imageRegistry over each image.registry, for every pod', async () => {
    expect(await images(['--set', 'global.imageRegistry=mirror.example.com:5000', '--set', 'agent.image.registry=ignored.example.com'])).toEqual({
      agent: 'mirror.example.com:5000/virtgate/virtgate-agent:0.1.0',
      aggregator: 'mirror.example.com:5000/virtgate/virtgate-aggregator:0.1.0',
      prune: 'mirror.example.com:5000/virtgate/virtgate-aggregator:0.1.0',
      test: 'mirror.example.com:5000/virtgate/virtgate-aggregator:0.1.0',
    });
  });

  it('take each image.registry, tag and digest on their own', async () => {
    expect(
      await images([
        '--set', 'agent.image.registry=registry.example.com/mirror',
        '--set', 'agent.image.tag=1.2.3',
        '--set', 'aggregator.image.registry=',
        '--set', `aggregator.image.digest=${DIGEST}`,
      ]),
    ).toEqual({
      agent: 'registry.example.com/mirror/virtgate/virtgate-agent:1.2.3',
      aggregator: `virtgate/virtgate-aggregator@${DIGEST}`,
      prune: `virtgate/virtgate-aggregator@${DIGEST}`,
      test: `virtgate/virtgate-aggregator@${DIGEST}`,
    });
  });

  it('use a repository that names its own registry host whole, as values written before image.registry did', async () => {
    const named = await images([
      '--set', 'global.imageRegistry=mirror.example.com',
      '--set', 'agent.image.repository=localhost/virtgate-agent',
      '--set', 'aggregator.image.repository=registry.internal:5000/virtgate-aggregator',
    ]);
    expect(named.agent).toBe('localhost/virtgate-agent:0.1.0');
    expect(named.aggregator).toBe('registry.internal:5000/virtgate-aggregator:0.1.0');
    // A first path part without a dot or port is a namespace in the registry, not a host.
    expect((await images(['--set', 'agent.image.repository=team/virtgate-agent'])).agent).toBe('ghcr.io/team/virtgate-agent:0.1.0');
  });

  it('refuse a registry that is no host', async () => {
    expect(await refusal(['--set', 'global.imageRegistry=https://mirror.example.com'])).toContain("at '/global/imageRegistry'");
    expect(await refusal(['--set', 'agent.image.registry=mirror example'])).toContain("at '/agent/image/registry'");
  });
});

describe('imagePullSecrets', () => {
  it('take objects and plain names, global ones first, in every pod', async () => {
    const objects = await render([
      '--set', 'global.imagePullSecrets[0].name=mirror-cred',
      '--set', 'imagePullSecrets[0].name=regcred',
      '--set', 'imagePullSecrets[1]=legacy-cred',
    ]);
    for (const [pod, spec] of Object.entries(podSpecs(objects))) {
      expect(spec?.imagePullSecrets, pod).toEqual([{ name: 'mirror-cred' }, { name: 'regcred' }, { name: 'legacy-cred' }]);
    }
    for (const [pod, spec] of Object.entries(podSpecs(await render()))) expect(spec?.imagePullSecrets, pod).toBeUndefined();
  });

  it('refuse an object without a name', async () => {
    expect(await refusal(['--set', 'imagePullSecrets[0].nam=regcred'])).toContain("at '/imagePullSecrets/0'");
  });
});

describe('serviceAccount.create', () => {
  it('false: no ServiceAccount of that component, and the pods, bindings and admission policy use the named one', async () => {
    const objects = await render([
      '--set', 'agent.serviceAccount.create=false', '--set', 'agent.serviceAccount.name=platform-agent',
      '--set', 'aggregator.serviceAccount.create=false', '--set', 'aggregator.serviceAccount.name=platform-aggregator',
    ]);
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name).sort()).toEqual(['virtgate-prune', 'virtgate-test']);
    const pods = podSpecs(objects);
    expect(pods.agent?.serviceAccountName).toBe('platform-agent');
    expect(pods.aggregator?.serviceAccountName).toBe('platform-aggregator');
    expect(findManifest<V1ClusterRoleBinding>(objects, 'ClusterRoleBinding', 'virtgate-agent').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'platform-agent', namespace: 'virtgate' },
    ]);
    expect(findManifest<V1ClusterRoleBinding>(objects, 'ClusterRoleBinding', 'virtgate-aggregator').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'platform-aggregator', namespace: 'virtgate' },
    ]);
    const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'virtgate-agent-node');
    expect(policy.spec?.matchConditions?.[0]?.expression).toBe("request.userInfo.username == 'system:serviceaccount:virtgate:platform-agent'");
  });

  it('true (the default): both ServiceAccounts, with their annotations', async () => {
    const objects = await render(['--set', 'aggregator.serviceAccount.annotations.example\\.com/role=reader']);
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name).sort()).toEqual([
      'virtgate-agent',
      'virtgate-aggregator',
      'virtgate-prune',
      'virtgate-test',
    ]);
    expect(findManifest(objects, 'ServiceAccount', 'virtgate-aggregator').metadata.annotations).toEqual({ 'example.com/role': 'reader' });
  });

  it('false without a name is refused: the pods would run as the namespace default', async () => {
    expect(await refusal(['--set', 'agent.serviceAccount.create=false'])).toContain("at '/agent/serviceAccount'");
  });
});

describe('rbac.create', () => {
  const RBAC_KINDS = ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];

  it('false: no Role, ClusterRole or binding at all, hooks included; the ServiceAccounts and admission policies stay', async () => {
    const withRbac = await render();
    expect(withRbac.filter((o) => RBAC_KINDS.includes(o.kind)).length).toBe(10);
    const objects = await render(['--set', 'rbac.create=false']);
    expect(objects.filter((o) => RBAC_KINDS.includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    expect(objects.filter((o) => o.kind === 'ServiceAccount').length).toBe(4);
    expect(objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy').length).toBe(3);
    expect(findManifest<V1Job>(objects, 'Job', 'virtgate-prune').spec?.template.spec?.serviceAccountName).toBe('virtgate-prune');
  });
});

describe('probe timings', () => {
  it('default to the chart\'s, and values merge over them; the handler stays the chart\'s', async () => {
    const defaults = podSpecs(await render());
    expect(defaults.agent?.containers[0]?.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 3 });
    expect(defaults.agent?.containers[0]?.readinessProbe).toEqual({ httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10, timeoutSeconds: 5 });
    expect(defaults.aggregator?.containers[0]?.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 3 });

    const tuned = podSpecs(
      await render([
        '--set', 'agent.livenessProbe.periodSeconds=60',
        '--set', 'agent.livenessProbe.initialDelaySeconds=15',
        '--set', 'aggregator.readinessProbe.failureThreshold=6',
        '--set', 'aggregator.readinessProbe.timeoutSeconds=null',
      ]),
    );
    expect(tuned.agent?.containers[0]?.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 60, timeoutSeconds: 5, failureThreshold: 3, initialDelaySeconds: 15 });
    expect(tuned.agent?.containers[0]?.readinessProbe).toEqual(defaults.agent?.containers[0]?.readinessProbe);
    expect(tuned.aggregator?.containers[0]?.readinessProbe).toEqual({ httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10, failureThreshold: 6 });
  });

  it('refuse a handler of their own and a period of zero', async () => {
    expect(await refusal(['--set', 'agent.livenessProbe.httpGet.path=/metrics'])).toContain("at '/agent/livenessProbe': additional properties 'httpGet' not allowed");
    expect(await refusal(['--set', 'aggregator.readinessProbe.periodSeconds=0'])).toContain("at '/aggregator/readinessProbe/periodSeconds'");
  });
});

describe('aggregator.topologySpreadConstraints', () => {
  it('gives a constraint without a labelSelector the aggregator pods\' own, and keeps one that has it', async () => {
    const objects = await render([
      '--set', 'aggregator.topologySpreadConstraints[0].maxSkew=1',
      '--set', 'aggregator.topologySpreadConstraints[0].topologyKey=topology.kubernetes.io/zone',
      '--set', 'aggregator.topologySpreadConstraints[0].whenUnsatisfiable=ScheduleAnyway',
      '--set', 'aggregator.topologySpreadConstraints[1].maxSkew=2',
      '--set', 'aggregator.topologySpreadConstraints[1].topologyKey=kubernetes.io/hostname',
      '--set', 'aggregator.topologySpreadConstraints[1].whenUnsatisfiable=DoNotSchedule',
      '--set', 'aggregator.topologySpreadConstraints[1].labelSelector.matchLabels.team=virt',
    ]);
    const deployment = findManifest<V1Deployment>(objects, 'Deployment');
    expect(deployment.spec?.template.spec?.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'virtgate', 'app.kubernetes.io/instance': 'virtgate', 'app.kubernetes.io/component': 'aggregator' } },
      },
      { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { team: 'virt' } } },
    ]);
    // The default selector is the Deployment's own: the constraint counts exactly its pods.
    expect(deployment.spec?.template.spec?.topologySpreadConstraints?.[0]?.labelSelector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    expect((await render()).some((o) => JSON.stringify(o).includes('topologySpreadConstraints'))).toBe(false);
  });

  it('refuses a constraint without its required fields', async () => {
    expect(await refusal(['--set', 'aggregator.topologySpreadConstraints[0].maxSkew=1'])).toContain("at '/aggregator/topologySpreadConstraints/0'");
  });
});

describe('the aggregator page through an Ingress or an HTTPRoute', () => {
  it('renders neither by default', async () => {
    const kinds = (await render()).map((o) => o.kind);
    expect(kinds).not.toContain('Ingress');
    expect(kinds).not.toContain('HTTPRoute');
  });

  it('renders the Ingress to the aggregator Service\'s http port, with class, TLS and annotations', async () => {
    const objects = await render([
      '--set', 'aggregator.ingress.enabled=true',
      '--set', 'aggregator.ingress.className=nginx',
      '--set', 'aggregator.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/auth-url=https://auth.example.com',
      '--set', 'aggregator.ingress.hosts[0].host=virtgate.example.org',
      '--set', 'aggregator.ingress.hosts[0].paths[0].path=/',
      '--set', 'aggregator.ingress.tls[0].hosts[0]=virtgate.example.org',
      '--set', 'aggregator.ingress.tls[0].secretName=virtgate-tls',
    ]);
    const ingress = findManifest<V1Ingress>(objects, 'Ingress', 'virtgate-aggregator');
    expect(ingress.metadata?.namespace).toBe('virtgate');
    expect(ingress.metadata?.annotations).toEqual({ 'nginx.ingress.kubernetes.io/auth-url': 'https://auth.example.com' });
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ hosts: ['virtgate.example.org'], secretName: 'virtgate-tls' }],
      rules: [
        {
          host: 'virtgate.example.org',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'virtgate-aggregator', port: { name: 'http' } } } }] },
        },
      ],
    });
    // The backend is the chart's Service, and its port is named http.
    const service = findManifest<{ spec: { ports: Array<{ name: string }> } }>(objects, 'Service', 'virtgate-aggregator');
    expect(service.spec.ports.map((port) => port.name)).toContain('http');
  });

  it('renders the HTTPRoute to the Service port, attached to the given Gateway, and refuses one without a Gateway', async () => {
    const objects = await render([
      '--set', 'aggregator.httpRoute.enabled=true',
      '--set', 'aggregator.httpRoute.parentRefs[0].name=public',
      '--set', 'aggregator.httpRoute.parentRefs[0].namespace=gateways',
      '--set', 'aggregator.httpRoute.hostnames[0]=virtgate.example.org',
      '--set', 'aggregator.service.port=9090',
    ]);
    const route = findManifest<{ apiVersion: string; spec: unknown }>(objects, 'HTTPRoute', 'virtgate-aggregator');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'public', namespace: 'gateways' }],
      hostnames: ['virtgate.example.org'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'virtgate-aggregator', port: 9090 }] }],
    });
    expect(await refusal(['--set', 'aggregator.httpRoute.enabled=true'])).toContain("at '/aggregator/httpRoute/parentRefs'");
  });
});

describe('Chart.yaml for Artifact Hub', () => {
  const chartYaml = async () =>
    parse(await readFile(path.join(PACKAGE_ROOT, 'charts/virtgate/Chart.yaml'), 'utf8')) as {
      icon?: string;
      maintainers?: Array<{ name: string }>;
      annotations: Record<string, string>;
    };

  it('lists the images the chart renders by default', async () => {
    const listed = (parse((await chartYaml()).annotations['artifacthub.io/images'] ?? '[]') as Array<{ name: string; image: string }>).map((entry) => entry.image);
    expect(listed).toEqual(['ghcr.io/virtgate/virtgate-agent:0.1.0', 'ghcr.io/virtgate/virtgate-aggregator:0.1.0']);
    expect(new Set(Object.values(await images([])))).toEqual(new Set(listed));
  });

  it('lists the CRD the chart renders', async () => {
    const [listed] = parse((await chartYaml()).annotations['artifacthub.io/crds'] ?? '[]') as Array<{ kind: string; version: string; name: string }>;
    const crd = findManifest<Manifest & { spec: { names: { kind: string }; versions: Array<{ name: string }> } }>(await render(), 'CustomResourceDefinition');
    expect(listed).toMatchObject({ kind: 'NodeValidation', version: 'v1alpha1', name: 'nodevalidations.virtgate.io' });
    expect([crd.metadata.name, crd.spec.names.kind, crd.spec.versions.map((v) => v.name)]).toEqual([listed?.name, listed?.kind, [listed?.version]]);
  });

  it('has an icon, maintainers, a license and changes of known kinds', async () => {
    const chart = await chartYaml();
    expect(chart.icon).toMatch(/^https:\/\/.+\.svg$/);
    expect(chart.maintainers?.length).toBeGreaterThan(0);
    expect(chart.annotations['artifacthub.io/license']).toBe('Apache-2.0');
    const changes = parse(chart.annotations['artifacthub.io/changes'] ?? '[]') as Array<{ kind: string; description: string }>;
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) expect(['added', 'changed', 'deprecated', 'removed', 'fixed', 'security']).toContain(change.kind);
  });
});
