/**
 * virtgate's cluster claims on three real kubelet nodes (test/lab/cluster): the chart installed
 * once, its DaemonSet's agent on each node probing that node's own host, and the aggregator's
 * count of the cluster. The third node's mount namespace hides /dev/net/tun (and /dev/kvm where
 * the machine has it) from everything on it, so its agent finds a host that cannot run VMs; later
 * a second node loses /dev/net/tun while it runs. No test writes a virtgate label, condition or
 * report: every expectation below is this file's own (which node lacks what, and what the
 * machine's KVM can do as host-truth.ts reads it), never something virtgate computed.
 */
import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeView } from '../lab/chart/cluster.ts';
import { CHART_DIR, helm, helmOk } from '../lab/chart/helm.ts';
import { hideDevice, restoreDevice } from '../lab/cluster/cluster.ts';
import { clusterEgressCounters } from '../lab/cluster/counters.ts';
import { CLUSTER_LAYOUT } from '../lab/cluster/layout.ts';
import { type ClusterContext, useCluster } from '../lab/cluster/use.ts';
import { AuditLog } from '../lab/controlplane/audit.ts';
import { imageValues, isReady, RELEASE } from '../lab/node/release.ts';
import { launchChromium } from '../lab/support/chromium.ts';
import { waitFor } from '../lab/support/wait.ts';
import { readHost } from '../node/host-truth.ts';

let cluster: ClusterContext;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let audit: AuditLog;

const NS = `${CLUSTER_LAYOUT.namespacePrefix}virtgate`;
const AGENT_SA = `system:serviceaccount:${NS}:${RELEASE}-agent`;
const [FIRST, SECOND, THIRD] = CLUSTER_LAYOUT.nodes.map((n) => n.name) as [string, string, string];
const TAINT = 'virtgate.io/not-ready';
/** Hand-written: what the layout hides on the third node, and what this file hides on the second. */
const TUN = '/dev/net/tun';
/** The state the two whole nodes reach: this machine's KVM as the test reads it for itself. */
const WHOLE_NODE_STATE = readHost().kvmUsable ? 'ready' : 'emulation';
const INTERVAL_SECONDS = 10;

interface Readiness {
  total: number;
  counts: Record<string, number>;
  readyRatio: number;
  nodes: Array<{ name: string; state: string; reason: string; failingChecks: Array<{ id: string; status: string; message: string }> }>;
}

interface Report {
  status?: { ready?: boolean; taint?: { refused?: string | null; applied?: boolean } };
}

let base = '';
let auditStart = 0;

async function agentPods(): Promise<V1Pod[]> {
  return (await core.listNamespacedPod({ namespace: NS, labelSelector: 'app.kubernetes.io/component=agent' })).items;
}

async function readiness(): Promise<Readiness> {
  const res = await fetch(`${base}/api/v1/gate`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`GET /api/v1/gate: ${res.status}`);
  return ((await res.json()) as { readiness: Readiness }).readiness;
}

async function reportOf(name: string): Promise<Report> {
  return (await custom.getClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name })) as Report;
}

beforeAll(async () => {
  cluster = await useCluster();
  const admin = new KubeConfig();
  admin.loadFromFile(cluster.controlPlane.adminKubeconfig);
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  audit = new AuditLog(cluster.controlPlane.auditLog);
  auditStart = await audit.mark();
  // The not-ready taint on, its share guard left at the chart's default (maxShare 0.5); emulation
  // counts as ready, so the whole nodes are ready on a machine with or without usable KVM; a probe
  // every 10 s instead of 5 min, so a device lost at run time is seen within the test's bounds.
  await helmOk(cluster.controlPlane.binDir, [
    'install', RELEASE, CHART_DIR, '--namespace', NS, '--create-namespace', ...imageValues(cluster.images),
    '--set', 'agent.allowEmulation=true', '--set', 'agent.taint.policy=not-ready', '--set', `agent.interval=${INTERVAL_SECONDS}s`,
  ], cluster.controlPlane.adminKubeconfig);
  const service = await core.readNamespacedService({ namespace: NS, name: `${RELEASE}-aggregator` });
  base = `http://${service.spec?.clusterIP}:${service.spec?.ports?.[0]?.port}`;
}, 600_000);

afterAll(async () => {
  if (!cluster) return;
  await restoreDevice(SECOND, TUN).catch(() => undefined);
  await helm(cluster.controlPlane.binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], cluster.controlPlane.adminKubeconfig);
});

describe('three real nodes', () => {
  it('each registered by its own kubelet, at its own address, Ready', async () => {
    const nodes = (await core.listNode()).items;
    expect(nodes.map((n) => n.metadata?.name).sort()).toEqual([FIRST, SECOND, THIRD]);
    for (const layout of CLUSTER_LAYOUT.nodes) {
      const node = nodes.find((n) => n.metadata?.name === layout.name);
      expect(node?.status?.addresses, layout.name).toContainEqual({ type: 'InternalIP', address: layout.address });
      expect(node?.status?.nodeInfo?.kubeletVersion).toBe('v1.36.3');
    }
    const creates = (await audit.since(0)).filter((e) => e.objectRef?.resource === 'nodes' && e.verb === 'create' && (e.responseStatus?.code ?? 0) < 300);
    expect(creates.map((e) => [e.objectRef?.name, e.user.username]).sort()).toEqual([FIRST, SECOND, THIRD].map((name) => [name, `system:node:${name}`]));
    process.stderr.write(`[cluster] start to three Ready nodes: ${cluster.startupMs} ms; CoreDNS Ready ${cluster.dnsMs} ms later\n`);
  });
});

describe('the chart on three nodes', () => {
  it('runs one agent per node, and each node is labelled by the agent on it', async () => {
    const labelled = await waitFor('every node labelled', async () => {
      const views = await Promise.all([FIRST, SECOND, THIRD].map(async (name) => [name, await nodeView(core, name)] as const));
      return views.every(([, view]) => view.labels['virtgate.io/ready'] !== undefined) ? Object.fromEntries(views) : undefined;
    }, 240_000, 500);
    expect(labelled[FIRST]?.labels['virtgate.io/ready']).toBe('true');
    expect(labelled[SECOND]?.labels['virtgate.io/ready']).toBe('true');
    expect(labelled[THIRD]?.labels['virtgate.io/ready']).toBe('false');

    const pods = await waitFor('three Ready agent pods', async () => {
      const ready = (await agentPods()).filter(isReady);
      return ready.length === 3 ? ready : undefined;
    }, 120_000, 500);
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual([FIRST, SECOND, THIRD]);
    // Each Node's writes came from the agent pod bound to that node (the token's node-name claim).
    const writes = (await audit.writesBy(AGENT_SA, auditStart)).filter((e) => e.objectRef?.resource === 'nodes' && (e.responseStatus?.code ?? 0) < 300);
    for (const name of [FIRST, SECOND, THIRD]) {
      const onNode = writes.filter((e) => e.objectRef?.name === name);
      expect(onNode.length, `writes to Node ${name}`).toBeGreaterThan(0);
      const pod = pods.find((p) => p.spec?.nodeName === name);
      for (const write of onNode) {
        expect(write.user.extra?.['authentication.kubernetes.io/node-name'], name).toEqual([name]);
        expect(write.user.extra?.['authentication.kubernetes.io/pod-name'], name).toEqual([pod?.metadata?.name]);
      }
    }
  });

  it('the aggregator counts 2 of 3 ready and names the third with its own reason; /metrics and the page say the same', async () => {
    const seen = await waitFor('the aggregator to count three nodes', async () => {
      const r = await readiness().catch(() => undefined);
      return r?.total === 3 && r.counts['not-ready'] === 1 ? r : undefined;
    }, 120_000, 1000);
    expect(seen.counts[WHOLE_NODE_STATE]).toBe(2);
    expect(seen.readyRatio).toBeCloseTo(2 / 3, 5);
    const byName = Object.fromEntries(seen.nodes.map((n) => [n.name, n]));
    expect(byName[FIRST]?.state).toBe(WHOLE_NODE_STATE);
    expect(byName[SECOND]?.state).toBe(WHOLE_NODE_STATE);
    expect(byName[THIRD]?.state).toBe('not-ready');
    expect(byName[THIRD]?.failingChecks).toContainEqual({ id: 'dev.tun', status: 'fail', message: `${TUN} does not exist` });
    expect(byName[THIRD]?.reason).toContain('dev.tun');
    expect(byName[FIRST]?.failingChecks.map((c) => c.id)).not.toContain('dev.tun');

    const metrics = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    expect(metrics).toMatch(/^virtgate_cluster_nodes\{state="not-ready"\} 1$/m);
    expect(metrics).toMatch(new RegExp(`^virtgate_cluster_nodes\\{state="${WHOLE_NODE_STATE}"\\} 2$`, 'm'));
    expect(Number(metrics.match(/^virtgate_cluster_ready_ratio (\S+)$/m)?.[1])).toBeCloseTo(2 / 3, 5);

    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${base}/`);
      await page.locator(`tr[data-node="${THIRD}"]`).waitFor();
      const rows = await page.locator('#nodes tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-node'), tr.querySelectorAll('td')[1]?.textContent]));
      // Worst first: the third node, then the two whole ones by name.
      expect(rows).toEqual([[THIRD, 'not-ready'], [FIRST, WHOLE_NODE_STATE], [SECOND, WHOLE_NODE_STATE]]);
      expect(await page.locator(`tr[data-node="${THIRD}"] td`).nth(7).textContent()).toContain(`dev.tun fail: ${TUN} does not exist`);
    } finally {
      await browser.close();
    }
  });

  it('taints the failed node; when a second of three fails at run time, the share guard (default 0.5) refuses its taint; back whole, it is ready again', async () => {
    const tainted = await waitFor(`${THIRD} tainted`, async () => {
      const view = await nodeView(core, THIRD);
      return view.taints.includes(`${TAINT}=true:NoSchedule`) ? view : undefined;
    }, 120_000, 500);
    expect(tainted.labels['virtgate.io/ready']).toBe('false');

    await hideDevice(SECOND, TUN);
    const refused = await waitFor(`${SECOND} to fail and its taint to be refused`, async () => {
      const report = await reportOf(SECOND);
      return report.status?.ready === false && report.status.taint?.refused ? report.status.taint.refused : undefined;
    }, 120_000, 500);
    // floor(0.5 × 3) = 1 node may carry the taint, and the third already does.
    expect(refused).toBe('2 of 3 pool nodes would carry the taint; the limit is 1 (50%)');
    const second = await nodeView(core, SECOND);
    expect(second.labels['virtgate.io/ready']).toBe('false');
    expect(second.taints.filter((t) => t.startsWith(TAINT))).toEqual([]);
    expect((await nodeView(core, THIRD)).taints).toContain(`${TAINT}=true:NoSchedule`);
    expect((await nodeView(core, FIRST)).taints.filter((t) => t.startsWith(TAINT))).toEqual([]);

    await restoreDevice(SECOND, TUN);
    await waitFor(`${SECOND} ready again`, async () => ((await nodeView(core, SECOND)).labels['virtgate.io/ready'] === 'true' ? true : undefined), 120_000, 500);
    expect((await nodeView(core, SECOND)).taints.filter((t) => t.startsWith(TAINT))).toEqual([]);
  });

  it('pod to pod across nodes, and by Service name through CoreDNS and kube-proxy, from every node', async () => {
    const aggregator = (await core.listNamespacedPod({ namespace: NS, labelSelector: 'app.kubernetes.io/component=aggregator' })).items.find(isReady);
    expect(aggregator?.status?.podIP).toMatch(/^10\.252\./);
    const byName = `http://${RELEASE}-aggregator.${NS}.svc.cluster.local:8080/healthz`;
    const direct = `http://${aggregator?.status?.podIP}:8080/healthz`;
    // Inside each agent's container (the real kubectl exec, through each node's kubelet): its own
    // pod network namespace, its resolv.conf naming the cluster DNS Service. The network path only:
    // the CNI bridge plugin enforces no NetworkPolicy (the chart's is rendered, not in force here).
    // node:http, not fetch: the image runs Node with --jitless, without the WebAssembly fetch's
    // HTTP parser needs ("WebAssembly is not defined").
    const script = [
      "const http = require('node:http');",
      'const get = (u) => new Promise((resolve) => { const req = http.get(u, { timeout: 5000 }, (res) => { res.resume(); resolve(res.statusCode); });',
      "  req.on('timeout', () => req.destroy(new Error('timeout'))); req.on('error', (e) => resolve(e.code ?? String(e))); });",
      'Promise.all(process.argv.slice(1).map(get)).then((s) => console.log(JSON.stringify(s)));',
    ].join('\n');
    const answers: Record<string, unknown> = {};
    for (const pod of (await agentPods()).filter(isReady)) {
      const { stdout } = await execa(`${cluster.controlPlane.binDir}/kubectl`, ['--kubeconfig', cluster.controlPlane.adminKubeconfig, '-n', NS, 'exec', pod.metadata!.name!, '--', 'node', '-e', script, direct, byName], { timeout: 60_000 });
      answers[pod.spec!.nodeName!] = JSON.parse(stdout);
    }
    expect(answers).toEqual({ [FIRST]: [200, 200], [SECOND]: [200, 200], [THIRD]: [200, 200] });
    // Three agents on three nodes, one aggregator: at least two of those answers crossed nodes.
    expect(Object.keys(answers).filter((name) => name !== aggregator?.spec?.nodeName)).toHaveLength(2);
  });

  it('no pod packet left the cluster: the egress counters of every node and of the host are 0', async () => {
    const counters = await clusterEgressCounters();
    for (const name of [FIRST, SECOND, THIRD]) {
      expect(counters.egressDropped[name], name).toBe(0);
      expect(counters.outsideAttempts[name], name).toBe(0);
    }
    // The attempt chains sit in the pods' path: CoreDNS's and the aggregator's packets passed them.
    expect(Object.values(counters.podPacketsSeen).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(counters.hostEgressDropped).toBe(0);
  });
});
