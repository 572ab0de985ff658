/**
 * The chart installed on the real node from an OCI registry, as docs/release.md tells a user:
 * `npm run release`, its chart pushed with `helm push` and both images with `buildah push` to a
 * real registry on loopback (Debian's docker-registry), then `helm install oci://… --plain-http`
 * with one value, `global.imageRegistry` (the chart's single value for a mirror; each image's own
 * `registry` is per component). The kubelet pulls both images from that registry with the default
 * pullPolicy, the agent labels the node, and `helm uninstall` leaves nothing under virtgate.io/.
 * The truths: the registry's own digests and access log, containerd's content store, the kubelet's
 * events, and the test's own reading of this machine (host-truth.ts). The registry starts after the node:
 * containerd reads its hosts.toml at pull time. The lab images the node imported at its start
 * share all but one layer with the release's, so they are removed first (the pull fetches every
 * layer, as on a node that never ran virtgate) and imported again at the end for the other files.
 */
import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keysUnder, nodeView } from '../lab/chart/cluster.ts';
import { helm, helmComplaints, helmOk } from '../lab/chart/helm.ts';
import { allowPlainHttpRegistry } from '../lab/node/containerd.ts';
import { NS, readyPod, RELEASE } from '../lab/node/release.ts';
import { disagreements, readHost, statusesOf } from './host-truth.ts';
import { type Buildah, labBuildah } from '../lab/registry/buildah.ts';
import { type LocalRegistry, MANIFEST_TYPES, startRegistry } from '../lab/registry/registry.ts';
import { makeRelease, pushChart, pushImage, RELEASE_ROLES, releaseRepository, type ReleaseFiles, type ReleaseRole } from '../lab/registry/release.ts';
import { waitFor } from '../lab/support/wait.ts';

/** Not the package's version, so the tag the chart defaults to can only come from the release. */
const VERSION = '0.9.2-oci.1';
const PREFIX = 'virtgate.io';

const node = inject('realNode');
const binDir = node.controlPlane.binDir;
const kubeconfig = node.controlPlane.adminKubeconfig;
const admin = new KubeConfig();
admin.loadFromFile(kubeconfig);
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);

interface Pushed {
  /** The manifest digest the registry serves for the tag. */
  digest: string;
  /** The config and layer digests of that manifest: what a pull on a node without them fetches. */
  blobs: string[];
  buildahId: string;
}

let release: ReleaseFiles | undefined;
let registry: LocalRegistry | undefined;
let buildah: Buildah;
let chartUrl: string;
const pushed = {} as Record<ReleaseRole, Pushed>;
const localName = (role: ReleaseRole) => `localhost/oci-install-test/virtgate-${role}:${VERSION}`;
const remoteRef = (role: ReleaseRole) => `${registry?.host}/${releaseRepository(role)}`;
const ctr = async (...args: string[]) =>
  (await execa('ctr', ['--address', node.containerdSocket, '--namespace', 'k8s.io', ...args], { timeout: 300_000 })).stdout.split('\n').filter(Boolean);
let fileStarted = 0;

beforeAll(async () => {
  fileStarted = Date.now();
  release = await makeRelease(VERSION, binDir);
  process.stderr.write(`[oci] npm run release took ${release.seconds.toFixed(0)} s\n`);
  registry = await startRegistry();
  await allowPlainHttpRegistry(registry.host);
  buildah = await labBuildah();
  chartUrl = await pushChart(binDir, registry, release);
  for (const role of RELEASE_ROLES) {
    const buildahId = await pushImage(buildah, registry, release, role, localName(role));
    const digest = await registry.manifestDigest(releaseRepository(role), VERSION);
    const manifest = (await registry.getJson(`/v2/${releaseRepository(role)}/manifests/${digest}`, MANIFEST_TYPES)) as { config: { digest: string }; layers: Array<{ digest: string }> };
    pushed[role] = { digest, blobs: [manifest.config.digest, ...manifest.layers.map((layer) => layer.digest)], buildahId };
  }
  // A node that never ran virtgate: the release image is the lab image the node imported at start
  // plus one layer, and containerd fetches no layer it already has unpacked. Without the lab
  // images (and their snapshots, --sync waits for the garbage collector) the pull fetches every
  // layer. The CRI plugin names each image by its id too (`sha256:…`): those names go as well.
  await releaseLabSnapshots();
  const rows = (await ctr('images', 'ls')).slice(1).map((line) => line.split(/\s+/));
  const labManifests = new Set(rows.filter(([ref]) => ref === node.images.agent.ref || ref === node.images.aggregator.ref).map(([, , digest]) => digest));
  await ctr('images', 'rm', '--sync', ...rows.filter(([, , digest]) => labManifests.has(digest)).map(([ref = '']) => ref));
}, 45 * 60_000);

/**
 * A container that ran a lab image keeps its layers' snapshots until the kubelet removes it, and
 * containerd then skips fetching those layers. After the KubeVirt and fault files a fresh-clone run
 * still had such containers (the pull fetched 11 of 15 objects), so delete any finished pod of a
 * lab image and wait until containerd holds no container of one. A lab image still running is a
 * file that did not clean up: say so.
 */
async function releaseLabSnapshots(): Promise<void> {
  const labRefs = new Set([node.images.agent.ref, node.images.aggregator.ref]);
  const usesLab = (pod: V1Pod) => (pod.spec?.containers ?? []).some((c) => labRefs.has(c.image ?? ''));
  const pods = (await core.listPodForAllNamespaces()).items.filter(usesLab);
  const running = pods.filter((pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed');
  if (running.length > 0) {
    throw new Error(`pods still run the lab images, left by an earlier file: ${running.map((pod) => `${pod.metadata?.namespace}/${pod.metadata?.name}`).join(', ')}`);
  }
  for (const pod of pods) {
    await core.deleteNamespacedPod({ name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', gracePeriodSeconds: 0 }).catch(() => undefined);
  }
  if (pods.length > 0) process.stderr.write(`[oci] deleted ${pods.length} finished pods of the lab images\n`);
  await waitFor('containerd to hold no container of a lab image', async () => {
    const containers = (await ctr('containers', 'ls')).slice(1).map((line) => line.split(/\s+/)[1] ?? '');
    return containers.some((image) => labRefs.has(image)) ? undefined : true;
  }, 120_000, 500);
}

afterAll(async () => {
  // A failed test must not leave the release (and its agent) behind for the next file.
  await helm(binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '2m'], kubeconfig);
  for (const role of RELEASE_ROLES) if (pushed[role]) await buildah('rmi', '--force', pushed[role].buildahId).catch(() => undefined);
  // The other node files run the lab images with pullPolicy Never: import them again, as the node's start did.
  const t = Date.now();
  for (const role of RELEASE_ROLES) await ctr('images', 'import', node.images[role].archive);
  process.stderr.write(`[oci] lab images imported again in ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
  await registry?.stop();
  await release?.remove();
  process.stderr.write(`[oci] the file took ${((Date.now() - fileStarted) / 1000).toFixed(0)} s\n`);
});

/** The registry's access log (Combined Log Format), one entry per request. */
async function accessLog(): Promise<Array<{ client: string; time: string; method: string; path: string; status: number; bytes: number; agent: string }>> {
  const line = /^(\S+) \S+ \S+ \[([^\]]+)\] "(\w+) (\S+) [^"]*" (\d{3}) (\S+) "[^"]*" "([^"]*)"$/;
  return (await readFile(registry?.logFile ?? '', 'utf8'))
    .split('\n')
    .map((text) => line.exec(text))
    .filter((match) => match !== null)
    .map(([, client = '', time = '', method = '', path = '', status = '', bytes = '', agent = '']) => ({ client, time, method, path, status: Number(status), bytes: Number(bytes) || 0, agent }));
}

const container = (pod: V1Pod) => pod.status?.containerStatuses?.[0];

describe('the chart from an OCI registry on loopback', () => {
  it('before the install, containerd has neither image, under the registry name or the lab one, nor any of their blobs', async () => {
    const images = await ctr('images', 'ls', '-q');
    expect(images.filter((name) => name.startsWith(`${registry?.host}/`) || /^localhost\/virtgate-(agent|aggregator):/.test(name))).toEqual([]);
    const content = new Set(await ctr('content', 'ls', '-q'));
    for (const role of RELEASE_ROLES) {
      expect(pushed[role].blobs.length, role).toBeGreaterThan(1);
      expect(pushed[role].blobs.filter((digest) => content.has(digest)), role).toEqual([]);
    }
  });

  it('helm install oci:// with only global.imageRegistry: the kubelet pulls both images from the registry and the agent labels the node', async () => {
    const started = Date.now();
    const installed = await helmOk(binDir, [
      'install', RELEASE, chartUrl, '--version', VERSION, '--plain-http', '--namespace', NS, '--create-namespace',
      '--set', `global.imageRegistry=${registry?.host}`,
    ], kubeconfig);
    expect(installed).toContain('STATUS: deployed');
    const labelled = await waitFor('the agent to label the node', async () => {
      const view = await nodeView(core, node.nodeName);
      return view.labels[`${PREFIX}/ready`] !== undefined && view.conditions.VirtualizationReady ? view : undefined;
    }, 480_000, 500);
    process.stderr.write(`[oci] helm install from oci:// to labelled node: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    // Held to the test's own reading of the host (host-truth.ts), not to virtgate's.
    const report = await waitFor('the NodeValidation', async () => {
      const object = (await custom.getClusterCustomObject({ group: 'virtgate.io', version: 'v1alpha1', plural: 'nodevalidations', name: node.nodeName })) as {
        status?: { tier?: string; ready?: boolean; checks?: Array<{ id: string; status: string }> };
      };
      return object.status?.checks ? object.status : undefined;
    }, 60_000);
    const published = {
      caller: 'agent' as const,
      tier: report.tier,
      ready: report.ready,
      checks: statusesOf(report.checks),
      labels: { ready: labelled.labels[`${PREFIX}/ready`], tier: labelled.labels[`${PREFIX}/tier`] },
      condition: labelled.conditions.VirtualizationReady,
    };
    expect(disagreements(readHost(), published)).toEqual([]);

    for (const role of RELEASE_ROLES) {
      const pod = await readyPod(core, role, 480_000);
      expect(pod.spec?.nodeName, role).toBe(node.nodeName);
      expect(pod.spec?.containers[0]?.image, role).toBe(`${remoteRef(role)}:${VERSION}`);
      expect(pod.spec?.containers[0]?.imagePullPolicy, role).toBe('IfNotPresent');
      // The image the container runs is the manifest the registry serves for the tag.
      expect(container(pod)?.imageID, role).toBe(`${remoteRef(role)}@${pushed[role].digest}`);
    }

    const pulls = (await core.listNamespacedEvent({ namespace: NS, fieldSelector: 'reason=Pulled' })).items.map((event) => event.message ?? '');
    for (const message of pulls) process.stderr.write(`[oci] kubelet: ${message}\n`);
    for (const role of RELEASE_ROLES) {
      expect(pulls.some((message) => message.startsWith(`Successfully pulled image "${remoteRef(role)}:${VERSION}"`)), role).toBe(true);
    }

    const images = await ctr('images', 'ls');
    for (const role of RELEASE_ROLES) {
      const row = images.find((line) => line.startsWith(`${remoteRef(role)}:${VERSION} `));
      expect(row, role).toContain(pushed[role].digest);
    }

    // The registry served containerd the manifest and every blob of both images, and nothing came from off this machine.
    const log = await accessLog();
    const byContainerd = log.filter((entry) => entry.agent.startsWith('containerd/'));
    const seen = byContainerd.map((entry) => `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.bytes}`).join('\n');
    const fetched = byContainerd.filter((entry) => entry.method === 'GET' && entry.status === 200);
    const fetchedPaths = new Set(fetched.map((entry) => entry.path));
    process.stderr.write(
      `[oci] containerd fetched ${fetched.length} objects, ${(fetched.reduce((sum, entry) => sum + entry.bytes, 0) / 1048576).toFixed(1)} MiB, from the registry between ${byContainerd[0]?.time} and ${byContainerd.at(-1)?.time}\n`,
    );
    for (const role of RELEASE_ROLES) {
      const { digest, blobs } = pushed[role];
      const manifests = [digest, VERSION].map((reference) => `/v2/${releaseRepository(role)}/manifests/${reference}`);
      expect(manifests.some((manifest) => fetchedPaths.has(manifest)), `${role}; containerd's requests:\n${seen}`).toBe(true);
      // A blob both images share (the Debian base layer) is fetched once, under either repository.
      const missing = blobs.filter((blob) => !RELEASE_ROLES.some((from) => fetchedPaths.has(`/v2/${releaseRepository(from)}/blobs/${blob}`)));
      expect(missing, `${role}; containerd's requests:\n${seen}`).toEqual([]);
    }
    expect(new Set(log.map((entry) => entry.client))).toEqual(new Set(['127.0.0.1']));
  }, 600_000);

  it('helm uninstall runs the prune Job and leaves nothing under virtgate.io/ on the node', async () => {
    const outcome = await helm(binDir, ['uninstall', RELEASE, '--namespace', NS, '--timeout', '4m'], kubeconfig);
    expect(helmComplaints(outcome.stderr)).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`release "${RELEASE}" uninstalled`);
    const view = await nodeView(core, node.nodeName);
    expect(keysUnder(PREFIX, view)).toEqual([]);
    expect(view.conditions.VirtualizationReady).toBeUndefined();
  });
});
