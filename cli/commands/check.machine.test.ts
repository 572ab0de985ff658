/**
 * `virtgate check` on the machine the tests run on, judged by what this test reads for itself.
 * The test does not re-derive the tier with the product's rule (that could never disagree with
 * it); it holds the report to facts and implications a person would check by hand: a direct
 * open() of /dev/kvm and /dev/net/tun, the CPU flags, /proc and /etc/os-release. Every
 * host-dependent expectation is written for both kinds of host, a host with usable KVM and one
 * without (`byHost`), and the branch this machine is on is chosen by that reading alone, so the
 * other branch is the same test on another machine, never an `if` that asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { constants, existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realVirtHostValidate } from '../../test/lab/hosts/paths.ts';
import { runCli } from '../../test/lab/cli.ts';
import type { CheckOutcome, Verdict } from '../../core/checks/verdict.ts';

interface MachineReport extends Verdict {
  hostRoot: string;
  facts: {
    hostRoot: string;
    cpu: { state: string; value?: { arch: string; vmx: boolean; svm: boolean; hypervisor: boolean } };
    kernelRelease: { state: string; value?: string };
    os: { state: string; value?: { id: string } };
  };
}

/** open(O_RDWR) result for a path: 'ok', 'missing' or the errno code. */
function opens(file: string): string {
  if (!existsSync(file)) return 'missing';
  try {
    closeSync(openSync(file, constants.O_RDWR | constants.O_NONBLOCK));
    return 'ok';
  } catch (error) {
    return error && typeof error === 'object' && 'code' in error ? String(error.code) : 'EUNKNOWN';
  }
}

function readHere() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const flags = cpuinfo.match(/^flags\s*:(.*)$/m)?.[1]?.trim().split(/\s+/) ?? [];
  const arm64 = flags.length === 0 && /^(Features|CPU implementer)\s*:/m.test(cpuinfo);
  const kvm = opens('/dev/kvm');
  const kvmPvm = existsSync('/sys/module/kvm_pvm');
  const x86WithoutHwVirt = !arm64 && !flags.includes('vmx') && !flags.includes('svm');
  return {
    arm64,
    x86WithoutHwVirt,
    /** Usable KVM, as a person reads it: the CPU can (VT-x/AMD-V, or arm64) and /dev/kvm opens, not through kvm_pvm. */
    kvmUsable: !x86WithoutHwVirt && kvm === 'ok' && !kvmPvm,
    hypervisor: flags.includes('hypervisor'),
    kvm,
    // Paravirtual KVM (no VT-x/AMD-V): the module's sysfs directory, read here independently.
    kvmPvm,
    tun: opens('/dev/net/tun'),
    osId: readFileSync('/etc/os-release', 'utf8').match(/^ID=["']?([^"'\n]+)/m)?.[1]?.toLowerCase(),
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
  };
}

async function checkHere(...extra: string[]): Promise<{ code: number; report: MachineReport }> {
  await realVirtHostValidate();
  const outcome = await runCli(['check', '--json', ...extra]);
  expect(outcome.stderr).toBe('');
  return { code: outcome.code, report: JSON.parse(outcome.stdout) as MachineReport };
}

type Here = ReturnType<typeof readHere>;

/** The expectation for this machine, from the two written for each kind of host. */
function byHost<T>(here: Here, expected: { withKvm: T; withoutKvm: T }): T {
  return here.kvmUsable ? expected.withKvm : expected.withoutKvm;
}

/** The tier a person expects from the reading: hardware needs usable KVM and tun; tun alone is emulation. */
function expectedTier(here: Here): Verdict['tier'] {
  if (here.tun !== 'ok') return 'none';
  return byHost(here, { withKvm: 'hardware', withoutKvm: 'emulation' });
}

const TIER_ROWS = ['cpu.virtualization', 'dev.kvm', 'dev.tun'];

/** Failing rows that are neither a tier row nor follow from one: each keeps a host from ready. */
const blockingFailures = (report: Verdict) =>
  report.checks.filter((c) => c.status === 'fail' && !TIER_ROWS.includes(c.id) && !TIER_ROWS.includes(c.followsFrom ?? '')).map((c) => c.id);

const byId = (report: Verdict, id: string): CheckOutcome => {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no ${id} check in the report`);
  return check;
};

describe('virtgate check on this machine', () => {
  it('reports what the machine really is', async () => {
    const here = readHere();
    const { code, report } = await checkHere();

    expect(report.hostRoot).toBe('/');
    expect(report.facts.kernelRelease).toEqual({ state: 'ok', value: here.kernel });
    expect(report.facts.os.value?.id).toBe(here.osId);
    expect(report.facts.cpu.value).toMatchObject({ arch: here.arm64 ? 'arm64' : 'x86_64', hypervisor: here.hypervisor });
    // The real machine's kernel registers kvm where devices.txt says (its sysfs, or the table).
    expect(byId(report, 'dev.kvm').observed?.expected ?? '10:232').toBe('10:232');
    expect(report.conclusive).toBe(true);
    // The real tool ran and was read.
    expect(byId(report, 'virt-host-validate').observed).toMatchObject({ source: 'tool', unparsedLines: 0 });
    expect(code).toBe(report.ready ? 0 : 1);
  });

  it('dev.kvm and dev.tun agree with a direct open() of the devices, on a host with KVM and on one without', async () => {
    const here = readHere();
    const { report } = await checkHere('--no-vhv');
    const kvm = byId(report, 'dev.kvm');
    // Where KVM is usable /dev/kvm opens and passes; where not, the open's own outcome is the row.
    const expected = byHost(here, {
      withKvm: { status: 'pass', message: /^\/dev\/kvm \(10:232\) opens read-write/ },
      withoutKvm:
        here.kvm === 'ok'
          ? // It opens, but the CPU cannot (x86 without VT-x/AMD-V) or the kernel serves it through kvm_pvm.
            { status: here.kvmPvm ? 'warn' : 'pass', message: here.kvmPvm ? /served by kvm_pvm: paravirtual KVM/ : /opens read-write/ }
          : here.kvm === 'missing'
            ? { status: 'fail', message: /^\/dev\/kvm does not exist$/ }
            : here.kvm === 'ENODEV' || here.kvm === 'ENXIO'
              ? { status: 'fail', message: /driver is not loaded/ }
              : here.kvm === 'EACCES' || here.kvm === 'EPERM'
                ? { status: 'fail', message: /cannot be opened read-write/ }
                : { status: 'error', message: new RegExp(here.kvm) },
    });
    expect(kvm.status).toBe(expected.status);
    expect(kvm.message).toMatch(expected.message);
    expect(byId(report, 'dev.tun').status).toBe(here.tun === 'ok' ? 'pass' : 'fail');
  });

  it('the tier and ready are what the reading predicts, on a host with KVM and on one without', async () => {
    const here = readHere();
    const { report } = await checkHere('--no-vhv');
    // A CPU with VT-x/AMD-V (or arm64, where /dev/kvm decides) passes; an x86 CPU without them fails, even where a kernel serves /dev/kvm (kvm_pvm).
    expect(byId(report, 'cpu.virtualization').status).toBe(here.x86WithoutHwVirt ? 'fail' : 'pass');
    expect(report.tier).toBe(expectedTier(here));
    // Ready only on hardware (without --allow-emulation), and only when nothing else fails.
    expect(report.ready).toBe(byHost(here, { withKvm: here.tun === 'ok' && blockingFailures(report).length === 0, withoutKvm: false }));
  });

  it('with --allow-emulation: a host without KVM but with tun is ready unless another check fails; a host with KVM is judged as before', async () => {
    const here = readHere();
    const { code, report } = await checkHere('--no-vhv', '--allow-emulation');
    expect(report.tier).toBe(expectedTier(here));
    // KVM's own rows, and the rows that say they follow from them (kvm.run failing at open), are what --allow-emulation accepts.
    const others = blockingFailures(report);
    // The same rule on both kinds of host: hardware, or emulation now allowed, and nothing else failing.
    expect(report.ready).toBe(byHost(here, { withKvm: here.tun === 'ok' && others.length === 0, withoutKvm: here.tun === 'ok' && others.length === 0 }));
    expect(code).toBe(report.ready ? 0 : 1);
  });

  it('kvm.run agrees with what Python\'s fcntl.ioctl sees of /dev/kvm: pass where a VM and a vCPU can be made, else the same failing step', async () => {
    const reading = JSON.parse(
      execFileSync('python3', [
        '-c',
        `
import errno, fcntl, json, os
def out(**f): print(json.dumps(f)); raise SystemExit
try: fd = os.open('/dev/kvm', os.O_RDWR | os.O_CLOEXEC)
except OSError as e: out(step='open', errno=errno.errorcode[e.errno])
try: vm = fcntl.ioctl(fd, 0xAE01, 0); fcntl.ioctl(vm, 0xAE41, 0)
except OSError as e: out(step='create', errno=errno.errorcode[e.errno])
out(step=None)
`,
      ]).toString(),
    ) as { step: string | null; errno?: string };
    const { report } = await checkHere('--no-vhv');
    const run = byId(report, 'kvm.run');
    const here = readHere();
    // On a host with usable KVM the Python reading makes a VM and a vCPU; on one without, it stops at a step.
    expect(reading.step === null, 'the Python reading made a VM and a vCPU').toBe(byHost(here, { withKvm: true, withoutKvm: here.kvm === 'ok' }));
    if (here.arm64) expect(run.status).toBe('skip');
    else if (reading.step === null) expect(run.status).toBe('pass');
    // It ran and failed: never a skip; a device that does not open for dev.kvm either is its cause.
    else if (reading.step === 'open') expect(run).toMatchObject({ message: `the tiny KVM guest failed at open: ${reading.errno}`, status: 'fail', followsFrom: 'dev.kvm' });
    else expect(run).toMatchObject({ status: 'fail', observed: { errno: reading.errno } });
  });

  it('platform and the inventory agree: in a container, platform says the kernel\'s machine is seen from one', async () => {
    const { report } = await checkHere('--no-vhv');
    const platform = byId(report, 'platform');
    const inContainer = existsSync('/.dockerenv') || existsSync('/run/.containerenv');
    expect(platform.message.startsWith('the kernel runs on ')).toBe(true);
    if (inContainer) expect(platform.message).toMatch(/virtgate runs in a container on it \(\/(\.dockerenv|run\/\.containerenv)\)$/);
    else expect(platform.message).not.toMatch(/container/);
  });

  it('virt-host-validate fails on a host without hardware virtualization, as the real tool says, and reads without error on one with it', async () => {
    const here = readHere();
    const { report } = await checkHere();
    const vhv = byId(report, 'virt-host-validate').status;
    // The tool's own "Checking for hardware virtualization" FAILs without VT-x/AMD-V; with them it may still warn (IOMMU, cgroups), never error.
    if (here.x86WithoutHwVirt) expect(vhv).toBe('fail');
    else expect(['pass', 'warn', 'fail']).toContain(vhv);
    expect(byHost(here, { withKvm: ['pass', 'warn'], withoutKvm: ['pass', 'warn', 'fail'] })).toContain(vhv);
  });
});
