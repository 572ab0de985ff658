/**
 * The chart as a user installs it (`helm install` with only image and pullPolicy values), on a
 * real kubelet node on this machine, with both images built from the repository's Dockerfiles:
 * the agent pod probes this machine through the chart's host mounts and publishes with the
 * token the kubelet projects into it; the aggregator answers through its Service; the real
 * Prometheus scrapes both pods at their pod addresses and loads the chart's rules; `helm upgrade`
 * rolls the agent without the node's labels flapping; `helm test` runs the chart's hook Pod, which
 * finds the aggregator by its Service name through the node's cluster DNS (CoreDNS), and fails
 * when the aggregator is down; `helm uninstall` runs the real post-delete prune Job. No packet
 * from a pod leaves the machine. What the agent publishes is held to this machine as the test reads
 * it for itself (host-truth.ts), never to anything virtgate computes.
 */
import { AppsV1Api, AuthorizationV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keysUnder, mergePatch, nodeView, refusal } from '../lab/chart/cluster.ts';
import { CHART_DIR, findManifest, helm, helmComplaints, helmOk, renderChart } from '../lab/chart/helm.ts';
import { AuditLog } from '../lab/controlplane/audit.ts';
import { PrometheusServer } from '../lab/e2e/prometheus-server.ts';
import { statusOfCall as statusOf, waitFor } from '../lab/support/wait.ts';
import { CLUSTER_DOMAIN, DNS_NAMESPACE, DNS_SERVICE } from '../lab/node/cluster-dns.ts';
import { egressCounters } from '../lab/node/counters.ts';
import { NODE_LAYOUT } from '../lab/node/layout.ts';
import { imageValues, isReady, NS, podsOf as podsOfRelease, readyPod as readyPodOf, RELEASE } from '../lab/node/release.ts';
import { statsSummary } from '../lab/node/stats.ts';
import { disagreements, readHost, statusesOf } from './host-truth.ts';

const node = inject('realNode');
const admin = new KubeConfig();
admin.loadFromFile(node.controlPlane.adminKubeconfig);
const core = admin.makeApiClient(CoreV1Api);
const apps = admin.makeApiClient(AppsV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const audit = new AuditLog(node.controlPlane.auditLog);

const PREFIX = 'virtgate.io';
const AGENT_SA = `system:serviceaccount:${NS}:${RELEASE}-agent`;
const PRUNE_SA = `system:serviceaccount:${NS}:${RELEASE}-prune`;
/** `helm test` gives up on an aggregator that does not answer after this long (60 s by default). */
const HELM_TEST_WAIT_SECONDS = 15;
const IMAGE_VALUES = [...imageValues(node.images), '--set', `testFramework.aggregatorWaitSeconds=${HELM_TEST_WAIT_SECONDS}`];
const podsOf = (component: string) => podsOfRelease(core, component);
const readyPod = (component: string) => readyPodOf(core, component);
const WRITES = new Set(['create', 'update', 'patch']);

/** The real kubectl against the node's control plane; its stdout. */
async function kubectl(args: string[]): Promise<string> {
  const result = await execa(`${node.controlPlane.binDir}/kubectl`, ['--kubeconfig', node.controlPlane.adminKubeconfig, ...args], { timeout: 60_000 });
  return result.stdout;
}

let installStarted = 0;
let auditStart = 0;

beforeAll(async () => {
  auditStart = await audit.mark();
});

afterAll(async () => {
  // A failed test must not leave the release (and its agent) behind for the next file.
  await helm(node.controlPlane.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], node.controlPlane.adminKubeconfig);
});

describe('the real node', () => {
  it('is registered by a kubelet with its own system:node certificate, on containerd and runc', async () => {
    const registered = await core.readNode({ name: node.nodeName });
    expect(registered.status?.nodeInfo?.kubeletVersion).toBe('v1.36.3');
    expect(registered.status?.nodeInfo?.containerRuntimeVersion).toMatch(/^containerd:\/\/1\.6\./);
    expect(registered.status?.addresses).toContainEqual({ type: 'InternalIP', address: NODE_LAYOUT.gateway });
    const events = await audit.since(0);
    const nodeWrites = events.filter((e) => e.objectRef?.resource === 'nodes' && e.objectRef.name === node.nodeName && e.verb === 'create');
    expect(nodeWrites.map((e) => [e.user.username, e.user.groups?.includes('system:nodes')])).toContainEqual([`system:node:${node.nodeName}`, true]);
    // NodeRestriction: the kubelet's identity cannot write another Node.
    const kubelet = new KubeConfig();
    kubelet.loadFromFile(`${NODE_LAYOUT.root}/kubelet.kubeconfig`);
    const refused = await kubelet
      .makeApiClient(CoreV1Api)
      .createNode({ body: { metadata: { name: 'not-this-kubelets-node' } } })
      .then(() => 0, (error: { code?: number }) => error.code);
    expect(refused).toBe(403);
  });
});

describe('helm install on the real node', () => {
  it('the agent pod is Running and Ready and labels this node with the token the kubelet projected', async () => {
    installStarted = Date.now();
    const installed = await helmOk(node.controlPlane.binDir, ['install', RELEASE, CHART_DIR, '--namespace', NS, '--create-namespace', ...IMAGE_VALUES], node.controlPlane.adminKubeconfig);
    expect(installed).toContain('STATUS: deployed');
    const labelled = await waitFor('the agent to label the node', async () => {
      const view = await nodeView(core, node.nodeName);
      return view.labels[`${PREFIX}/ready`] !== undefined && view.conditions.VirtualizationReady ? view : undefined;
    }, 240_000, 250);
    const labelledAfterMs = Date.now() - installStarted;
    process.stderr.write(`[node] helm install to labelled node: ${labelledAfterMs} ms\n`);
    expect(labelled.labels[`${PREFIX}/tier`]).toBeDefined();

    const agent = await readyPod('agent');
    expect(agent.spec?.nodeName).toBe(node.nodeName);
    expect(agent.spec?.containers[0]?.image).toBe(node.images.agent.ref);

    // Every write of the agent's ServiceAccount came with a token bound to its pod on this node.
    const writes = (await audit.writesBy(AGENT_SA, auditStart)).filter((e) => (e.responseStatus?.code ?? 0) < 300);
    expect(writes.length).toBeGreaterThan(0);
    const nodeLabelWrite = writes.find((e) => e.objectRef?.resource === 'nodes' && !e.objectRef.subresource);
    expect(nodeLabelWrite, 'a label write on the Node').toBeDefined();
    for (const write of writes) {
      expect(write.user.extra?.['authentication.kubernetes.io/node-name']).toEqual([node.nodeName]);
      expect(write.user.extra?.['authentication.kubernetes.io/pod-name']?.[0]).toMatch(new RegExp(`^${RELEASE}-agent-`));
    }
  });

  it('publishes what this machine is, as the test reads it for itself (direct opens, /proc, Python\'s KVM ioctls), virt-host-validate included', async () => {
    const report = await waitFor('the NodeValidation', async () => {
      const object = (await custom.getClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name: node.nodeName })) as {
        status?: { tier?: string; ready?: boolean; checks?: Array<{ id: string; status: string }> };
      };
      return object.status?.checks ? object.status : undefined;
    }, 60_000);
    const view = await nodeView(core, node.nodeName);
    const published = {
      caller: 'agent' as const,
      tier: report.tier,
      ready: report.ready,
      checks: statusesOf(report.checks),
      labels: { ready: view.labels[`${PREFIX}/ready`], tier: view.labels[`${PREFIX}/tier`] },
      condition: view.conditions.VirtualizationReady,
    };
    expect(disagreements(readHost(), published)).toEqual([]);
    expect(Object.keys(published.checks)).toContain('virt-host-validate');
  });

  it('the aggregator pod is Ready and its API, /metrics and page answer through its Service', async () => {
    const aggregator = await readyPod('aggregator');
    expect(aggregator.spec?.containers[0]?.image).toBe(node.images.aggregator.ref);
    const service = await core.readNamespacedService({ namespace: NS, name: `${RELEASE}-aggregator` });
    const port = service.spec?.ports?.[0]?.port;
    const base = `http://${service.spec?.clusterIP}:${port}`;
    expect(service.spec?.clusterIP).toMatch(/^10\.96\./);
    const summary = await waitFor('the aggregator to count the real node', async () => {
      const res = await fetch(`${base}/api/v1/summary`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { nodes?: { total?: number } };
      return res.ok && body.nodes?.total === 1 ? body : undefined;
    }, 120_000, 1000);
    expect(summary.nodes?.total).toBe(1);
    const node1 = await fetch(`${base}/api/v1/nodes/${node.nodeName}`, { signal: AbortSignal.timeout(5000) });
    expect(node1.status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    expect(metrics).toMatch(/^virtgate_/m);
    const page = await fetch(`${base}/`, { signal: AbortSignal.timeout(5000) });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('the kubelet reports the working set of the agent and aggregator containers', async () => {
    const summary = await statsSummary(admin, node.nodeName);
    for (const component of ['agent', 'aggregator']) {
      const pod = summary.pods.find((p) => p.podRef.namespace === NS && p.podRef.name.startsWith(`${RELEASE}-${component}-`));
      const container = pod?.containers.find((c) => c.name === component);
      const workingSet = container?.memory?.workingSetBytes ?? 0;
      process.stderr.write(
        `[node] ${component} container: working set ${(workingSet / 1048576).toFixed(1)} MiB, cpu ${((container?.cpu?.usageNanoCores ?? 0) / 1e6).toFixed(1)} mcores\n`,
      );
      expect(workingSet, component).toBeGreaterThan(16 * 1048576);
      expect(workingSet, component).toBeLessThan(256 * 1048576);
    }
  });

  // Debian's Prometheus (2.42) is built without Kubernetes service discovery ("field
  // kubernetes_sd_configs not found in type config.ScrapeConfig"), so the targets are what that
  // discovery would find: each pod's IP and its container port named `http`, read from the API.
  it("Prometheus scrapes both pods at the addresses Kubernetes gave them, and loads the chart's alert rules", async () => {
    const objects = await renderChart(node.controlPlane.binDir, ['--set', 'monitoring.prometheusRule.enabled=true']);
    const ruleGroups = findManifest<{ spec: { groups: unknown[] } }>(objects, 'PrometheusRule').spec.groups;
    const jobs = await Promise.all(
      ['agent', 'aggregator'].map(async (component) => {
        const pod = await readyPod(component);
        const port = pod.spec?.containers[0]?.ports?.find((p) => p.name === 'http')?.containerPort;
        expect(pod.status?.podIP, component).toMatch(/^10\.250\.0\./);
        return { job: component, targets: [`${pod.status?.podIP}:${port}`] };
      }),
    );
    const prometheus = await PrometheusServer.start({ jobs, ruleGroups });
    try {
      const up = await waitFor('Prometheus to scrape the agent and the aggregator pod', async () => {
        const samples = await prometheus.query('up == 1');
        const components = samples.map((s) => s.labels.job).sort();
        return components.includes('agent') && components.includes('aggregator') ? components : undefined;
      }, 90_000, 1000);
      expect(up).toEqual(['agent', 'aggregator']);
      expect((await prometheus.query('count(virtgate_node_ready)'))[0]?.value ?? 0).toBeGreaterThan(0);
      const rules = await waitFor('the rules to be evaluated', async () => {
        const loaded = await prometheus.rules();
        return loaded.length > 0 && loaded.every((r) => r.lastEvaluation && !r.lastEvaluation.startsWith('0001')) ? loaded : undefined;
      }, 30_000, 500);
      expect(rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`)).toEqual([]);
      expect(rules.some((r) => r.type === 'alerting')).toBe(true);
    } finally {
      await prometheus.stop();
    }
  });

  it('cluster DNS: a pod finds the aggregator by its Service name, and an outside name is refused by CoreDNS itself, nothing leaving', async () => {
    const before = await egressCounters();
    const aggregator = await readyPod('aggregator');
    const service = await core.readNamespacedService({ namespace: NS, name: `${RELEASE}-aggregator` });
    // Inside the aggregator's container, with the resolv.conf the kubelet wrote (nameserver: the cluster DNS Service).
    const resolved = await kubectl([
      'exec', '--namespace', NS, aggregator.metadata?.name ?? '', '--container', 'aggregator', '--', 'node', '-e',
      `const dns = require('node:dns').promises; const fs = require('node:fs');
       const code = (e) => e.code ?? String(e);
       (async () => {
         const out = { resolvConf: fs.readFileSync('/etc/resolv.conf', 'utf8') };
         out.service = await dns.lookup('${RELEASE}-aggregator.${NS}.svc').then((a) => a.address, code);
         out.outside = await dns.resolve4('example.com').then((a) => a.join(','), code);
         console.log(JSON.stringify(out));
       })();`,
    ]);
    const answer = JSON.parse(resolved) as { resolvConf: string; service: string; outside: string };
    expect(answer.resolvConf).toContain(`nameserver ${NODE_LAYOUT.clusterDns}`);
    expect(answer.resolvConf).toContain(`search ${NS}.svc.${CLUSTER_DOMAIN}`);
    // The address the API gave the Service, not one CoreDNS made up.
    expect(answer.service).toBe(service.spec?.clusterIP);
    // No forward plugin and no server block for other zones: CoreDNS answers REFUSED itself.
    expect(answer.outside).toBe('EREFUSED');
    const dnsService = await core.readNamespacedService({ namespace: DNS_NAMESPACE, name: DNS_SERVICE });
    expect(dnsService.spec?.clusterIP).toBe(NODE_LAYOUT.clusterDns);
    const after = await egressCounters();
    expect(after.egressDropped - before.egressDropped).toBe(0);
    expect(after.outsideAttempts - before.outsideAttempts).toBe(0);
    expect(after.podPacketsSeen).toBeGreaterThan(before.podPacketsSeen);
  });

  it('helm test fails (exit non-zero) with the aggregator scaled to 0; its hook Pod, with its own token, is refused all but listing', async () => {
    await apps.patchNamespacedDeployment({ namespace: NS, name: `${RELEASE}-aggregator`, body: { spec: { replicas: 0 } } }, mergePatch);
    try {
      await waitFor('the aggregator pods to be gone', async () => ((await podsOf('aggregator')).length === 0 ? true : undefined), 120_000, 500);
      const started = Date.now();
      const run = helm(node.controlPlane.binDir, ['test', RELEASE, '--namespace', NS, '--timeout', '4m'], node.controlPlane.adminKubeconfig);
      // While it keeps asking the aggregator (testFramework.aggregatorWaitSeconds), the hook Pod runs with its ServiceAccount in place.
      const hook = await waitFor('the hook Pod to run', async () => {
        const pod = await core.readNamespacedPod({ namespace: NS, name: `${RELEASE}-test` }).catch(() => undefined);
        return pod?.status?.phase === 'Running' ? pod : undefined;
      }, 120_000, 250);
      expect(hook.spec?.nodeName).toBe(node.nodeName);
      expect(hook.spec?.containers[0]?.image).toBe(node.images.aggregator.ref);

      // Least privilege, with a token bound to that very Pod while it runs (what the kubelet projected into it).
      const token = await core.createNamespacedServiceAccountToken({
        namespace: NS,
        name: `${RELEASE}-test`,
        body: { spec: { audiences: [], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: hook.metadata?.name, uid: hook.metadata?.uid } } },
      });
      const asHook = new KubeConfig();
      asHook.loadFromOptions({
        clusters: [{ name: 'node', server: node.controlPlane.server, caFile: node.controlPlane.caFile }],
        users: [{ name: 'hook', token: token.status?.token }],
        contexts: [{ name: 'hook', cluster: 'node', user: 'hook' }],
        currentContext: 'hook',
      });
      const hookCore = asHook.makeApiClient(CoreV1Api);
      expect((await hookCore.listNode()).items.map((n) => n.metadata?.name)).toContain(node.nodeName);
      const denied: Array<[string, () => Promise<unknown>, string]> = [
        ['get one node', () => hookCore.readNode({ name: node.nodeName }), 'cannot get resource "nodes"'],
        ['label a node', () => hookCore.patchNode({ name: node.nodeName, body: { metadata: { labels: { [`${PREFIX}/ready`]: 'true' } } } }, mergePatch), 'cannot patch resource "nodes"'],
        ['read a Secret', () => hookCore.readNamespacedSecret({ namespace: NS, name: 'any' }), 'cannot get resource "secrets"'],
        ['list pods', () => hookCore.listNamespacedPod({ namespace: NS }), 'cannot list resource "pods"'],
        ['list ConfigMaps', () => hookCore.listNamespacedConfigMap({ namespace: NS }), 'cannot list resource "configmaps"'],
        ['delete a NodeValidation', () => asHook.makeApiClient(CustomObjectsApi).deleteClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name: node.nodeName }), 'cannot delete resource "nodevalidations"'],
      ];
      for (const [what, call, message] of denied) {
        const refused = await refusal(call);
        expect(refused.status, what).toBe(403);
        expect(refused.message, what).toContain(`User "system:serviceaccount:${NS}:${RELEASE}-test" ${message}`);
      }
      const review = asHook.makeApiClient(AuthorizationV1Api);
      for (const verb of ['watch', 'get', 'create', 'update', 'patch', 'delete']) {
        const answer = await review.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { resource: 'nodes', verb } } } });
        expect(answer.status?.allowed, `${verb} nodes`).toBe(false);
      }

      const failed = await run;
      process.stderr.write(`[node] helm test with the aggregator down: exit ${failed.code} in ${Date.now() - started} ms\n`);
      expect(failed.code).not.toBe(0);
      expect(`${failed.stdout}${failed.stderr}`).toMatch(new RegExp(`${RELEASE}-test.*failed|Phase:\\s+Failed`));
      // The failed hook Pod stays (hook-delete-policy: hook-succeeded), as its kubelet left it.
      const after = await core.readNamespacedPod({ namespace: NS, name: `${RELEASE}-test` });
      expect(after.status?.phase).toBe('Failed');
      // It asked for as long as the release told it to (its last try starts 3 s before the end),
      // not the default minute: the container's own start and end, to the second.
      const ran = after.status?.containerStatuses?.[0]?.state?.terminated;
      const askedSeconds = (new Date(ran?.finishedAt ?? Number.NaN).getTime() - new Date(ran?.startedAt ?? Number.NaN).getTime()) / 1000;
      expect(askedSeconds).toBeGreaterThanOrEqual(HELM_TEST_WAIT_SECONDS - 4);
      expect(askedSeconds).toBeLessThan(60 - 3);
      const log = await core.readNamespacedPodLog({ namespace: NS, name: `${RELEASE}-test` });
      expect(log).toContain(`the aggregator at http://${RELEASE}-aggregator.${NS}.svc:8080/api/v1/gate does not answer`);
    } finally {
      await apps.patchNamespacedDeployment({ namespace: NS, name: `${RELEASE}-aggregator`, body: { spec: { replicas: 1 } } }, mergePatch);
    }
    await readyPod('aggregator');
  });

  it('helm test passes: the hook Pod runs in the aggregator image on this node, reaches the aggregator by name and reads the cluster', async () => {
    await readyPod('aggregator');
    const mark = await audit.mark();
    const started = Date.now();
    const passed = await helm(node.controlPlane.binDir, ['test', RELEASE, '--namespace', NS, '--timeout', '4m'], node.controlPlane.adminKubeconfig);
    const tookMs = Date.now() - started;
    process.stderr.write(`[node] helm test passed in ${tookMs} ms\n`);
    expect(helmComplaints(passed.stderr)).toBe('');
    expect(passed.stdout).toMatch(new RegExp(`TEST SUITE:\\s+${RELEASE}-test`));
    expect(passed.stdout).toMatch(/Phase:\s+Succeeded/);
    expect(passed.code).toBe(0);
    // Nothing wrote the Pod's phase but its kubelet: the hook's status writes came from this node.
    const events = await audit.since(mark);
    const statusWriters = new Set(events.filter((e) => e.objectRef?.resource === 'pods' && e.objectRef.name === `${RELEASE}-test` && e.objectRef.subresource === 'status' && WRITES.has(e.verb)).map((e) => e.user.username));
    expect([...statusWriters]).toEqual([`system:node:${node.nodeName}`]);
    // The hook ran `virtgate gate` with its ServiceAccount's token, bound to its pod on this node.
    const reads = events.filter((e) => e.user.username === `system:serviceaccount:${NS}:${RELEASE}-test` && e.verb === 'list' && e.objectRef?.resource === 'nodes');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]?.user.extra?.['authentication.kubernetes.io/node-name']).toEqual([node.nodeName]);
    // hook-succeeded: helm removed the Pod and the hook's ServiceAccount and ClusterRole (the failed run's too).
    await waitFor('helm to delete the succeeded hook objects', async () =>
      (await statusOf(() => core.readNamespacedPod({ namespace: NS, name: `${RELEASE}-test` }))) === 404 &&
      (await statusOf(() => core.readNamespacedServiceAccount({ namespace: NS, name: `${RELEASE}-test` }))) === 404 &&
      (await statusOf(() => admin.makeApiClient(RbacAuthorizationV1Api).readClusterRole({ name: `${RELEASE}-test` }))) === 404
        ? true
        : undefined,
    30_000, 250);
  });

  it('helm upgrade with a changed value rolls the agent, and the node keeps its labels throughout', async () => {
    const before = await nodeView(core, node.nodeName);
    const [oldPod] = (await podsOf('agent')).filter(isReady);
    const flaps: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const view = await nodeView(core, node.nodeName);
        for (const key of ['ready', 'tier']) {
          if (view.labels[`${PREFIX}/${key}`] !== before.labels[`${PREFIX}/${key}`]) flaps.push(`${key}=${view.labels[`${PREFIX}/${key}`]}`);
        }
        if (view.conditions.VirtualizationReady !== before.conditions.VirtualizationReady) flaps.push(`condition=${view.conditions.VirtualizationReady}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      await helmOk(node.controlPlane.binDir, ['upgrade', RELEASE, CHART_DIR, '--namespace', NS, ...IMAGE_VALUES, '--set', 'agent.logLevel=debug'], node.controlPlane.adminKubeconfig);
      const newPod = await waitFor('the rolled agent pod to be Ready', async () =>
        (await podsOf('agent')).find((p) => isReady(p) && p.metadata?.name !== oldPod?.metadata?.name && !p.metadata?.deletionTimestamp), 240_000, 500);
      expect(newPod.spec?.containers[0]?.args).toContain('--log-level=debug');
      const daemonSet = await apps.readNamespacedDaemonSet({ namespace: NS, name: `${RELEASE}-agent` });
      expect(daemonSet.status?.updatedNumberScheduled).toBe(1);
      // The new agent's first probe cycle and publish, seen through the labels staying put.
      await new Promise((resolve) => setTimeout(resolve, 5000));
    } finally {
      watching = false;
      await watcher;
    }
    expect(flaps).toEqual([]);
  });

  it('no packet from a pod left through another interface, or was even addressed outside the node', async () => {
    const counters = await egressCounters();
    expect(counters.egressDropped).toBe(0);
    expect(counters.outsideAttempts).toBe(0);
    // The attempt counter sits in the pods' path: it saw their traffic to the API server.
    expect(counters.podPacketsSeen).toBeGreaterThan(0);
  });

  it('helm uninstall runs the real post-delete prune Job to completion; nothing under virtgate.io/ is left', async () => {
    const mark = await audit.mark();
    const outcome = await helm(node.controlPlane.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '4m'], node.controlPlane.adminKubeconfig);
    expect(helmComplaints(outcome.stderr)).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`release "${RELEASE}" uninstalled`);
    // The Job's pod ran here, under the kubelet: its writes carry a token bound to a prune pod on this node.
    const pruneWrites = (await audit.writesBy(PRUNE_SA, mark)).filter((e) => (e.responseStatus?.code ?? 0) < 300);
    expect(pruneWrites.some((e) => e.objectRef?.resource === 'nodes')).toBe(true);
    for (const write of pruneWrites) {
      expect(write.user.extra?.['authentication.kubernetes.io/node-name']).toEqual([node.nodeName]);
      expect(write.user.extra?.['authentication.kubernetes.io/pod-name']?.[0]).toMatch(new RegExp(`^${RELEASE}-prune-`));
    }
    // hook-succeeded: helm deleted the Job once it completed.
    const jobs = await admin.makeApiClient(BatchV1Api).listNamespacedJob({ namespace: NS });
    expect(jobs.items.map((j) => j.metadata?.name)).toEqual([]);
    const view = await nodeView(core, node.nodeName);
    expect(keysUnder(PREFIX, view)).toEqual([]);
    expect(view.conditions.VirtualizationReady).toBeUndefined();
    const reports = (await custom.listClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations' })) as { items: unknown[] };
    expect(reports.items).toEqual([]);
  });
});
