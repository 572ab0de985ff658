/**
 * KubeVirt's and CDI's own CRDs, for the tests that need them without a node (see
 * test/fixtures/crds/README.md). Nothing here is a copy kept in the repository:
 *
 * - `kubevirts.kubevirt.io`: KubeVirt v1.9.0's `tools/resource-generator --type=kv` (the CRD the
 *   release's kubevirt-operator.yaml carries), from the build of test/lab/kubevirt/build.sh;
 * - `virtualmachineinstances.kubevirt.io`: virt-operator creates it itself, and resource-generator
 *   has no type for it (its types are kv, kv-cr, operator-rbac, priorityclass, networkpolicies), so
 *   it is taken from virt-operator's install strategy: `virt-operator --dump-install-strategy`, the
 *   step KubeVirt's install-strategy job runs, writes every CRD it installs into a ConfigMap of the
 *   API server it is given; the CRD is read from there;
 * - `cdis.cdi.kubevirt.io`: CDI's own, from the CDI module's source (`CDICRDs["cdi"]` in
 *   pkg/operator/resources/crds_generated.go, the string cdi-operator's `createCDIListCRD` decodes), at
 *   CDI_VERSION, fetched into the Go module cache with `go mod download` when missing.
 *
 * Each is written once into the cache beside the KubeVirt binaries (`<bin>/../crds/`), so it is
 * generated again only when the KubeVirt build changes. The KubeVirt build must exist: as with the
 * control plane, a missing build makes the tests that need it fail (never skip) with the command
 * that builds it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { CoreV1Api, type KubeConfig, loadAllYaml } from '@kubernetes/client-node';
import { ensureNamespace } from '../controlplane/identities.ts';
import { KUBEVIRT_VERSION, locateKubevirt } from '../kubevirt/binaries.ts';
import { waitFor } from './wait.ts';

const run = promisify(execFile);

export { KUBEVIRT_VERSION };
/**
 * CDI's release: KubeVirt 1.9 pairs with CDI 1.66 (data/versions.yaml), but the Go module proxy
 * answers 403 "not available" for kubevirt.io/containerized-data-importer@v1.66.0; v1.65.0 (what
 * KubeVirt 1.8 pairs with) is served. The CDI CRD's v1beta1 fields virtgate reads are the same.
 */
export const CDI_VERSION = 'v1.65.0';
const CDI_MODULE = 'kubevirt.io/containerized-data-importer';

export type KubeVirtCrdName = 'kubevirts.kubevirt.io' | 'virtualmachineinstances.kubevirt.io' | 'cdis.cdi.kubevirt.io';

function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.VIRTGATE_CACHE ?? path.join(os.homedir(), '.cache/virtgate');
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file so that a reader never sees it half written (another test file may be reading). */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${randomUUID()}.partial`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/** KubeVirt's bin directory, as test/lab/kubevirt/build.sh --check prints it (it fails, saying what to run, without a build). */
async function kubevirtBin(): Promise<string> {
  return (await locateKubevirt()).binDir;
}

/** The file of one CRD in the cache; generated first when absent. */
async function cached(name: KubeVirtCrdName, generate: () => Promise<string>): Promise<string> {
  const bin = await kubevirtBin();
  const file = path.join(bin, '..', 'crds', `${name}.yaml`);
  if (!(await exists(file))) await writeAtomically(file, await generate());
  return file;
}

/** kubevirts.kubevirt.io, from `resource-generator --type=kv`. */
export async function kubevirtCrdFile(): Promise<string> {
  return cached('kubevirts.kubevirt.io', async () => {
    const { stdout } = await run(path.join(await kubevirtBin(), 'resource-generator'), ['--type=kv'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  });
}

/** The namespace virt-operator's install strategy is dumped into (it is deleted afterwards). */
const DUMP_NAMESPACE = 'virtgate-kubevirt-crds';

/**
 * virtualmachineinstances.kubevirt.io, from virt-operator's install strategy. Needs an API server
 * (the tests' own, through `kubeconfig`, a file; `kc` is the same identity): the first time, it runs
 * `virt-operator --dump-install-strategy` against it, reads the ConfigMap it creates
 * (gzip + base64 manifests), keeps the CRD and deletes the namespace it used.
 */
export async function vmiCrdFile(kc: KubeConfig, kubeconfig: string): Promise<string> {
  return cached('virtualmachineinstances.kubevirt.io', () => dumpInstallStrategyCrd(kc, kubeconfig, 'virtualmachineinstances.kubevirt.io'));
}

async function dumpInstallStrategyCrd(kc: KubeConfig, kubeconfig: string, name: string): Promise<string> {
  const bin = await kubevirtBin();
  const core = kc.makeApiClient(CoreV1Api);
  await ensureNamespace(kc, DUMP_NAMESPACE);
  try {
    // What virt-operator hands its install-strategy job (pkg/virt-operator/util/config.go):
    // the deployment config as JSON, and its own image.
    const config = { id: 'virtgate-tests', namespace: DUMP_NAMESPACE, registry: 'quay.io/kubevirt', kubeVirtVersion: KUBEVIRT_VERSION };
    await run(path.join(bin, 'virt-operator'), ['--dump-install-strategy', '--kubeconfig', kubeconfig], {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? os.tmpdir(),
        TARGET_DEPLOYMENT_CONFIG: JSON.stringify(config),
        VIRT_OPERATOR_IMAGE: `quay.io/kubevirt/virt-operator:${KUBEVIRT_VERSION}`,
        KUBEVIRT_VERSION,
      },
    });
    const configMap = await waitFor('virt-operator to write its install strategy', async () => {
      const list = await core.listNamespacedConfigMap({ namespace: DUMP_NAMESPACE, labelSelector: 'kubevirt.io/install-strategy' });
      return list.items[0];
    });
    const encoded = configMap.data?.manifests;
    if (!encoded) throw new Error(`install strategy ConfigMap ${configMap.metadata?.name ?? '?'} has no data.manifests`);
    const manifests = gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const documents = manifests.split(/^---$/m).filter((document) => document.includes(`name: ${name}`) && /^kind: CustomResourceDefinition$/m.test(document));
    const crd = documents.find((document) => loadAllYaml(document).some((object) => isCrdNamed(object, name)));
    if (!crd) throw new Error(`virt-operator's install strategy has no CRD ${name}`);
    return `${crd.trim()}\n`;
  } finally {
    await core.deleteNamespace({ name: DUMP_NAMESPACE }).catch(() => undefined);
  }
}

function isCrdNamed(object: unknown, name: string): boolean {
  const candidate = object as { kind?: unknown; metadata?: { name?: unknown } } | null;
  return candidate?.kind === 'CustomResourceDefinition' && candidate.metadata?.name === name;
}

/** cdis.cdi.kubevirt.io, from CDI's module source (downloaded into the Go module cache when missing). */
export async function cdiCrdFile(): Promise<string> {
  return cached('cdis.cdi.kubevirt.io', async () => {
    const source = path.join(await cdiModuleDir(process.env), 'pkg/operator/resources/crds_generated.go');
    return cdiCrdFromGeneratedSource(await readFile(source, 'utf8'));
  });
}

/**
 * The `"cdi"` entry of CDI's crds_generated.go: a Go raw string, in which CDI's crd-generator
 * writes each backtick of the YAML as `` ` + "`" + ` `` (a raw string cannot hold one).
 */
export function cdiCrdFromGeneratedSource(source: string): string {
  const opening = '\t"cdi": `';
  const start = source.indexOf(opening);
  if (start < 0) throw new Error('crds_generated.go has no "cdi" entry');
  const backtick = '` + "`" + `';
  let text = '';
  for (let from = start + opening.length; ; ) {
    const end = source.indexOf('`', from);
    if (end < 0) throw new Error('crds_generated.go: the "cdi" entry does not end');
    text += source.slice(from, end);
    if (!source.startsWith(backtick, end)) return text;
    text += '`';
    from = end + backtick.length;
  }
}

async function cdiModuleDir(env: NodeJS.ProcessEnv): Promise<string> {
  const modCache = path.join(cacheRoot(env), 'go/mod');
  const dir = path.join(modCache, `${CDI_MODULE}@${CDI_VERSION}`);
  if (await exists(dir)) return dir;
  try {
    // Outside any module, so nothing of this repository's is consulted or changed.
    const { stdout } = await run('go', ['mod', 'download', '-json', `${CDI_MODULE}@${CDI_VERSION}`], {
      encoding: 'utf8',
      cwd: os.tmpdir(),
      timeout: 600_000,
      env: { ...env, GOMODCACHE: modCache, GOFLAGS: '-mod=mod' },
    });
    const downloaded = (JSON.parse(stdout) as { Dir?: string; Error?: string });
    if (downloaded.Error || !downloaded.Dir) throw new Error(downloaded.Error ?? 'no Dir in go mod download -json');
    return downloaded.Dir;
  } catch (error) {
    const detail = (error as { stdout?: string }).stdout ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`cannot fetch ${CDI_MODULE}@${CDI_VERSION} for its CRD (needs Go and the Go module proxy): ${detail.trim()}`);
  }
}
