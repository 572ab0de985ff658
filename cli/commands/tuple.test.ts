import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TupleJson } from './tuple.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATA_FILE = path.join(ROOT, 'data', 'versions.yaml');

function virtgate(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['cli/main.ts', 'tuple', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'virtgate-tuple-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('virtgate tuple', () => {
  it('exits 0 for a supported tuple and prints a checklist', () => {
    const { code, stdout, stderr } = virtgate('--kubevirt', 'v1.9.0', '--kubernetes', '1.36', '--cdi', '1.66', '--calendar-date', '2026-12-02');
    expect(stderr).toBe('');
    expect(stdout).toContain('virtgate tuple: KubeVirt v1.9.0, Kubernetes 1.36, CDI 1.66 on 2026-12-02');
    expect(stdout).toMatch(/PASS\s+tuple\.kubernetes-supported\s+Kubernetes 1\.36 is supported by KubeVirt 1\.9/);
    expect(stdout).toMatch(/PASS\s+tuple\.cdi-paired/);
    expect(stdout).toContain('Result: PASS (exit 0)');
    expect(code).toBe(0);
  });

  it('exits 1 for an unsupported tuple', () => {
    const { code, stdout } = virtgate('--kubevirt', '1.7', '--kubernetes', '1.36', '--calendar-date', '2026-12-02');
    expect(stdout).toMatch(/FAIL\s+tuple\.kubernetes-supported\s+Kubernetes 1\.36 is outside KubeVirt 1\.7's supported window \(1\.32, 1\.33, 1\.34\)/);
    expect(code).toBe(1);
  });

  it('exits 1 for Kubernetes 1.34 on 2026-12-02 (past end of life)', () => {
    const { code, stdout } = virtgate('--kubevirt', '1.9', '--kubernetes', 'v1.34.2', '--calendar-date', '2026-12-02');
    expect(stdout).toMatch(/FAIL\s+tuple\.kubernetes-eol\s+Kubernetes 1\.34 reached end of life on 2026-10-27/);
    expect(code).toBe(1);
  });

  it('exits 3 for EKS Kubernetes 1.35 on 2026-12-02 (end of life within 90 days)', () => {
    const { code, stdout } = virtgate('--kubevirt', '1.9', '--kubernetes', 'v1.35.2-eks-4f2a9b1', '--calendar-date', '2026-12-02');
    expect(stdout).toMatch(/WARN\s+tuple\.kubernetes-eol\s+Kubernetes 1\.35 reaches end of life on 2027-02-28 \(inferred date\), in 88 days/);
    expect(stdout).toContain('Result: WARN (exit 3)');
    expect(code).toBe(3);
  });

  it('exits 3 for a CDI that is not the paired one', () => {
    const { code, stdout } = virtgate('--kubevirt', '1.8', '--kubernetes', '1.34', '--cdi', '1.64', '--calendar-date', '2026-06-01');
    expect(stdout).toMatch(/WARN\s+tuple\.cdi-paired\s+CDI 1\.64 with KubeVirt 1\.8, whose release pins CDI 1\.65/);
    expect(code).toBe(3);
  });

  it('prints JSON with --json', () => {
    const { code, stdout } = virtgate('--kubevirt', '1.7', '--kubernetes', '1.36', '--calendar-date', '2026-12-02', '--json');
    const document = JSON.parse(stdout) as TupleJson;
    expect(document).toMatchObject({ apiVersion: 'virtgate.io/v1alpha1', kind: 'TupleResult', result: 'fail', exitCode: 1, date: '2026-12-02', versionsFile: DATA_FILE });
    expect(document.tuple.kubernetes).toEqual({ state: 'known', version: '1.36', minor: '1.36' });
    expect(document.tuple.cdi.state).toBe('absent');
    expect(document.checks.map((check) => [check.id, check.status])).toEqual([
      ['tuple.kubernetes-supported', 'fail'],
      ['tuple.kubernetes-eol', 'pass'],
      ['tuple.cdi-paired', 'pass'],
      ['tuple.data-fresh', 'pass'],
    ]);
    expect(code).toBe(1);
  });

  it('uses a replacement data file and warns when it is old', async () => {
    const file = path.join(dir, 'old.yaml');
    const text = await readFile(DATA_FILE, 'utf8');
    await writeFile(file, text.replace(/^updated: .*$/m, 'updated: "2026-01-01"'));
    const { code, stdout } = virtgate('--kubevirt', '1.9', '--kubernetes', '1.36', '--cdi', '1.66', '--calendar-date', '2026-12-02', '--versions', file);
    expect(stdout).toMatch(/WARN\s+tuple\.data-fresh\s+the version data is 335 days old \(updated 2026-01-01, limit 180\)/);
    expect(code).toBe(3);
  });

  it.each([
    ['an unparseable version', ['--kubevirt', 'latest', '--kubernetes', '1.35'], /^virtgate: option '--kubevirt <version>' argument 'latest' is invalid\. expected a version/],
    ['a version without a minor', ['--kubevirt', '1.9', '--kubernetes', '1'], /argument '1' is invalid/],
    ['a missing --kubernetes', ['--kubevirt', '1.9'], /required option '--kubernetes <version>' not specified/],
    ['a day that does not exist', ['--kubevirt', '1.9', '--kubernetes', '1.35', '--calendar-date', '2026-02-30'], /argument '2026-02-30' is invalid\. expected a date YYYY-MM-DD/],
    ['a date in another format', ['--kubevirt', '1.9', '--kubernetes', '1.35', '--calendar-date', '02/12/2026'], /expected a date YYYY-MM-DD/],
    ['a missing data file', ['--kubevirt', '1.9', '--kubernetes', '1.35', '--versions', '/nonexistent/versions.yaml'], /^virtgate: \/nonexistent\/versions\.yaml: cannot read the version data file: no such file$/],
  ])('exits 2 with one line for %s', (_name, args, pattern) => {
    const { code, stdout, stderr } = virtgate(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(pattern);
  });

  it('still takes the old --date, judging that day, with a one-line deprecation note on stderr', () => {
    const old = virtgate('--kubevirt', '1.9', '--kubernetes', 'v1.35.2-eks-4f2a9b1', '--date', '2026-12-02', '--json');
    const current = virtgate('--kubevirt', '1.9', '--kubernetes', 'v1.35.2-eks-4f2a9b1', '--calendar-date', '2026-12-02', '--json');
    expect(old.stderr).toBe('virtgate: --date is deprecated and will be removed; use --calendar-date\n');
    expect(current.stderr).toBe('');
    expect((JSON.parse(old.stdout) as TupleJson).date).toBe('2026-12-02');
    expect([old.code, old.stdout]).toEqual([current.code, current.stdout]);
  });

  it('refuses --date together with --calendar-date, and keeps --date out of --help', () => {
    const both = virtgate('--kubevirt', '1.9', '--kubernetes', '1.35', '--date', '2026-12-02', '--calendar-date', '2026-12-02');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^virtgate: option '--date <YYYY-MM-DD>' cannot be used with option '--calendar-date <YYYY-MM-DD>'\n$/);
    const help = virtgate('--help');
    expect(help.stdout).toContain('--calendar-date <YYYY-MM-DD>');
    expect(help.stdout).not.toContain('--date');
  });

  it('exits 2 with one line naming an invalid data file', async () => {
    const file = path.join(dir, 'invalid.yaml');
    await writeFile(file, 'schemaVersion: 1\nupdated: "2026-12-02"\nkubevirtKubernetes:\n  - { kubevirt: 1.10, kubernetes: ["1.37"] }\ncdiPairing: []\nkubernetesEol: []\n');
    const { code, stderr } = virtgate('--kubevirt', '1.9', '--kubernetes', '1.35', '--versions', file);
    expect(code).toBe(2);
    expect(stderr).toBe(`virtgate: ${file}: kubevirtKubernetes[0].kubevirt: Invalid input: expected string, received number (and 1 more problem)\n`);
  });
});
