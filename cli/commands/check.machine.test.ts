/**
 * `virtgate check` on the machine the tests run on, compared with what this test reads for
 * itself. Nothing is hard-coded: the expectation is derived from /proc and /dev here, so the
 * test is right on a KVM host too. (On the project's machines there is no /dev/kvm.)
 */
import { constants, existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realVirtHostValidate } from '../../test/hosts/paths.ts';
import { runCli } from '../../test/hosts/run-cli.ts';
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
  const hwVirt = arm64 || flags.includes('vmx') || flags.includes('svm');
  const kvm = opens('/dev/kvm');
  const tun = opens('/dev/net/tun');
  const osId = readFileSync('/etc/os-release', 'utf8').match(/^ID=["']?([^"'\n]+)/m)?.[1]?.toLowerCase();
  const tier = tun !== 'ok' ? 'none' : hwVirt && kvm === 'ok' ? 'hardware' : 'emulation';
  return {
    arm64,
    hwVirt,
    hypervisor: flags.includes('hypervisor'),
    kvm,
    tun,
    osId,
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
    tier,
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

    expect(byId(report, 'cpu.virtualization').status).toBe(here.hwVirt ? 'pass' : 'fail');
    expect(byId(report, 'dev.kvm').status).toBe(here.kvm === 'ok' ? 'pass' : 'fail');
    if (here.kvm === 'missing') expect(byId(report, 'dev.kvm').message).toBe('/dev/kvm does not exist');
    if (here.kvm === 'ENODEV') expect(byId(report, 'dev.kvm').message).toMatch(/driver is not loaded/);
    expect(byId(report, 'dev.tun').status).toBe(here.tun === 'ok' ? 'pass' : 'fail');
    expect(byId(report, 'kvm.nested').status).toBe(here.hypervisor ? 'warn' : 'pass');
    // Never a stand-in on the real machine.
    expect(byId(report, 'dev.kvm').observed?.overridden).toBeUndefined();

    expect(report.tier).toBe(here.tier);
    expect(report.conclusive).toBe(true);
    // The real tool ran and was read.
    expect(byId(report, 'virt-host-validate').observed).toMatchObject({ source: 'tool', unparsedLines: 0 });
    if (!here.hwVirt) expect(byId(report, 'virt-host-validate').status).toBe('fail');

    const blocking = report.checks.some((c) => c.status === 'fail' && !['cpu.virtualization', 'dev.kvm', 'dev.tun'].includes(c.id));
    expect(report.ready).toBe(here.tier === 'hardware' && !blocking);
    expect(code).toBe(report.ready ? 0 : 1);
  });

  it('with --allow-emulation, a machine without KVM but with tun is emulation and virt-host-validate\'s KVM failure only warns', async () => {
    const here = readHere();
    const { code, report } = await checkHere('--allow-emulation');
    expect(report.tier).toBe(here.tier);
    if (here.tier === 'emulation' && !here.hwVirt) {
      const vhvLines = (byId(report, 'virt-host-validate').observed?.lines ?? []) as Array<{ status: string; label: string }>;
      const otherFails = vhvLines.filter((line) => line.status === 'FAIL' && !/hardware virtualization|\/dev\/kvm/.test(line.label));
      expect(byId(report, 'virt-host-validate').status).toBe(otherFails.length > 0 ? 'fail' : 'warn');
    }
    const blocking = report.checks.some((c) => c.status === 'fail' && !['cpu.virtualization', 'dev.kvm', 'dev.tun'].includes(c.id));
    expect(report.ready).toBe(here.tier !== 'none' && !blocking);
    expect(code).toBe(report.ready ? 0 : 1);
  });
});
