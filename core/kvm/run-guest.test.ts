/**
 * The tiny guest, run for real on whatever machine the suite runs on, held to an independent
 * reading the test makes itself with Python's fcntl.ioctl (open, KVM_GET_API_VERSION,
 * KVM_CREATE_VM, KVM_CREATE_VCPU). Where /dev/kvm works the guest runs and halts; where it is
 * absent or dead, the run names the same failing step and errno. The failure paths use nodes
 * and seams that behave the same on every host.
 */
import { execFile } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { chown, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/lab/hosts/paths.ts';
import { evalWithout } from '../../test/lab/hosts/privileges.ts';
import { GUEST_BYTE, GUEST_PORT } from './guest-steps.ts';
import { type GuestRun, runGuest } from './run-guest.ts';

const run = promisify(execFile);

/** The second, minimal implementation: stops at the first failing call and names it as run-guest does. */
const PYTHON_READING = `
import errno, fcntl, json, os, sys
def out(**fields): print(json.dumps(fields)); sys.exit(0)
try: fd = os.open(sys.argv[1], os.O_RDWR | os.O_CLOEXEC)
except OSError as e: out(step='open', errno=errno.errorcode[e.errno])
try: version = fcntl.ioctl(fd, 0xAE00, 0)
except OSError as e: out(step='KVM_GET_API_VERSION', errno=errno.errorcode[e.errno])
if version != 12: out(step='KVM_GET_API_VERSION', value=version)
try: vm = fcntl.ioctl(fd, 0xAE01, 0)
except OSError as e: out(step='KVM_CREATE_VM', errno=errno.errorcode[e.errno])
try: fcntl.ioctl(vm, 0xAE41, 0)
except OSError as e: out(step='KVM_CREATE_VCPU', errno=errno.errorcode[e.errno])
out(step=None)
`;

interface Reading {
  step: string | null;
  errno?: string;
  value?: number;
}

async function independentReading(device: string): Promise<Reading> {
  const { stdout } = await run('python3', ['-c', PYTHON_READING, device]);
  return JSON.parse(stdout) as Reading;
}

/**
 * Which kind of host this is, read directly (Node's own open() and the CPU flags), apart from the
 * Python reading: a host with KVM opens /dev/kvm, one without does not.
 */
function directReading(): { opens: boolean; hwVirtFlags: boolean } {
  let opens = false;
  try {
    closeSync(openSync('/dev/kvm', constants.O_RDWR));
    opens = true;
  } catch {
    // Missing, no driver, no permission: a host without KVM.
  }
  const flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1]?.trim().split(/\s+/) ?? [];
  return { opens, hwVirtFlags: flags.includes('vmx') || flags.includes('svm') };
}

let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await tempDir('kvm-run'));
});
afterAll(() => remove());

async function mknod(name: string, major: number, minor: number, mode = '0666'): Promise<string> {
  const file = path.join(dir, name);
  await run('mknod', ['-m', mode, file, 'c', String(major), String(minor)]);
  return file;
}

describe('the tiny guest on this machine', () => {
  it('agrees with the independent reading of /dev/kvm: halts where KVM works, names the failing step and errno where not', async () => {
    const reading = await independentReading('/dev/kvm');
    const direct = directReading();
    // A host with KVM (VT-x/AMD-V, /dev/kvm opens): the Python reading makes a VM and a vCPU.
    // A host without (/dev/kvm does not open): it stops at open, as Node's own open() did.
    // Between the two (kvm_pvm: opens without the CPU flags) only the first holds: it gets past open.
    const kind = direct.opens && direct.hwVirtFlags ? 'with KVM' : direct.opens ? 'paravirtual KVM' : 'without KVM';
    const expected = { 'with KVM': [null], 'paravirtual KVM': [null, 'KVM_GET_API_VERSION', 'KVM_CREATE_VM', 'KVM_CREATE_VCPU'], 'without KVM': ['open'] }[kind];
    expect(expected, `the Python reading's step on a host ${kind}`).toContain(reading.step);
    const result = await runGuest({ devicePath: '/dev/kvm' });
    if (reading.step === null) {
      expect(result).toMatchObject({ outcome: 'halted', ioByte: GUEST_BYTE, ioPort: GUEST_PORT });
      expect(result.steps.map((step) => step.step).slice(-2)).toEqual(['KVM_RUN-io', 'KVM_RUN-hlt']);
      expect(result.steps.every((step) => step.ok)).toBe(true);
    } else {
      expect(result).toMatchObject({ outcome: 'failed', failedStep: reading.step, ...(reading.errno ? { errno: reading.errno } : {}) });
    }
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('a guest that never exits (jmp $) is killed at the bound where KVM works; elsewhere it fails where the reading does', async () => {
    const reading = await independentReading('/dev/kvm');
    const started = performance.now();
    const result = await runGuest({ devicePath: '/dev/kvm', codeHex: 'ebfe', boundMs: 1_500 });
    if (reading.step === null) {
      expect(result).toMatchObject({ outcome: 'timeout', failedStep: 'KVM_RUN-io', boundMs: 1_500 });
      expect(performance.now() - started).toBeLessThan(1_500 + 2_000);
    } else {
      expect(result).toMatchObject({ outcome: 'failed', failedStep: reading.step });
    }
  });
});

describe('failure paths, on every host', () => {
  it('no permission: a node the caller may not open fails at open with EACCES (root without CAP_DAC_OVERRIDE)', async () => {
    const node = await mknod('kvm-private', 1, 3, '0600');
    await chown(node, 65534, 65534);
    const runner = path.join(import.meta.dirname, 'run-guest.ts');
    const outcome = await evalWithout(
      ['dac_override', 'dac_read_search'],
      `const { runGuest } = await import(${JSON.stringify(runner)}); console.log(JSON.stringify(await runGuest({ devicePath: ${JSON.stringify(node)} })));`,
    );
    expect(outcome.stderr).toBe('');
    const result = JSON.parse(outcome.stdout) as GuestRun;
    expect(result).toMatchObject({ outcome: 'failed', failedStep: 'open', errno: 'EACCES' });
    // The independent reading, under the same privileges, agrees.
    const drop = '-dac_override,-dac_read_search';
    const { stdout } = await run('setpriv', ['--bounding-set', drop, '--inh-caps', drop, '--', 'python3', '-c', PYTHON_READING, node]);
    expect(JSON.parse(stdout)).toEqual({ step: 'open', errno: 'EACCES' });
  });

  it('a device node that is not KVM (/dev/null stand-in): KVM_GET_API_VERSION fails with ENOTTY, as the reading says', async () => {
    const node = await mknod('not-kvm', 1, 3);
    expect(await independentReading(node)).toEqual({ step: 'KVM_GET_API_VERSION', errno: 'ENOTTY' });
    expect(await runGuest({ devicePath: node })).toMatchObject({ outcome: 'failed', failedStep: 'KVM_GET_API_VERSION', errno: 'ENOTTY' });
  });

  it('a missing node fails at open with ENOENT', async () => {
    const missing = path.join(dir, 'no-such-kvm');
    expect(await independentReading(missing)).toEqual({ step: 'open', errno: 'ENOENT' });
    expect(await runGuest({ devicePath: missing })).toMatchObject({ outcome: 'failed', failedStep: 'open', errno: 'ENOENT' });
  });

  it('a runner that never returns is killed at the bound (SIGKILL), with the step it had reached', async () => {
    const hanging = path.join(dir, 'hanging-child.mjs');
    await writeFile(hanging, `process.stdout.write(JSON.stringify({ step: 'load-ffi', ok: true }) + '\\n'); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);\n`);
    const started = performance.now();
    const result = await runGuest({ devicePath: '/dev/kvm', childScript: hanging, boundMs: 800 });
    expect(result).toMatchObject({ outcome: 'timeout', failedStep: 'open', boundMs: 800 });
    expect(performance.now() - started).toBeLessThan(800 + 2_000);
  });

  it('the FFI library missing: a clear error result, not a crash', async () => {
    const result = await runGuest({ devicePath: '/dev/kvm', ffiModule: 'virtgate-missing-ffi-module' });
    expect(result.outcome).toBe('error');
    if (result.outcome !== 'error') return;
    expect(result.reason).toMatch(/^the FFI library could not be loaded: Cannot find package 'virtgate-missing-ffi-module'/);
  });

  it('a runner that crashes is an error with its exit, not a failed KVM step', async () => {
    const crashing = path.join(dir, 'crashing-child.mjs');
    await writeFile(crashing, `console.error('boom'); process.exit(3);\n`);
    expect(await runGuest({ devicePath: '/dev/kvm', childScript: crashing })).toMatchObject({ outcome: 'error', reason: 'the guest runner ended without a result (exit code 3): boom' });
  });
});
