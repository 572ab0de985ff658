/**
 * `virtgate check` on the machine the tests run on, judged by what this test reads for itself.
 * The test does not re-derive the tier with the product's rule (that could never disagree with
 * it); it holds the report to facts and implications a person would check by hand: a direct
 * open() of /dev/kvm and /dev/net/tun, the CPU flags, /proc and /etc/os-release. It holds on a
 * host whose kernel serves /dev/kvm and on one that does not.
 */
import { execFileSync } from 'node:child_process';
import { constants, existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realVirtHostValidate } from '../../test/lab/hosts/paths.ts';
import { runCli } from '../../test/lab/cli.ts';
import type { CheckResult, Verdict } from '../../core/checks/verdict.ts';

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
  return {
    arm64,
    x86WithoutHwVirt: !arm64 && !flags.includes('vmx') && !flags.includes('svm'),
    hypervisor: flags.includes('hypervisor'),
    kvm: opens('/dev/kvm'),
    // Paravirtual KVM (no VT-x/AMD-V): the module's sysfs directory, read here independently.
    kvmPvm: existsSync('/sys/module/kvm_pvm'),
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

const byId = (report: Verdict, id: string): CheckResult => {
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
    // Never a stand-in on the real machine.
    expect(byId(report, 'dev.kvm').observed?.overridden).toBeUndefined();
    expect(report.conclusive).toBe(true);
    // The real tool ran and was read.
    expect(byId(report, 'virt-host-validate').observed).toMatchObject({ source: 'tool', unparsedLines: 0 });
    expect(code).toBe(report.ready ? 0 : 1);
  });

  it('dev.kvm and dev.tun agree with a direct open() of the devices', async () => {
    const here = readHere();
    const { report } = await checkHere('--no-vhv');
    expect(byId(report, 'dev.kvm').status).toBe(here.kvm !== 'ok' ? 'fail' : here.kvmPvm ? 'warn' : 'pass');
    if (here.kvm === 'ok' && here.kvmPvm) expect(byId(report, 'dev.kvm').message).toMatch(/served by kvm_pvm: paravirtual KVM/);
    if (here.kvm === 'missing') expect(byId(report, 'dev.kvm').message).toBe('/dev/kvm does not exist');
    if (here.kvm === 'ENODEV') expect(byId(report, 'dev.kvm').message).toMatch(/driver is not loaded/);
    expect(byId(report, 'dev.tun').status).toBe(here.tun === 'ok' ? 'pass' : 'fail');
  });

  it('is never hardware without the things hardware virtualization needs', async () => {
    const here = readHere();
    const { report } = await checkHere('--no-vhv');
    // An x86 host whose CPU flags lack vmx/svm is never hardware, even where a kernel serves /dev/kvm (kvm_pvm).
    if (here.x86WithoutHwVirt) {
      expect(report.tier).not.toBe('hardware');
      expect(byId(report, 'cpu.virtualization').status).toBe('fail');
    }
    // A host whose /dev/kvm does not open is never hardware.
    if (here.kvm !== 'ok') expect(report.tier).not.toBe('hardware');
    // A host whose /dev/kvm is served by kvm_pvm is never hardware.
    if (here.kvmPvm) expect(report.tier).not.toBe('hardware');
    // Without a tun device no VM gets a network: the host cannot run VMs at all.
    if (here.tun !== 'ok') expect(report.tier).toBe('none');
    // A host that can run VMs is at least emulation.
    if (here.tun === 'ok') expect(report.tier).not.toBe('none');
    // Not ready where it is not hardware, unless emulation is allowed.
    if (report.tier !== 'hardware') expect(report.ready).toBe(false);
  });

  it('a host on which only emulation is possible is ready with --allow-emulation unless another check fails', async () => {
    const here = readHere();
    const { code, report } = await checkHere('--no-vhv', '--allow-emulation');
    if (here.tun === 'ok') expect(report.tier).not.toBe('none');
    // KVM's own rows, and the rows that say they follow from them (kvm.run failing at open), are what --allow-emulation accepts.
    const kvmRows = ['cpu.virtualization', 'dev.kvm'];
    const otherFailures = report.checks.filter((c) => c.status === 'fail' && !kvmRows.includes(c.id) && !kvmRows.includes(c.followsFrom ?? ''));
    if (report.tier !== 'none' && otherFailures.length === 0) expect(report.ready).toBe(true);
    if (otherFailures.length > 0) expect(report.ready).toBe(false);
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
    if (readHere().arm64) expect(run.status).toBe('skip');
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

  it('virt-host-validate fails on a host without hardware virtualization, as the real tool says', async () => {
    const here = readHere();
    const { report } = await checkHere();
    if (here.x86WithoutHwVirt) expect(byId(report, 'virt-host-validate').status).toBe('fail');
    else expect(byId(report, 'virt-host-validate').status).not.toBe('error');
  });
});
