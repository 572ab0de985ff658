/**
 * A real OCI registry on loopback for the release test: Debian's `docker-registry` (the CNCF
 * distribution registry, 2.8), plain HTTP on 127.0.0.1 and a free port, storage in a temp dir,
 * no auth. Its process group is killed by the watchdog if the test runner dies.
 */
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../controlplane/ports.ts';
import { ManagedProcess, startWatchdog } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';

export const REGISTRY_BINARY = '/usr/bin/docker-registry';

/** The manifest types the release's images and charts are pushed as. */
export const MANIFEST_TYPES = 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';

export interface LocalRegistry {
  /** host:port, e.g. 127.0.0.1:40123: what image references and oci:// URLs start with. */
  host: string;
  /** GET a path of the registry's HTTP API (/v2/...) and parse the JSON it answers. */
  getJson: (apiPath: string, accept?: string) => Promise<unknown>;
  /** The digest the registry serves a manifest under (its Docker-Content-Digest header), e.g. sha256:…. */
  manifestDigest: (repository: string, reference: string) => Promise<string>;
  /** Its output, the access log included: one Combined Log Format line per request. */
  logFile: string;
  stop: () => Promise<void>;
}

export async function startRegistry(): Promise<LocalRegistry> {
  try {
    await access(REGISTRY_BINARY, constants.X_OK);
  } catch {
    throw new Error(`${REGISTRY_BINARY} is not installed: apt-get install docker-registry (.ci/run installs it)`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'virtgate-registry-'));
  const watchdog = startWatchdog(dir);
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = path.join(dir, 'config.yml');
  await writeFile(
    config,
    ['version: 0.1', 'log: { level: warn }', `storage: { filesystem: { rootdirectory: ${path.join(dir, 'data')} }, delete: { enabled: true } }`, `http: { addr: "${host}" }`, ''].join('\n'),
  );
  const registry = new ManagedProcess('docker-registry', dir, REGISTRY_BINARY, () => ['serve', config]);
  await registry.start();
  const getJson = async (apiPath: string, accept = 'application/json'): Promise<unknown> => {
    const response = await fetch(`http://${host}${apiPath}`, { headers: { accept } });
    if (!response.ok) throw new Error(`GET ${apiPath}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  const manifestDigest = async (repository: string, reference: string): Promise<string> => {
    const response = await fetch(`http://${host}/v2/${repository}/manifests/${reference}`, { method: 'HEAD', headers: { accept: MANIFEST_TYPES } });
    const digest = response.headers.get('docker-content-digest');
    if (!response.ok || !digest) throw new Error(`HEAD ${repository}:${reference}: HTTP ${response.status}, digest ${digest}`);
    return digest;
  };
  await waitFor(`the registry on ${host} (log: ${registry.logFile})`, async () => ((await getJson('/v2/')) !== undefined ? true : undefined), 20_000);
  return {
    host,
    getJson,
    manifestDigest,
    logFile: registry.logFile,
    stop: async () => {
      await registry.stop();
      watchdog.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
