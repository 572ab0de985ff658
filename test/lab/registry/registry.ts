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

export interface LocalRegistry {
  /** host:port, e.g. 127.0.0.1:40123: what image references and oci:// URLs start with. */
  host: string;
  /** GET a path of the registry's HTTP API (/v2/...) and parse the JSON it answers. */
  getJson: (apiPath: string, accept?: string) => Promise<unknown>;
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
  await waitFor(`the registry on ${host} (log: ${registry.logFile})`, async () => ((await getJson('/v2/')) !== undefined ? true : undefined), 20_000);
  return {
    host,
    getJson,
    stop: async () => {
      await registry.stop();
      watchdog.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
