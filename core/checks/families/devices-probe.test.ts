import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISC_MAJOR, servedMiscMinor, unservedMiscMinor } from '../../../test/lab/hosts/misc-devices.ts';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { evalWithout } from '../../../test/lab/hosts/privileges.ts';
import { DEVICE_SPECS } from '../host/device-numbers.ts';
import { DEVICE_RULES, evaluateDevice, probeDevice } from './devices.ts';

const run = promisify(execFile);
const DEVICES_TS = path.join(import.meta.dirname, 'devices.ts');
const BUILD_HOST_TS = path.resolve(import.meta.dirname, '../../../test/lab/hosts/build-host.ts');

let root = '';
let remove = async () => {};
let counter = 0;

beforeAll(async () => {
  ({ dir: root, remove } = await tempDir('devices'));
});
afterAll(() => remove());

/** A fresh host root per case, with `dev/` in it. */
async function host(): Promise<string> {
  counter += 1;
  const dir = path.join(root, `h${counter}`);
  await mkdir(path.join(dir, 'dev/net'), { recursive: true });
  return dir;
}

const mknod = (file: string, type: 'c' | 'b', major: number, minor: number, mode = '0666') =>
  run('mknod', ['-m', mode, file, type, String(major), String(minor)]);

/** Writes the host's sysfs entry for a loaded misc driver: the numbers the kernel registered it under. */
async function register(dir: string, name: 'kvm' | 'tun' | 'vhost-net', numbers: string): Promise<void> {
  const file = path.join(dir, DEVICE_SPECS[name].sysfs);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, numbers);
}

describe('the numbers a device must carry: the host\'s sysfs, else the kernel\'s table', () => {
  it('checks and opens the node the host\'s sysfs names (a driver registered at 1:3 here)', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 1, 3);
    await register(dir, 'kvm', '1:3\n');
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ kind: 'char', major: 1, minor: 3, expected: '1:3', open: 'ok' });
  });

  it('says the node is the wrong device when its numbers differ from what sysfs names', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 10, 232);
    await register(dir, 'kvm', '1:3\n');
    const facts = await probeDevice(dir, DEVICE_SPECS.kvm);
    expect(facts).toMatchObject({ major: 10, minor: 232, expected: '1:3', open: 'skipped' });
    expect(evaluateDevice(facts, DEVICE_RULES.kvm)).toMatchObject({ status: 'fail', message: '/dev/kvm is character device 10:232, expected 1:3' });
  });

  it.each([
    ['absent (no driver loaded)', null],
    ['empty', ''],
    ['malformed', 'ten:232\n'],
    ['two lines', '1:3\n1:5\n'],
    ['huge', '9'.repeat(5000)],
  ])('falls back to the kernel\'s 10:232 when the sysfs entry is %s', async (_name, content) => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 1, 3);
    if (content !== null) await register(dir, 'kvm', content);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ major: 1, minor: 3, expected: '10:232', open: 'skipped' });
  });

  it('falls back to the table, and does not hang, when the sysfs entry is a FIFO', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 1, 3);
    const file = path.join(dir, DEVICE_SPECS.kvm.sysfs);
    await mkdir(path.dirname(file), { recursive: true });
    await run('mkfifo', [file]);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ expected: '10:232', open: 'skipped' });
  });
});

describe('probeDevice', () => {
  it('says "missing" when there is no node, and when dev/net is itself a file', async () => {
    const dir = await host();
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toEqual({ path: 'dev/kvm', state: 'missing' });
    const flat = await host();
    await run('rm', ['-r', path.join(flat, 'dev/net')]);
    await writeFile(path.join(flat, 'dev/net'), '');
    expect(await probeDevice(flat, DEVICE_SPECS.tun)).toEqual({ path: 'dev/net/tun', state: 'missing' });
  });

  it('opens the real tun node (10:200) read-write', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/net/tun'), 'c', 10, 200);
    expect(await probeDevice(dir, DEVICE_SPECS.tun)).toEqual({
      path: 'dev/net/tun',
      state: 'present',
      kind: 'char',
      major: 10,
      minor: 200,
      expected: '10:200',
      open: 'ok',
    });
  });

  it('records ENODEV for a misc node whose driver is absent (a minor /proc/misc does not list)', async () => {
    const dir = await host();
    const minor = unservedMiscMinor();
    await mknod(path.join(dir, 'dev/kvm'), 'c', MISC_MAJOR, minor);
    await register(dir, 'kvm', `${MISC_MAJOR}:${minor}\n`);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ kind: 'char', major: MISC_MAJOR, minor, open: 'ENODEV' });
  });

  it('opens a misc node whose driver this kernel serves (a minor /proc/misc lists)', async () => {
    const dir = await host();
    // tun: every host the tests run on serves it, and opening it without an ioctl creates nothing.
    const minor = servedMiscMinor('tun');
    if (minor === undefined) throw new Error('/proc/misc lists no tun driver: load the tun module (modprobe tun); the tests need /dev/net/tun');
    await mknod(path.join(dir, 'dev/kvm'), 'c', MISC_MAJOR, minor);
    await register(dir, 'kvm', `${MISC_MAJOR}:${minor}\n`);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ kind: 'char', major: MISC_MAJOR, minor, open: 'ok' });
  });

  it('a real 10:232 node behaves as /proc/misc says: it opens where a KVM driver is loaded, ENODEV where none is', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 10, 232);
    const facts = await probeDevice(dir, DEVICE_SPECS.kvm);
    const served = servedMiscMinor('kvm') === 232;
    expect(facts).toMatchObject({ kind: 'char', major: 10, minor: 232, open: served ? 'ok' : 'ENODEV' });
    const check = evaluateDevice(facts, DEVICE_RULES.kvm);
    expect(check.status).toBe(served ? 'pass' : 'fail');
    expect(check.message).toBe(served ? '/dev/kvm (10:232) opens read-write' : '/dev/kvm exists but its driver is not loaded (open: ENODEV)');
  });

  it('never opens a node with other numbers than expected', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 1, 3);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ kind: 'char', major: 1, minor: 3, expected: '10:232', open: 'skipped' });
  });

  it('reads numbers above 255 correctly (dev_t encoding)', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 511, 70000);
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ major: 511, minor: 70000, open: 'skipped' });
  });

  it.each([
    ['a block device with the right numbers', async (file: string) => mknod(file, 'b', 10, 232), 'block'],
    ['a regular file', async (file: string) => writeFile(file, ''), 'file'],
    ['a directory', async (file: string) => mkdir(file), 'directory'],
    ['a FIFO', async (file: string) => run('mkfifo', [file]), 'other'],
  ] as const)('reports %s as its kind and does not open it', async (_name, make, kind) => {
    const dir = await host();
    await make(path.join(dir, 'dev/kvm'));
    expect(await probeDevice(dir, DEVICE_SPECS.kvm)).toMatchObject({ state: 'present', kind, open: 'skipped' });
  });

  it('records EACCES for a mode-000 node when the prober lacks CAP_DAC_OVERRIDE', async () => {
    const dir = await host();
    await mknod(path.join(dir, 'dev/kvm'), 'c', 1, 3, '0000');
    const outcome = await evalWithout(
      ['dac_override', 'dac_read_search'],
      `import { probeDevice } from ${JSON.stringify(DEVICES_TS)};
       const facts = await probeDevice(${JSON.stringify(dir)}, ${JSON.stringify({ ...DEVICE_SPECS.kvm, major: 1, minor: 3 })});
       process.stdout.write(JSON.stringify(facts));`,
    );
    expect(outcome.stderr).toBe('');
    expect(JSON.parse(outcome.stdout)).toMatchObject({ kind: 'char', major: 1, minor: 3, open: 'EACCES' });
  });
});

describe('buildHost refuses to fake a host', () => {
  it('throws a clear error when mknod is not permitted (CAP_MKNOD dropped)', async () => {
    const target = path.join(root, 'no-mknod');
    const outcome = await evalWithout(
      ['mknod'],
      `import { buildHost } from ${JSON.stringify(BUILD_HOST_TS)};
       try { await buildHost(${JSON.stringify(target)}, 'intel-metal'); process.stdout.write('built'); }
       catch (error) { process.stdout.write(error.message); }`,
    );
    expect(outcome.stdout).not.toBe('built');
    expect(outcome.stdout).toMatch(/^buildHost: cannot make kvm device node \(mknod .*\): .*Operation not permitted.*CAP_MKNOD/);
  });
});
