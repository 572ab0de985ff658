/**
 * virtgate as a kubectl plugin, run by the real kubectl (built with the control plane): a
 * `kubectl-virtgate` on PATH, linked to the built bin as npm and krew link it, answers
 * `kubectl virtgate …` with what `virtgate …` answers: the same check verdict on a fixture host,
 * the same gate result against the test API server, the cluster found through KUBECONFIG (kubectl
 * hands the plugin its environment), and help that names the command the user typed.
 */
import { access, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateResultDocumentSchema } from '../../aggregator/documents/gate.ts';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { locateBinaries } from '../lab/controlplane/binaries.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { buildHost, type BuiltHost } from '../lab/hosts/build-host.ts';
import { tempDir } from '../lab/hosts/paths.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';

const BUILT_BIN = path.join(PACKAGE_ROOT, 'dist/cli/main.js');
const NOW = '2026-12-02T12:00:00Z';
const READY = { 'virtgate.io/ready': 'true' };

const cp = useControlPlane();
let admin: KubeConfig;
let kubectl = '';
let binDir = '';
let home = '';
let host: BuiltHost;
let remove = async () => {};

beforeAll(async () => {
  await access(BUILT_BIN).catch(() => {
    throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  kubectl = path.join(await locateBinaries(), 'kubectl');
  let dir: string;
  ({ dir, remove } = await tempDir('kubectl-plugin'));
  // Both names linked to the one built bin, as `npm install -g` links the package's two bins.
  binDir = path.join(dir, 'bin');
  await mkdir(binDir);
  await symlink(BUILT_BIN, path.join(binDir, 'virtgate'));
  await symlink(BUILT_BIN, path.join(binDir, 'kubectl-virtgate'));
  // A home without ~/.kube: the cluster can only come from KUBECONFIG or --kubeconfig.
  home = path.join(dir, 'home');
  await mkdir(home);
  host = await buildHost(path.join(dir, 'host'), 'intel-metal');

  admin = cp.adminConfig();
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  const heartbeatAt = new Date(Date.parse(NOW) - 60_000);
  // At once: the CRDs just installed may take a moment to serve, which each waits for.
  await Promise.all([
    ...[1, 2].map((n) => createValidatedNode(admin, `kubectl-plugin-${n}`, { node: { labels: READY }, report: { heartbeatAt } })),
    createKubeVirt(admin, { name: 'kubectl-plugin', version: 'v1.9.0', nodePlacement: { nodeSelector: READY } }),
    createCdi(admin, 'kubectl-plugin', 'v1.66.0'),
  ]);
});

afterAll(async () => {
  await remove();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A command as a user's shell runs it: found on a PATH holding the two links, Node.js 24 (the
 * bin's `#!/usr/bin/env node`) and the system's tools, with only the environment given here.
 */
async function run(file: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const result = await execa(file, args, {
    env: { PATH: `${binDir}:${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, ...env },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    stdin: 'ignore',
  });
  if (result.timedOut) throw new Error(`${file} ${args.join(' ')} did not finish in 60 s`);
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

interface CheckDocument {
  kind: string;
  tier: string;
  ready: boolean;
  checks: Array<{ id: string; status: string }>;
}

/** What does not vary between two runs on one host: the verdict and each check's outcome. */
function verdictOf(stdout: string): Pick<CheckDocument, 'kind' | 'tier' | 'ready' | 'checks'> {
  const document = JSON.parse(stdout) as CheckDocument;
  return { kind: document.kind, tier: document.tier, ready: document.ready, checks: document.checks.map(({ id, status }) => ({ id, status })) };
}

describe('kubectl virtgate, run by the real kubectl', () => {
  it('is listed by kubectl plugin list', async () => {
    const listed = await run(kubectl, ['plugin', 'list']);
    expect(listed.stdout.split('\n')).toContain(path.join(binDir, 'kubectl-virtgate'));
  });

  it('names itself kubectl virtgate in its help, the root\'s and a command\'s', async () => {
    // check's help comes from the bundle (cli/main.ts), the root's from dist/: both name it.
    const [root, check, itself] = await Promise.all([run(kubectl, ['virtgate', '--help']), run(kubectl, ['virtgate', 'check', '--help']), run('virtgate', ['check', '--help'])]);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Usage: kubectl virtgate \[options\] \[command\]\n/);
    expect(check.stdout).toMatch(/^Usage: kubectl virtgate check \[options\]\n/);
    // Run as itself, it is still virtgate.
    expect(itself.stdout).toMatch(/^Usage: virtgate check \[options\]\n/);
  });

  it('check: the verdict and exit code of virtgate check with the same flags', async () => {
    const args = ['check', '--json', '--no-vhv', ...host.cliArgs];
    const [plugin, direct] = await Promise.all([run(kubectl, ['virtgate', ...args]), run('virtgate', args)]);
    expect(plugin.stderr).toBe('');
    expect(verdictOf(plugin.stdout)).toEqual(verdictOf(direct.stdout));
    expect(verdictOf(plugin.stdout)).toMatchObject({ kind: 'CheckResult', tier: host.expectedTier });
    expect(plugin.code).toBe(direct.code);
  });

  it('gate: through KUBECONFIG, the result virtgate gate --kubeconfig gives', async () => {
    const [plugin, direct] = await Promise.all([
      run(kubectl, ['virtgate', 'gate', '--json', '--now', NOW], { KUBECONFIG: cp.adminKubeconfig }),
      run('virtgate', ['gate', '--json', '--now', NOW, '--kubeconfig', cp.adminKubeconfig]),
    ]);
    expect(plugin.stderr).toBe('');
    const [viaKubectl, viaFlag] = [gateResultDocumentSchema.parse(JSON.parse(plugin.stdout)), gateResultDocumentSchema.parse(JSON.parse(direct.stdout))];
    expect(viaKubectl.result).toBe(viaFlag.result);
    expect(viaKubectl.checks.map(({ id, status }) => ({ id, status }))).toEqual(viaFlag.checks.map(({ id, status }) => ({ id, status })));
    // The cluster made above, read: both ready nodes counted, a supported tuple placed on them.
    expect(viaKubectl.readiness.counts.ready).toBe(2);
    expect(viaKubectl.result).toBe('pass');
    expect(plugin.code).toBe(0);
    expect(direct.code).toBe(0);
  });
});
