/**
 * `virtgate gate` for CI systems, run as a real process against the real API server: the JUnit
 * report (`--junit FILE`, with and without `--json`, the exit code unchanged), and the GateError
 * document `--json` prints when the cluster cannot be read: a closed port, and a ServiceAccount the
 * API server's RBAC refuses (403).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATE_CHECK_IDS, gateResultDocumentSchema } from '../../aggregator/documents/gate.ts';
import { gateErrorDocumentSchema } from '../../aggregator/documents/gate-error.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { createServiceAccount } from '../lab/controlplane/identities.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { closedPort } from '../lab/controlplane/ports.ts';
import { runCli } from '../lab/cli.ts';
import { createCdi, createKubeVirt, createValidatedNode, installKubeVirtCrds, resetCluster } from '../lab/support/aggregator-cluster.ts';
import { installCrd } from '../lab/support/crds.ts';
import { xmlProblems, xpathCount, xpathString } from '../lab/support/xmllint.ts';

const cp = useControlPlane();
const NOW = '2026-12-02T12:00:00Z';
const READY = { 'virtgate.io/ready': 'true' };
const NAMESPACE = 'gate-ci';
let admin: KubeConfig;
let dir: string;

beforeAll(async () => {
  admin = cp.adminConfig();
  dir = await mkdtemp(path.join(os.tmpdir(), 'gate-ci-'));
  await installCrd(admin);
  await installKubeVirtCrds(admin);
  await resetCluster(admin);
  // Three validated nodes, the third on Docker: nodes.runtime must fail, naming it.
  const at = new Date(Date.parse(NOW) - 60_000);
  for (const n of [1, 2, 3]) {
    await createValidatedNode(admin, `gate-ci-${n}`, { node: { labels: READY, ...(n === 3 ? { containerRuntimeVersion: 'docker://24.0.7' } : {}) }, report: { heartbeatAt: at } });
  }
  await createKubeVirt(admin, { name: 'gate-ci', version: 'v1.9.0', nodePlacement: { nodeSelector: READY } });
  await createCdi(admin, 'gate-ci', 'v1.66.0');
});

const gate = (...args: string[]) => runCli(['gate', '--kubeconfig', cp.adminKubeconfig, '--now', NOW, ...args]);

/** The testcase names under one outcome element (`failure`, `skipped`, `error`), as the parser reads them. */
async function namesWith(xml: string, outcome: string): Promise<string[]> {
  const count = await xpathCount(xml, `//testcase[${outcome}]`);
  const names: string[] = [];
  for (let index = 1; index <= count; index++) names.push(await xpathString(xml, `(//testcase[${outcome}])[${index}]/@name`));
  return names;
}

describe('virtgate gate --junit', () => {
  it('writes one testcase per gate check, the fail as a failure; the checklist and the exit code are unchanged', async () => {
    const file = path.join(dir, 'plain.xml');
    const plain = await gate();
    const outcome = await gate('--junit', file);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(1);
    expect(outcome.code).toBe(plain.code);
    expect(outcome.stdout).toBe(plain.stdout);
    const xml = await readFile(file, 'utf8');
    expect(await xmlProblems(xml)).toBe('');
    expect(await xpathCount(xml, '/testsuites/testsuite[@name="virtgate gate"]')).toBe(1);
    expect(await xpathCount(xml, '/testsuites/testsuite/testcase')).toBe(GATE_CHECK_IDS.length);
    expect(await namesWith(xml, 'failure')).toContain('nodes.runtime');
    expect(await xpathString(xml, '//testcase[@name="nodes.runtime"]/failure/@message')).toContain('gate-ci-3');
    expect(await xpathString(xml, '//testcase[@name="nodes.runtime"]/system-out')).toContain('docker://24.0.7');
    expect(await xpathString(xml, '/testsuites/testsuite/@timestamp')).toBe('2026-12-02T12:00:00.000Z');
  });

  it('with --json: the same document on stdout, and the report agrees with it check by check', async () => {
    const file = path.join(dir, 'json.xml');
    const outcome = await gate('--json', '--junit', file);
    expect(outcome.code).toBe(1);
    const report = gateResultDocumentSchema.parse(JSON.parse(outcome.stdout));
    const xml = await readFile(file, 'utf8');
    expect(await xmlProblems(xml)).toBe('');
    const ids = (statuses: string[]) => report.checks.filter((check) => statuses.includes(check.status)).map((check) => check.id);
    expect(await namesWith(xml, 'failure')).toEqual(ids(['fail']));
    expect(await namesWith(xml, 'skipped')).toEqual(ids(['warn', 'unknown']));
    expect(Number(await xpathString(xml, '/testsuites/testsuite/@failures'))).toBe(ids(['fail']).length);
    expect(Number(await xpathString(xml, '/testsuites/testsuite/@tests'))).toBe(report.checks.length);
  });

  it('a file that cannot be written is bad input (exit 2), and nothing is printed', async () => {
    const outcome = await gate('--json', '--junit', path.join(dir, 'no-such-dir', 'report.xml'));
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/^virtgate: --junit .*no-such-dir.*: cannot write the report: .*ENOENT.*\n$/);
  });
});

describe('virtgate gate --json when the cluster cannot be read', () => {
  it('a closed port: exit 4, a GateError (Unreachable) on stdout, the one line on stderr, an error testcase in the report', async () => {
    const port = await closedPort();
    const kubeconfig = await writeKubeconfig(path.join(dir, 'unreachable.kubeconfig'), `https://127.0.0.1:${port}`, cp.caFile, { token: 'x' });
    const file = path.join(dir, 'unreachable.xml');
    const outcome = await runCli(['gate', '--kubeconfig', kubeconfig, '--json', '--junit', file, '--request-timeout', '2s']);
    expect(outcome.code).toBe(4);
    const lines = outcome.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^virtgate: cannot reach the API server at https://127\\.0\\.0\\.1:${port} .*ECONNREFUSED`));
    const document = gateErrorDocumentSchema.parse(JSON.parse(outcome.stdout));
    expect(document.error).toEqual({ reason: 'Unreachable', httpStatus: null, message: (lines[0] ?? '').replace(/^virtgate: /, '') });
    expect(document.exitCode).toBe(4);
    const xml = await readFile(file, 'utf8');
    expect(await xmlProblems(xml)).toBe('');
    expect(await namesWith(xml, 'error')).toEqual(['cluster.read']);
    expect(await xpathString(xml, '//testcase/error/@type')).toBe('Unreachable');

    // Without --json, stdout stays empty, as before.
    const plain = await runCli(['gate', '--kubeconfig', kubeconfig, '--request-timeout', '2s']);
    expect(plain.code).toBe(4);
    expect(plain.stdout).toBe('');
  });

  it('a ServiceAccount without the permissions: exit 4, a GateError (Forbidden, 403)', async () => {
    // A real token of a ServiceAccount no RBAC rule names: the API server's authorizer refuses it.
    await createServiceAccount(admin, NAMESPACE, 'no-permissions');
    const review = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
      name: 'no-permissions',
      namespace: NAMESPACE,
      body: { spec: { audiences: [], expirationSeconds: 3600 } },
    });
    const token = review.status?.token;
    if (!token) throw new Error('TokenRequest returned no token');
    const kubeconfig = await writeKubeconfig(path.join(dir, 'forbidden.kubeconfig'), cp.server, cp.caFile, { token });
    const outcome = await runCli(['gate', '--kubeconfig', kubeconfig, '--json', '--now', NOW]);
    expect(outcome.code).toBe(4);
    expect(outcome.stderr).toMatch(/^virtgate: not allowed to .* \(HTTP 403\): .*forbidden.*\n$/);
    const document = gateErrorDocumentSchema.parse(JSON.parse(outcome.stdout));
    expect(document.error.reason).toBe('Forbidden');
    expect(document.error.httpStatus).toBe(403);
    expect(`virtgate: ${document.error.message}\n`).toBe(outcome.stderr);
  });
});
