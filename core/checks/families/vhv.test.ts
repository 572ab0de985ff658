import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { realVirtHostValidate, vhvFixture } from '../../../test/lab/hosts/paths.ts';
import { parseVhvOutput } from '../host/parse/vhv-output.ts';
import { evaluateVirtHostValidate, readVhvRecording, runVirtHostValidate, type VhvFacts } from './vhv.ts';

const recorded = (text: string): VhvFacts => ({ state: 'ran', source: 'recording', exitCode: null, ...parseVhvOutput(text) });

describe('virt-host-validate check on the recorded libvirt 9.0 outputs', () => {
  it('kvm-ok: warn only for the IOMMU and secure-guest notes; every line kept in observed', async () => {
    const check = evaluateVirtHostValidate(await readVhvRecording(await vhvFixture('libvirt-9.0-kvm-ok.txt')), false);
    expect(check.status).toBe('warn');
    expect(check.message).toMatch(/^13 checks, 0 FAIL: WARN Checking for device assignment IOMMU support \(No ACPI DMAR table found/);
    expect(check.message).toContain('WARN Checking for secure guest support');
    const lines = (check.observed?.lines ?? []) as Array<{ label: string; status: string; result: string }>;
    expect(lines).toHaveLength(13);
    expect(lines.find((line) => line.label === 'Checking if device /dev/kvm is accessible')).toMatchObject({ status: 'PASS', result: 'pass' });
    expect(check.observed).toMatchObject({ source: 'recording', exitCode: null, unparsedLines: 0 });
  });

  it('kvm-module-missing: fail on /dev/kvm; with allowEmulation the acceleration FAIL becomes a warning', async () => {
    const facts = await readVhvRecording(await vhvFixture('libvirt-9.0-kvm-module-missing.txt'));
    const strict = evaluateVirtHostValidate(facts, false);
    expect(strict.status).toBe('fail');
    expect(strict.message).toMatch(/^12 checks, 1 FAIL: FAIL Checking if device \/dev\/kvm exists \(Check that the 'kvm-intel' or 'kvm-amd' modules are loaded/);
    expect(evaluateVirtHostValidate(facts, true).status).toBe('warn');
  });

  it('no-hw-virt: fail on hardware virtualization, and no /dev/kvm lines at all', async () => {
    const facts = await readVhvRecording(await vhvFixture('libvirt-9.0-no-hw-virt.txt'));
    if (facts.state !== 'ran') throw new Error('recording did not read');
    expect(facts.lines.some((line) => line.label.includes('/dev/kvm'))).toBe(false);
    const strict = evaluateVirtHostValidate(facts, false);
    expect(strict).toMatchObject({ status: 'fail', message: expect.stringMatching(/^11 checks, 1 FAIL: FAIL Checking for hardware virtualization/) });
    expect(evaluateVirtHostValidate(facts, true).status).toBe('warn');
  });

  it('a FAIL that has nothing to do with acceleration stays a fail under allowEmulation', async () => {
    const text = (await readFile(await vhvFixture('libvirt-9.0-kvm-ok.txt'), 'utf8')).replace(
      /(cgroup 'memory' controller support\s+): PASS/,
      "$1: FAIL (Enable 'memory' in kernel Kconfig file or mount/enable cgroup controller in your system)",
    );
    expect(evaluateVirtHostValidate(recorded(text), true).status).toBe('fail');
  });
});

describe('virt-host-validate check on newer libvirt formats', () => {
  const newer = `  QEMU: Checking for hardware virtualization                                 : PASS (VMX)
  QEMU: Checking if device '/dev/kvm' exists                                 : PASS
  QEMU: Checking if device '/dev/kvm' is accessible                          : PASS
  QEMU: Checking if device '/dev/vhost-net' exists                           : PASS
  QEMU: Checking if device '/dev/net/tun' exists                             : PASS
  QEMU: Checking for cgroup 'cpu' controller support                         : PASS
  QEMU: Checking for cgroup 'memory' controller support                      : PASS
  QEMU: Checking for device assignment IOMMU support                         : PASS (DMAR)
  QEMU: Checking if IOMMU is enabled by kernel                               : PASS
  QEMU: Checking for secure guest support                                    : NOTE (Unknown if this platform has Secure Guest support)
`;

  it('PASS (detail) and NOTE count as pass; the detail is kept', () => {
    const check = evaluateVirtHostValidate(recorded(newer), false);
    expect(check).toMatchObject({ status: 'pass', message: '10 checks, 0 FAIL: all pass' });
    const lines = (check.observed?.lines ?? []) as Array<{ label: string; detail?: string; result: string }>;
    expect(lines[0]).toMatchObject({ detail: 'VMX', result: 'pass' });
    expect(lines[9]).toMatchObject({ detail: 'Unknown if this platform has Secure Guest support', result: 'pass' });
  });

  it("a quoted '/dev/kvm' FAIL is still recognised as an acceleration line under allowEmulation", () => {
    const text = newer.replace("'/dev/kvm' is accessible                          : PASS", "'/dev/kvm' is accessible                          : FAIL (Check /dev/kvm is world writable or you are in a group that is allowed to access it)");
    expect(evaluateVirtHostValidate(recorded(text), false).status).toBe('fail');
    expect(evaluateVirtHostValidate(recorded(text), true).status).toBe('warn');
  });
});

describe('virt-host-validate check on the real tool of this machine', () => {
  it('agrees with what cpuinfo and /dev say, read independently here', async () => {
    const command = await realVirtHostValidate();
    const facts = await runVirtHostValidate({ command, timeoutSeconds: 60 });
    if (facts.state !== 'ran') throw new Error(`the real virt-host-validate did not run: ${JSON.stringify(facts)}`);
    const flags = (await readFile('/proc/cpuinfo', 'utf8')).match(/^flags\s*:(.*)$/m)?.[1]?.split(/\s+/) ?? [];
    const hasHwVirt = flags.includes('vmx') || flags.includes('svm');
    const hw = facts.lines.find((line) => line.label === 'Checking for hardware virtualization');
    expect(hw?.status).toBe(hasHwVirt ? 'PASS' : 'FAIL');
    // libvirt leaves the /dev/kvm lines out entirely when the CPU has no vmx/svm.
    expect(facts.lines.some((line) => /\/dev\/kvm/.test(line.label))).toBe(hasHwVirt);
    const check = evaluateVirtHostValidate(facts, false);
    const anyFail = facts.lines.some((line) => line.status === 'FAIL');
    expect(check.status).toBe(anyFail ? 'fail' : facts.lines.some((line) => line.status === 'WARN') ? 'warn' : 'pass');
    expect(check.observed).toMatchObject({ source: 'tool', exitCode: anyFail ? 1 : 0, unparsedLines: 0 });
  });
});
