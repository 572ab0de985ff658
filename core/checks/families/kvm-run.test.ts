import { execFile } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost } from '../../../test/lab/hosts/build-host.ts';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import type { StepRecord } from '../../kvm/guest-steps.ts';
import type { GuestRun } from '../../kvm/run-guest.ts';
import type { DeviceFacts } from './devices.ts';
import { evaluate } from '../evaluate.ts';
import type { KvmProvider } from '../host/kvm-provider.ts';
import { evaluateKvmRun, type KvmRunFacts } from './kvm-run.ts';
import type { Observation } from '../observation.ts';
import { DEFAULT_POLICY } from '../policy.ts';
import { probeHost } from '../probe-host.ts';
import { unservedMiscMinor } from '../../../test/lab/hosts/misc-devices.ts';

const run = promisify(execFile);

const opening: DeviceFacts = { path: 'dev/kvm', state: 'present', kind: 'char', major: 10, minor: 232, expected: '10:232', open: 'ok' };
const missing: DeviceFacts = { path: 'dev/kvm', state: 'missing' };
const intel: Observation<KvmProvider> = { state: 'ok', value: { module: 'kvm_intel', seen: ['kvm', 'kvm_intel'] } };
const pvm: Observation<KvmProvider> = { state: 'ok', value: { module: 'kvm_pvm', seen: ['kvm', 'kvm_pvm'] } };
const upTo = (last: StepRecord): StepRecord[] => [{ step: 'load-ffi', ok: true }, { step: 'open', ok: true, value: 3 }, last];
const ran = (fields: GuestRun): KvmRunFacts => ({ state: 'ran', devicePath: '/dev/kvm', ...fields });

describe('evaluateKvmRun', () => {
  it('a guest that halted passes, and says what it proved; on kvm_pvm it adds that ordinary kernels may not boot', () => {
    const halted = ran({ outcome: 'halted', steps: [], ioByte: 0x5a, ioPort: 0xe9, durationMs: 42 });
    expect(evaluateKvmRun({ kvmRun: halted, kvm: opening, kvmProvider: intel })).toMatchObject({
      id: 'kvm.run',
      status: 'pass',
      message: 'a tiny guest ran through the KVM API: it wrote 0x5a to port 0xe9 and halted (42 ms)',
    });
    expect(evaluateKvmRun({ kvmRun: halted, kvm: opening, kvmProvider: pvm }).message).toMatch(/kvm_pvm here, so ordinary guest kernels may still not boot$/);
  });

  it('a failing KVM step fails with the step, the errno and a remedy', () => {
    const failed = ran({ outcome: 'failed', steps: upTo({ step: 'KVM_CREATE_VM', ok: false, errno: 'ENOMEM' }), failedStep: 'KVM_CREATE_VM', errno: 'ENOMEM', durationMs: 9 });
    const result = evaluateKvmRun({ kvmRun: failed, kvm: opening, kvmProvider: intel });
    expect(result).toMatchObject({ status: 'fail', message: 'the tiny KVM guest failed at KVM_CREATE_VM: ENOMEM', observed: { failedStep: 'KVM_CREATE_VM', errno: 'ENOMEM', steps: ['load-ffi', 'open', 'KVM_CREATE_VM: ENOMEM'] } });
    expect(result.hint).toMatch(/memory cgroup/);
  });

  it('open failing where dev.kvm already reports the device: it ran and failed (never a skip), and follows from dev.kvm', () => {
    const failed = ran({ outcome: 'failed', steps: [{ step: 'load-ffi', ok: true }, { step: 'open', ok: false, errno: 'ENOENT' }], failedStep: 'open', errno: 'ENOENT', durationMs: 5 });
    const consequence = evaluateKvmRun({ kvmRun: failed, kvm: missing, kvmProvider: intel });
    expect(consequence).toMatchObject({ status: 'fail', message: 'the tiny KVM guest failed at open: ENOENT', followsFrom: 'dev.kvm' });
    // The remedy is the cause's: no second one.
    expect(consequence.hint).toBeUndefined();
    // A device that opened for dev.kvm but not for the guest (seccomp, a device cgroup) is the run's own failure.
    const denied = ran({ outcome: 'failed', steps: [], failedStep: 'open', errno: 'EPERM', durationMs: 5 });
    expect(evaluateKvmRun({ kvmRun: denied, kvm: opening, kvmProvider: intel }).status).toBe('fail');
  });

  it('a guest killed at the bound fails; a runner that could not run is an error; not run is a skip', () => {
    const timeout = ran({ outcome: 'timeout', steps: [], failedStep: 'KVM_RUN-io', boundMs: 5000, durationMs: 5003 });
    expect(evaluateKvmRun({ kvmRun: timeout, kvm: opening, kvmProvider: intel })).toMatchObject({
      status: 'fail',
      message: 'the tiny KVM guest did not finish within 5000 ms (KVM_RUN-io had not returned); it was killed',
    });
    const error = ran({ outcome: 'error', steps: [], reason: 'the FFI library could not be loaded: x', durationMs: 30 });
    expect(evaluateKvmRun({ kvmRun: error, kvm: opening, kvmProvider: intel })).toMatchObject({ status: 'error', message: 'could not run the tiny KVM guest: the FFI library could not be loaded: x' });
    expect(evaluateKvmRun({ kvmRun: { state: 'not-run', reason: 'turned off (--no-kvm-run)' }, kvm: opening, kvmProvider: intel })).toEqual({
      id: 'kvm.run',
      status: 'skip',
      message: 'tiny KVM guest not run: turned off (--no-kvm-run)',
    });
  });
});

describe('kvm.run in a verdict', () => {
  let dir = '';
  let remove = async () => {};
  beforeAll(async () => {
    ({ dir, remove } = await tempDir('kvm-run-family'));
  });
  afterAll(() => remove());

  it('is off with enabled: false, and skipped on a fixture whose /dev/kvm is a stand-in', async () => {
    const host = await buildHost(path.join(dir, 'metal'), 'intel-metal');
    expect((await probeHost(host.root, { enabled: false })).kvmRun).toEqual({ state: 'not-run', reason: 'turned off (--no-kvm-run)' });
    expect((await probeHost(host.root)).kvmRun).toMatchObject({ state: 'not-run', reason: expect.stringMatching(/dev\/kvm is not the real 10:232 character device$/) });
  });

  it('under a host root whose dev/kvm is the real 10:232 node, the guest runs there, as an independent reading of that node predicts', async () => {
    // no-vmx has no stand-in nodes, so its device numbers are the kernel's; give it a real 10:232 node.
    const host = await buildHost(path.join(dir, 'real-numbers'), 'no-vmx');
    const node = path.join(host.root, 'dev/kvm');
    await run('mknod', ['-m', '0666', node, 'c', '10', '232']);
    const python = `
import errno, os, fcntl, json, sys
try: fd = os.open(sys.argv[1], os.O_RDWR | os.O_CLOEXEC)
except OSError as e: print(json.dumps({'step': 'open', 'errno': errno.errorcode[e.errno]})); sys.exit(0)
try: fcntl.ioctl(fd, 0xAE01, 0); print(json.dumps({'step': None}))
except OSError as e: print(json.dumps({'step': 'KVM_CREATE_VM', 'errno': errno.errorcode[e.errno]}))
`;
    const reading = JSON.parse((await run('python3', ['-c', python, node])).stdout) as { step: string | null; errno?: string };
    const facts = await probeHost(host.root);
    expect(facts.kvmRun).toMatchObject({ state: 'ran', devicePath: node });
    if (reading.step === null) expect(facts.kvmRun).toMatchObject({ outcome: 'halted' });
    else expect(facts.kvmRun).toMatchObject({ outcome: 'failed', failedStep: reading.step, errno: reading.errno });
  });

  it('starts no child when the device does not open: the run ends at open with the errno the kernel gave, as dev.kvm reads it', async () => {
    const host = await buildHost(path.join(dir, 'no-kvm'), 'intel-metal');
    // A child script that leaves a mark: if the runner were started, the mark would exist.
    const mark = path.join(dir, 'child-started');
    const child = path.join(dir, 'marking-child.mjs');
    await writeFile(child, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(mark)}, 'started');\n`);
    const driverless = path.join(dir, 'driverless-kvm');
    await run('mknod', ['-m', '0666', driverless, 'c', '10', String(unservedMiscMinor())]);
    for (const [devicePath, errno] of [[path.join(dir, 'absent-kvm'), 'ENOENT'], [driverless, 'ENODEV']] as const) {
      const facts = await probeHost(host.root, { enabled: true, devicePath, childScript: child });
      expect(facts.kvmRun).toMatchObject({ state: 'ran', devicePath, outcome: 'failed', failedStep: 'open', errno, steps: [{ step: 'open', ok: false, errno }] });
      expect(evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY).checks.find((c) => c.id === 'kvm.run')).toMatchObject({ status: 'fail', message: `the tiny KVM guest failed at open: ${errno}` });
    }
    await expect(access(mark)).rejects.toMatchObject({ code: 'ENOENT' });
    // The same child script is started, and leaves its mark, when the device opens: the mark can tell.
    await probeHost(host.root, { enabled: true, devicePath: '/dev/null', childScript: child });
    await expect(access(mark)).resolves.toBeUndefined();
  });

  it('a failing run makes a hardware host not ready, and never changes its tier', async () => {
    const host = await buildHost(path.join(dir, 'metal-bad-kvm'), 'intel-metal');
    // A node that is not KVM, targeted deliberately through the test seam.
    const notKvm = path.join(dir, 'not-kvm');
    await run('mknod', ['-m', '0666', notKvm, 'c', '1', '3']);
    const facts = await probeHost(host.root, { enabled: true, devicePath: notKvm });
    const verdict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
    expect(verdict).toMatchObject({ tier: 'hardware', ready: false, conclusive: true });
    expect(verdict.checks.find((c) => c.id === 'kvm.run')).toMatchObject({ status: 'fail', message: 'the tiny KVM guest failed at KVM_GET_API_VERSION: ENOTTY' });
  });

  it('a runner that cannot load its FFI library is an error that costs nothing', async () => {
    const host = await buildHost(path.join(dir, 'metal-no-ffi'), 'intel-metal');
    const facts = await probeHost(host.root, { enabled: true, devicePath: '/dev/null', ffiModule: 'virtgate-missing-ffi-module' });
    const verdict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
    expect(verdict.checks.find((c) => c.id === 'kvm.run')?.status).toBe('error');
  });
});
