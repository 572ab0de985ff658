import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHost, type BuiltHost, type HostProfile } from '../../test/lab/hosts/build-host.ts';
import { CLI_MAIN, tempDir, vhvFixture } from '../../test/lab/hosts/paths.ts';
import { runCli } from '../../test/lab/cli.ts';
import { CHECK_IDS, exampleFacts } from '../../core/checks/registry.ts';
import { CHECK_STATUSES } from '../../core/checks/outcome.ts';
import { TIERS } from '../../core/checks/verdict.ts';
import { DOCUMENT_API_VERSION, DOCUMENT_KINDS } from '../../core/documents.ts';
import { inventorySchema } from '../../core/inventory/schema.ts';

const run = promisify(execFile);

/** The `--json` document exactly as docs/check.md describes it. */
const observation = z.union([
  z.object({ state: z.literal('ok'), value: z.unknown() }).strict(),
  z.object({ state: z.literal('unknown'), reason: z.string() }).strict(),
]);
const device = z.object({ path: z.string(), state: z.enum(['missing', 'present', 'unknown']) }).passthrough();
const REPORT = z
  .object({
    apiVersion: z.literal(DOCUMENT_API_VERSION),
    kind: z.literal(DOCUMENT_KINDS.check),
    tier: z.enum(TIERS),
    ready: z.boolean(),
    conclusive: z.boolean(),
    checks: z.array(
      z
        .object({
          id: z.enum(CHECK_IDS),
          status: z.enum(CHECK_STATUSES),
          message: z.string().min(1),
          hint: z.string().min(1).optional(),
          observed: z.record(z.string(), z.unknown()).optional(),
          followsFrom: z.enum(CHECK_IDS).optional(),
        })
        .strict(),
    ),
    virtgateVersion: z.string().regex(/^\d+\.\d+\.\d+/),
    hostRoot: z.string(),
    policy: z.object({ allowEmulation: z.boolean(), minKernel: z.string() }).strict(),
    facts: z
      .object({
        hostRoot: z.string(),
        cpu: observation,
        kvm: device,
        tun: device,
        vhostNet: device,
        kernelRelease: observation,
        os: observation,
        modules: observation,
        nested: z.object({ kvmIntel: z.string().nullable(), kvmAmd: z.string().nullable() }).strict(),
        cgroup: observation,
        iommu: observation,
        hugepages: observation,
        platform: z
          .object({
            dmi: z.object({ sysVendor: z.string().nullable(), productName: z.string().nullable(), productVersion: z.string().nullable(), biosVendor: z.string().nullable() }).strict().nullable(),
            hypervisorType: z.string().nullable(),
            containerMarker: z.string().nullable(),
            deviceTree: z.object({ compatible: z.array(z.string()), hypervisor: z.array(z.string()).nullable() }).strict().nullable(),
          })
          .strict(),
        kvmProvider: observation,
        kvmRun: z.union([
          z.object({ state: z.literal('not-run'), reason: z.string().min(1) }).strict(),
          z.object({ state: z.literal('ran'), outcome: z.enum(['halted', 'failed', 'timeout', 'error']), devicePath: z.string(), durationMs: z.number(), steps: z.array(z.object({ step: z.string() }).passthrough()) }).passthrough(),
        ]),
        deviceAccess: z.object({ kvm: device, tun: device, 'vhost-net': device }).strict(),
      })
      .passthrough(),
    inventory: inventorySchema.strict(),
  })
  .strict();
type Report = z.infer<typeof REPORT>;

let base = '';
let remove = async () => {};
const hosts = new Map<HostProfile, BuiltHost>();

beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('cli-check'));
  for (const profile of ['intel-metal', 'no-vmx', 'no-tun', 'kvm-enodev', 'rhel9'] as const) {
    hosts.set(profile, await buildHost(path.join(base, profile), profile));
  }
});
afterAll(() => remove());

function host(profile: HostProfile): BuiltHost {
  const built = hosts.get(profile);
  if (!built) throw new Error(`host ${profile} was not built`);
  return built;
}

async function checkJson(profile: HostProfile, ...extra: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const outcome = await runCli(['check', '--json', ...host(profile).cliArgs, ...extra]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(outcome.stdout);
  } catch {
    throw new Error(`virtgate check --json printed no JSON (exit ${outcome.code}): ${outcome.stdout.slice(0, 300)} ${outcome.stderr.slice(0, 300)}`);
  }
  return { code: outcome.code, report: REPORT.parse(parsed), stderr: outcome.stderr };
}

const status = (report: Report, id: string) => report.checks.find((check) => check.id === id)?.status;

describe('virtgate check --json: the inventory block', () => {
  it('on this machine: CPU count and memory match /proc/cpuinfo and /proc/meminfo', async () => {
    const outcome = await runCli(['check', '--json', '--no-vhv']);
    const report = REPORT.parse(JSON.parse(outcome.stdout));
    const processors = (await readFile('/proc/cpuinfo', 'utf8')).split('\n').filter((line) => /^processor\s*:/.test(line)).length;
    const memTotalKiB = Number(/^MemTotal:\s+(\d+) kB$/m.exec(await readFile('/proc/meminfo', 'utf8'))?.[1]);
    expect(report.inventory).toMatchObject({ collected: true, cpu: { threads: processors }, memoryTotalBytes: memTotalKiB * 1024 });
  });

  it('under --host-root: not collected, with the reason; the verdict is the same either way', async () => {
    const { report } = await checkJson('intel-metal', '--no-vhv');
    expect(report.inventory).toEqual({ collected: false, reason: `--host-root ${host('intel-metal').root}: the inventory describes the machine virtgate runs on, not a host root` });
  });
});

describe('virtgate check --json on fixture hosts', () => {
  it('prints the documented schema, every check once, and exits 0 when ready', async () => {
    const { code, report, stderr } = await checkJson('intel-metal', '--no-vhv');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report).toMatchObject({ tier: 'hardware', ready: true, conclusive: true, hostRoot: host('intel-metal').root });
    expect(report.policy).toEqual({ allowEmulation: false, minKernel: '4.18' });
    expect(report.checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
    // Exactly the registered families. facts: nothing undocumented slips in.
    expect(Object.keys(report.facts).sort()).toEqual(Object.keys(exampleFacts()).sort());
    // The host's sysfs registers kvm at the stand-in's 1:3 (test/lab/hosts/device-nodes.ts).
    expect(report.facts.kvm).toMatchObject({ state: 'present', major: 1, minor: 3, expected: '1:3', open: 'ok' });
    expect(report.checks.find((check) => check.id === 'dev.kvm')?.message).toMatch(/^\/dev\/kvm \(1:3\) opens read-write/);
  });

  it('--no-kvm-run leaves the tiny guest out; on a fixture it is skipped anyway, saying why', async () => {
    const off = await checkJson('intel-metal', '--no-vhv', '--no-kvm-run');
    expect(off.report.facts.kvmRun).toEqual({ state: 'not-run', reason: 'turned off (--no-kvm-run)' });
    const on = await checkJson('intel-metal', '--no-vhv');
    expect(on.report.checks.find((check) => check.id === 'kvm.run')).toMatchObject({ status: 'skip', message: expect.stringMatching(/dev\/kvm is not the real 10:232 character device$/) });
  });

  it('exits 1 when not ready (emulation), and 0 for the same host with --allow-emulation', async () => {
    const strict = await checkJson('no-vmx', '--no-vhv');
    expect([strict.code, strict.report.tier, strict.report.ready]).toEqual([1, 'emulation', false]);
    const lax = await checkJson('no-vmx', '--no-vhv', '--allow-emulation');
    expect([lax.code, lax.report.tier, lax.report.ready]).toEqual([0, 'emulation', true]);
    // One cause: no /dev/kvm follows from the CPU without vmx, and the JSON names it.
    expect(lax.report.checks.find((check) => check.id === 'dev.kvm')).toMatchObject({ status: 'fail', followsFrom: 'cpu.virtualization' });
    expect(lax.report.checks.find((check) => check.id === 'cpu.virtualization')?.followsFrom).toBeUndefined();
    expect(lax.report.policy.allowEmulation).toBe(true);
  });

  it('exits 1 on a host that cannot run VMs at all (no tun)', async () => {
    const { code, report } = await checkJson('no-tun', '--no-vhv', '--allow-emulation');
    expect([code, report.tier, report.ready]).toEqual([1, 'none', false]);
  });

  it('/dev/kvm whose driver is absent: virt-host-validate\'s recording passes it, virtgate does not', async () => {
    const { code, report } = await checkJson('kvm-enodev', '--vhv-output', await vhvFixture('libvirt-9.0-kvm-ok.txt'));
    const vhv = report.checks.find((check) => check.id === 'virt-host-validate');
    const lines = (vhv?.observed?.lines ?? []) as Array<{ label: string; status: string }>;
    expect(lines.find((line) => line.label === 'Checking if device /dev/kvm is accessible')?.status).toBe('PASS');
    expect(report.checks.find((check) => check.id === 'dev.kvm')).toMatchObject({ status: 'fail', message: '/dev/kvm exists but its driver is not loaded (open: ENODEV)' });
    expect([code, report.tier]).toEqual([1, 'emulation']);
  });

  it('a recorded FAIL from virt-host-validate makes a hardware host not ready', async () => {
    const { code, report } = await checkJson('intel-metal', '--vhv-output', await vhvFixture('libvirt-9.0-kvm-module-missing.txt'));
    expect(status(report, 'virt-host-validate')).toBe('fail');
    expect([code, report.tier, report.ready]).toEqual([1, 'hardware', false]);
  });

  it('--min-kernel above the host kernel fails kernel.version', async () => {
    const { code, report } = await checkJson('rhel9', '--no-vhv', '--min-kernel', '6.0');
    expect(status(report, 'kernel.version')).toBe('fail');
    expect(report.policy.minKernel).toBe('6.0');
    expect(code).toBe(1);
  });

  it('a hanging virt-host-validate is killed at --vhv-timeout; its error does not cost readiness', async () => {
    // A fake, because the real tool cannot be made to hang on demand.
    const fake = path.join(base, 'hanging-vhv');
    await writeFile(fake, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    const { code, report } = await checkJson('intel-metal', '--vhv-command', fake, '--vhv-timeout', '1');
    expect(report.checks.find((check) => check.id === 'virt-host-validate')).toMatchObject({ status: 'error', observed: { timeoutSeconds: 1 } });
    expect([code, report.ready, report.conclusive]).toEqual([0, true, true]);
  });

  it('a missing virt-host-validate is a skip with an install hint', async () => {
    const { code, report } = await checkJson('intel-metal', '--vhv-command', path.join(base, 'no-such-tool'));
    expect(report.checks.find((check) => check.id === 'virt-host-validate')).toMatchObject({ status: 'skip', hint: expect.stringMatching(/libvirt-clients/) });
    expect(code).toBe(0);
  });
});

describe('virtgate check: usage errors exit 2 with one line and no stack trace', () => {
  const oneLine = (stderr: string) => {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at /m);
  };

  it('an unknown flag', async () => {
    const outcome = await runCli(['check', '--jsonn']);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    oneLine(outcome.stderr);
    expect(outcome.stderr).toMatch(/^virtgate: unknown option '--jsonn'.*--json/);
  });

  it('a missing host root', async () => {
    const outcome = await runCli(['check', '--host-root', path.join(base, 'does-not-exist'), '--no-vhv']);
    expect(outcome.code).toBe(2);
    oneLine(outcome.stderr);
    expect(outcome.stderr).toMatch(/^virtgate: host root .*does-not-exist cannot be read: ENOENT.*pass an existing directory to --host-root\n$/);
  });

  it('a host root that is a file', async () => {
    const file = path.join(base, 'a-file');
    await writeFile(file, '');
    const outcome = await runCli(['check', '--host-root', file, '--no-vhv']);
    expect(outcome.code).toBe(2);
    oneLine(outcome.stderr);
    expect(outcome.stderr).toMatch(/is not a directory/);
  });

  it('--vhv-output naming a missing file', async () => {
    const outcome = await runCli(['check', ...host('intel-metal').cliArgs, '--vhv-output', path.join(base, 'absent.txt')]);
    expect(outcome.code).toBe(2);
    oneLine(outcome.stderr);
    expect(outcome.stderr).toMatch(/--vhv-output .*absent\.txt: file not found or not readable/);
  });

  it.each([
    [['--min-kernel', 'four']],
    [['--vhv-timeout', '0']],
    [['--device-numbers', 'kvm=10:232']],
    [['--vhv-output', 'x', '--no-vhv']],
    [['extra-argument']],
  ])('a bad value: %j', async (args) => {
    const outcome = await runCli(['check', ...args]);
    expect(outcome.code).toBe(2);
    oneLine(outcome.stderr);
  });

  it('an unknown command', async () => {
    const outcome = await runCli(['chekc']);
    expect(outcome.code).toBe(2);
    oneLine(outcome.stderr);
  });

  it('an unknown command, also with --help (it used to print the root help and exit 0)', async () => {
    for (const args of [['chekc', '--help'], ['chekc', '-h', '--json'], ['gat', '--kubeconfig', 'x', '--help']]) {
      const outcome = await runCli(args);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stdout).toBe('');
      oneLine(outcome.stderr);
      expect(outcome.stderr).toMatch(new RegExp(`^virtgate: unknown command '${args[0]}'`));
    }
    expect(await runCli(['help'])).toMatchObject({ code: 0 });
    expect(await runCli(['--help'])).toMatchObject({ code: 0 });
  });
});

describe('virtgate check: help and output', () => {
  it('--help exits 0, lists the flags and exit codes, and has no device-number option', async () => {
    const outcome = await runCli(['check', '--help']);
    expect(outcome.code).toBe(0);
    for (const flag of ['--host-root', '--json', '--allow-emulation', '--min-kernel', '--vhv-output', '--no-vhv', '--vhv-command', '--vhv-timeout']) {
      expect(outcome.stdout).toContain(flag);
    }
    expect(outcome.stdout).toContain('Exit codes: 0 ready, 1 not ready (the report says why), 2 bad input (flags, files) or an internal error, 4 with --node: the cluster could not be reached or read, or the check pod did not finish within --timeout (retry). Errors are one line on stderr starting "virtgate:".');
    expect(outcome.stdout).not.toContain('--device-numbers');
  });

  it('the table names every check, shows hints for problems and the verdict; no colour when stdout is not a TTY', async () => {
    const outcome = await runCli(['check', ...host('no-vmx').cliArgs, '--no-vhv']);
    expect(outcome.code).toBe(1);
    for (const id of CHECK_IDS) expect(outcome.stdout).toContain(id);
    expect(outcome.stdout).toMatch(/FAIL\s+cpu\.virtualization\s+the CPU shows neither vmx nor svm/);
    // A GCE VM: the remedy is nested virtualization in GCE's words, not a firmware switch.
    expect(outcome.stdout).toContain('→ This is a virtual machine: enable nested virtualization on the instance (gcloud compute instances create … --enable-nested-virtualization');
    expect(outcome.stdout).not.toContain('firmware');
    // No /dev/kvm follows from the CPU: one FAIL row, the consequence under it.
    expect(outcome.stdout).toMatch(/\n {4}↳ {4}dev\.kvm +follows from cpu\.virtualization \(FAIL\): \/dev\/kvm does not exist\n/);
    expect(outcome.stdout).toContain('NOT READY for KubeVirt VMs: tier emulation');
    expect(outcome.stdout).not.toContain('\u001b[');
  });

  it('--json output has no colour either, even for a failing host', async () => {
    const outcome = await runCli(['check', '--json', ...host('no-tun').cliArgs, '--no-vhv']);
    expect(outcome.stdout).not.toContain('\u001b[');
  });

  it('colours the table on a TTY (so the check above is not vacuous)', async () => {
    // util-linux `script` gives the CLI a pseudo-terminal as stdout.
    const command = [process.execPath, CLI_MAIN, 'check', ...host('no-vmx').cliArgs, '--no-vhv'].map((arg) => `'${arg}'`).join(' ');
    // A colour terminal: Node decides from TERM, which CI may not set.
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    // Node counts a terminal as monochrome when CI is set (unless a known CI service is named).
    delete env.CI;
    let stdout = '';
    try {
      ({ stdout } = await run('script', ['-q', '-e', '-c', command, '/dev/null'], { env }));
    } catch (error) {
      stdout = error && typeof error === 'object' && 'stdout' in error ? String(error.stdout) : '';
      if (!stdout) throw error;
    }
    expect(stdout).toContain('\u001b[31mFAIL');
    expect(stdout).toContain('NOT READY');
  });

  it('wraps long lines to the terminal width on a TTY, and not when piped', async () => {
    const command = ['stty', 'cols', '72;', process.execPath, CLI_MAIN, 'check', ...host('no-vmx').cliArgs, '--no-vhv'].map((arg, index) => (index < 3 ? arg : `'${arg}'`)).join(' ');
    let stdout = '';
    try {
      ({ stdout } = await run('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } }));
    } catch (error) {
      stdout = error && typeof error === 'object' && 'stdout' in error ? String(error.stdout) : '';
      if (!stdout) throw error;
    }
    const lines = stdout.replace(/\r/g, '').split('\n');
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(72);
    const piped = await runCli(['check', ...host('no-vmx').cliArgs, '--no-vhv']);
    expect(piped.stdout.split('\n').some((line) => line.length > 72)).toBe(true);
  });
});
