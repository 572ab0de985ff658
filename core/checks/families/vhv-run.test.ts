import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realVirtHostValidate, tempDir, vhvFixture } from '../../../test/lab/hosts/paths.ts';
import { evaluateVirtHostValidate, readVhvRecording, runVirtHostValidate } from './vhv.ts';

let dir = '';
let remove = async () => {};

beforeAll(async () => {
  ({ dir, remove } = await tempDir('vhv-run'));
});
afterAll(() => remove());

/** Writes an executable fake of virt-host-validate and returns its path. */
async function fakeTool(name: string, script: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

/** True when the process is gone or a zombie waiting to be reaped (it no longer runs). */
async function stopped(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

describe('runVirtHostValidate', () => {
  it('runs the tool with LC_ALL=C and the qemu argument, and parses what it prints', async () => {
    const tool = await fakeTool(
      'echo-env',
      `echo "  QEMU: Checking for hardware virtualization : PASS"\necho "  QEMU: Checking env LC_ALL=$LC_ALL args=$* : WARN (seen)"`,
    );
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 10 });
    expect(facts).toMatchObject({ state: 'ran', source: 'tool', exitCode: 0, unparsedCount: 0 });
    if (facts.state === 'ran') expect(facts.lines[1]).toMatchObject({ label: 'Checking env LC_ALL=C args=qemu', status: 'WARN' });
  });

  // A fake, because the real tool cannot be made to hang on demand.
  it('kills a hanging tool at the timeout; the check becomes error, not fail', async () => {
    const tool = await fakeTool('hang', 'echo "  QEMU: Checking for hardware virtualization : PASS"\nexec sleep 600');
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 1 });
    expect(facts).toEqual({ state: 'timeout', command: tool, seconds: 1 });
    expect(evaluateVirtHostValidate(facts, false)).toMatchObject({
      status: 'error',
      message: `${tool} did not finish within 1 s and was killed; the other checks decide`,
    });
  });

  // A fake wrapper whose child keeps stdout open: killing only the wrapper would leave virtgate
  // waiting on the pipe until the child exits (600 s here, far past the test's timeout).
  it('kills the whole process group, so a child holding the output pipe cannot hang virtgate', async () => {
    const pidFile = path.join(dir, 'child.pid');
    const tool = await fakeTool('wrapper', `sleep 600 &\necho $! > ${pidFile}\nwait`);
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 1 });
    expect(facts.state).toBe('timeout');
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    expect(child).toBeGreaterThan(0);
    expect(await stopped(child)).toBe(true);
  });

  it('a missing tool gives skip, with how to install it', async () => {
    const facts = await runVirtHostValidate({ command: path.join(dir, 'no-such-virt-host-validate'), timeoutSeconds: 5 });
    expect(facts).toMatchObject({ state: 'missing' });
    const check = evaluateVirtHostValidate(facts, false);
    expect(check).toMatchObject({ status: 'skip', message: expect.stringMatching(/is not installed; the native checks still ran$/) });
    expect(check.hint).toMatch(/apt-get install libvirt-clients/);
    expect(check.hint).toMatch(/dnf install libvirt-client/);
  });

  it('garbage output gives error, not a crash', async () => {
    const tool = await fakeTool('garbage', 'echo "Segmentation fault (core dumped)"\nexit 139');
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 5 });
    expect(facts).toMatchObject({ state: 'ran', exitCode: 139, lines: [], unparsedCount: 1 });
    expect(evaluateVirtHostValidate(facts, false)).toMatchObject({
      status: 'error',
      message: 'virt-host-validate printed no result line virtgate can read (1 other lines)',
      observed: { sample: ['Segmentation fault (core dumped)'] },
    });
  });

  it('binary output gives error', async () => {
    const tool = await fakeTool('binary', 'head -c 20000 /dev/urandom');
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 5 });
    expect(facts.state).toBe('ran');
    expect(evaluateVirtHostValidate(facts, false).status).toBe('error');
  });

  it('endless output is cut at the buffer limit and gives error', async () => {
    const tool = await fakeTool('endless', 'exec yes "  QEMU: Checking for hardware virtualization : PASS"');
    const facts = await runVirtHostValidate({ command: tool, timeoutSeconds: 20 });
    expect(facts).toMatchObject({ state: 'failed', detail: expect.stringMatching(/printed more than 1048576 bytes/) });
    expect(evaluateVirtHostValidate(facts, false).status).toBe('error');
  });

  it('exit 1 without a FAIL line means the output was not all read: error', async () => {
    const tool = await fakeTool('exit1', 'echo "  QEMU: Checking for hardware virtualization : PASS"\nexit 1');
    expect(evaluateVirtHostValidate(await runVirtHostValidate({ command: tool, timeoutSeconds: 5 }), false)).toMatchObject({
      status: 'error',
      message: 'virt-host-validate exited 1 but printed no FAIL line virtgate can read',
    });
  });

  it('a tool that cannot be executed (not executable) gives error', async () => {
    const file = path.join(dir, 'not-executable');
    await writeFile(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const facts = await runVirtHostValidate({ command: file, timeoutSeconds: 5 });
    expect(facts).toMatchObject({ state: 'failed' });
    expect(evaluateVirtHostValidate(facts, false).status).toBe('error');
  });

  it('the real installed virt-host-validate: every line parses and its exit status agrees with its FAIL lines', async () => {
    const command = await realVirtHostValidate();
    const facts = await runVirtHostValidate({ command, timeoutSeconds: 60 });
    if (facts.state !== 'ran') throw new Error(`the real virt-host-validate did not run: ${JSON.stringify(facts)}`);
    expect(facts.lines.length).toBeGreaterThanOrEqual(5);
    expect(facts.unparsedCount).toBe(0);
    const fails = facts.lines.filter((line) => line.status === 'FAIL').length;
    expect(facts.exitCode).toBe(fails > 0 ? 1 : 0);
    expect(facts.lines.some((line) => line.label === 'Checking if device /dev/net/tun exists')).toBe(true);
  });
});

describe('readVhvRecording', () => {
  it('reads a recorded output as source "recording" with no exit code', async () => {
    const facts = await readVhvRecording(await vhvFixture('libvirt-9.0-kvm-ok.txt'));
    expect(facts).toMatchObject({ state: 'ran', source: 'recording', exitCode: null, unparsedCount: 0 });
    if (facts.state === 'ran') expect(facts.lines).toHaveLength(13);
  });

  it('a missing recording gives failed, which evaluates to error', async () => {
    const facts = await readVhvRecording(path.join(dir, 'absent.txt'));
    expect(facts).toMatchObject({ state: 'failed', detail: expect.stringMatching(/^cannot read recording: ENOENT/) });
    expect(evaluateVirtHostValidate(facts, false).status).toBe('error');
  });
});

describe('a recording that never ends', () => {
  it('is read only up to the output cap (/dev/zero would otherwise fill memory)', async () => {
    const facts = await readVhvRecording('/dev/zero');
    // /dev/zero is not a regular file: refused without reading it at all.
    expect(facts).toMatchObject({ state: 'failed' });
  });
});
