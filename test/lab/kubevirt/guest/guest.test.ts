/**
 * The KubeVirt guests, proven before any KubeVirt: each raw disk is booted by plain QEMU under
 * TCG (q35, SeaBIOS, the disk on virtio-blk: what a VMI without EFI gets by default), and the
 * marker must come on the serial port.
 * The Linux guest is booted twice: from its disk (SeaBIOS -> SYSLINUX -> kernel), as a
 * containerDisk VMI boots it, and from its kernel and initramfs directly, as
 * spec.domain.firmware.kernelBoot would. Then the containerDisk archives are opened: KubeVirt's
 * layout (the disk alone in /disk, owned 107:107, no entrypoint) and the very bytes QEMU booted.
 *
 * QEMU is Debian's qemu-system-x86; a machine without it fails here, it is never skipped.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSECTOR_MARKER, LINUX_MARKER, buildGuestImages, hasBootsectorMarker, parseLinuxGuestLine, readCounter, type GuestImages } from '../guest-images.ts';

const QEMU = 'qemu-system-x86_64';
const here = path.dirname(fileURLToPath(import.meta.url));

let guests: GuestImages;
let tmp: string;
// Set up once; a failure is kept and thrown by every test that needs the thing, so a machine
// without QEMU (or a broken build) fails those tests with the reason, never skips them.
let qemuError: Error | undefined;
let buildError: Error | undefined;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'virtgate-guest-'));
  const version = await execa(QEMU, ['--version'], { reject: false });
  if (version.failed) {
    qemuError = new Error(`${QEMU} is missing or does not run (${version.shortMessage}): these tests boot the guests with it. Install Debian's qemu-system-x86 (apt-get install qemu-system-x86)`);
  }
  guests = await buildGuestImages().catch((e: unknown) => {
    buildError = e instanceof Error ? e : new Error(String(e));
    return undefined as unknown as GuestImages;
  });
}, 20 * 60_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Throws why the guests cannot be booted here, if they cannot. */
function needGuests(opts: { qemu: boolean }): void {
  if (buildError) throw buildError;
  if (opts.qemu && qemuError) throw qemuError;
}

interface Boot {
  /** Milliseconds from starting QEMU to the marker on the serial port. */
  ms: number;
  /** When each milestone first showed on the serial port, ms after the start. */
  milestones: Record<string, number>;
  log: string;
  /** QEMU's exit code, if it stopped by itself. */
  exitCode: number | null;
}

/**
 * Boots QEMU (TCG, q35, 128 MiB, no display, COM1 to a file) with the extra arguments until
 * `done(log)` holds, or fails after `timeoutMs` with the serial log's tail. With `waitExit`,
 * waits for QEMU to stop by itself afterwards (a guest that powers off); else kills it.
 */
async function boot(name: string, args: string[], done: (log: string) => boolean, opts: { timeoutMs: number; milestones?: string[]; waitExit?: boolean }): Promise<Boot> {
  const serial = path.join(tmp, `${name}.serial`);
  const started = Date.now();
  const child = spawn('nice', ['-n', '5', QEMU, '-accel', 'tcg', '-machine', 'q35', '-m', '128', '-nographic', '-monitor', 'none', '-no-reboot', '-serial', `file:${serial}`, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let exitCode: number | null = null;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('exit', (code) => ((exitCode = code), (exited = true), resolve())));
  const milestones: Record<string, number> = {};
  let log = '';
  let ms = -1;
  try {
    while (Date.now() - started < opts.timeoutMs) {
      log = await readFile(serial, 'latin1').catch(() => '');
      for (const m of opts.milestones ?? []) if (!(m in milestones) && log.includes(m)) milestones[m] = Date.now() - started;
      if (ms < 0 && done(log)) {
        ms = Date.now() - started;
        if (!opts.waitExit) break;
      }
      if (exited) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (ms >= 0 && opts.waitExit && !exited) {
      await Promise.race([exit, new Promise((r) => setTimeout(r, Math.max(0, opts.timeoutMs - (Date.now() - started))))]);
      log = await readFile(serial, 'latin1').catch(() => log);
    }
  } finally {
    if (!exited) {
      child.kill('SIGKILL');
      await exit;
    }
  }
  if (ms < 0) {
    throw new Error(
      `${name}: no marker on the serial port within ${opts.timeoutMs} ms under TCG` +
        `${exited ? ` (QEMU exited with ${exitCode}: ${stderr.trim()})` : ''}; serial log tail:\n${log.slice(-3000)}`,
    );
  }
  process.stderr.write(`[guest] ${name}: marker after ${ms} ms under TCG ${JSON.stringify(milestones)}\n`);
  return { ms, milestones, log, exitCode: opts.waitExit ? exitCode : null };
}

/** The disk as a VMI gets it by default: virtio-blk, first in the boot order, and not written to. */
const virtioDisk = (file: string) => ['-drive', `file=${file},format=raw,if=none,id=disk0,snapshot=on`, '-device', 'virtio-blk-pci,drive=disk0,bootindex=1'];

const sha256 = async (file: string | Buffer) => createHash('sha256').update(typeof file === 'string' ? await readFile(file) : file).digest('hex');

describe('guests under plain QEMU (TCG)', () => {
  it('the boot sector guest writes its marker to COM1 and halts', async () => {
    needGuests({ qemu: true });
    expect((await stat(guests.bootsector.disk)).size).toBe(1024 * 1024);
    const disk = await readFile(guests.bootsector.disk);
    expect(disk.readUInt16BE(510), 'boot signature 55 AA').toBe(0x55aa);
    const run = await boot('bootsector', virtioDisk(guests.bootsector.disk), hasBootsectorMarker, { timeoutMs: 60_000 });
    expect(run.log).toContain(`\r\n${BOOTSECTOR_MARKER}\r\n`);
  }, 90_000);

  it('the counter guest says it booted once, then counts one a second on COM1', async () => {
    needGuests({ qemu: true });
    expect((await readFile(guests.counter.disk)).readUInt16BE(510), 'boot signature 55 AA').toBe(0x55aa);
    const run = await boot('counter', virtioDisk(guests.counter.disk), (log) => readCounter(log).counts.length >= 5, { timeoutMs: 60_000 });
    const { boots, counts } = readCounter(run.log);
    expect(boots).toBe(1);
    // Consecutive from 1: the guest's own seconds (BIOS timer ticks), none skipped or repeated.
    expect(counts.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  }, 90_000);

  it('the Linux guest boots from its disk (SeaBIOS, SYSLINUX, Debian kernel, busybox init) and says who it is', async () => {
    needGuests({ qemu: true });
    const uuid = '6c1e2d44-5d0b-4f0e-9a52-0a3f1e7b9c21';
    const serial = `virtgate-${Date.now().toString(36)}`;
    const run = await boot(
      'linux-disk',
      [...virtioDisk(guests.linux.disk), '-smbios', `type=1,serial=${serial}`, '-uuid', uuid],
      (log) => parseLinuxGuestLine(log) !== undefined && log.includes('System halted'),
      { timeoutMs: 240_000, milestones: ['SYSLINUX', 'Linux version', 'Run /init', LINUX_MARKER, 'System halted'] },
    );
    const line = parseLinuxGuestLine(run.log)!;
    expect(line.kernel).toMatch(/^\d+\.\d+\.\d+-\d+-amd64$/);
    expect(run.log, 'the kernel that booted is the one in the image').toContain(`Linux version ${line.kernel} `);
    expect(line).toMatchObject({ hypervisor: 'none', cpus: 1, serial, uuid });
    // The disk's command line is the one kernelBoot users are told to give (LinuxGuestImage.kernelArgs).
    const cfg = await readFile(path.join(here, 'linux', 'syslinux.cfg'), 'utf8');
    expect(cfg).toMatch(new RegExp(`^\\s*APPEND ${guests.linux.kernelArgs}$`, 'm'));
  }, 300_000);

  it('the Linux guest boots from its kernel and initramfs (as kernelBoot does) and powers off on request', async () => {
    needGuests({ qemu: true });
    const run = await boot(
      'linux-kernelboot',
      ['-kernel', guests.linux.kernel, '-initrd', guests.linux.initrd, '-append', `${guests.linux.kernelArgs} virtgate.poweroff`],
      (log) => parseLinuxGuestLine(log) !== undefined,
      { timeoutMs: 240_000, milestones: ['Linux version', 'Run /init', LINUX_MARKER], waitExit: true },
    );
    expect(parseLinuxGuestLine(run.log)).toMatchObject({ hypervisor: 'none', serial: 'none' });
    expect(run.log).toContain('reboot: Power down');
    expect(run.exitCode, 'QEMU stops by itself when the guest powers off').toBe(0);
  }, 300_000);
});

describe('containerDisk images', () => {
  /** The files of a docker-archive's image: path -> `ls -l`-like mode, owner, and the bytes of a chosen few. */
  async function imageFiles(archive: string, read: string[]) {
    const manifest = JSON.parse((await execa('tar', ['-xOf', archive, 'manifest.json'])).stdout) as { Config: string; RepoTags: string[]; Layers: string[] }[];
    expect(manifest).toHaveLength(1);
    const config = JSON.parse((await execa('tar', ['-xOf', archive, manifest[0]!.Config])).stdout) as {
      architecture: string;
      os: string;
      config?: { Entrypoint?: string[] | null; Cmd?: string[] | null };
    };
    const files = new Map<string, { mode: string; owner: string; size: number }>();
    const contents = new Map<string, Buffer>();
    for (const layer of manifest[0]!.Layers) {
      const layerTar = path.join(tmp, 'layer.tar');
      await execa('sh', ['-c', 'tar -xOf "$1" "$2" > "$3"', 'sh', archive, layer, layerTar]);
      for (const row of (await execa('tar', ['-tvf', layerTar, '--numeric-owner'])).stdout.split('\n')) {
        const [mode, owner, size, , , name] = row.trim().split(/\s+/);
        if (mode && owner && name) files.set('/' + name.replace(/^\.?\//, '').replace(/\/$/, ''), { mode, owner, size: Number(size) });
      }
      for (const f of read) {
        const out = await execa('tar', ['-xOf', layerTar, f.slice(1)], { encoding: 'buffer', reject: false });
        if (out.exitCode === 0) contents.set(f, Buffer.from(out.stdout));
      }
      await rm(layerTar);
    }
    return { manifest: manifest[0]!, config, files, contents };
  }

  it('guest-bootsector: the raw disk alone in /disk, 107:107, read-only, FROM scratch, no entrypoint', async () => {
    needGuests({ qemu: false });
    const img = await imageFiles(guests.bootsector.archive, [guests.bootsector.diskPathInImage]);
    expect(img.manifest.RepoTags).toEqual([guests.bootsector.ref]);
    expect(img.config).toMatchObject({ architecture: 'amd64', os: 'linux' });
    expect(img.config.config?.Entrypoint ?? null).toBeNull();
    expect([...img.files.keys()].filter((f) => f.startsWith('/disk/'))).toEqual([guests.bootsector.diskPathInImage]);
    expect(img.files.get(guests.bootsector.diskPathInImage)).toMatchObject({ mode: '-r--r--r--', owner: '107/107' });
    expect(await sha256(img.contents.get(guests.bootsector.diskPathInImage)!)).toBe(await sha256(guests.bootsector.disk));
  }, 60_000);

  it('guest-counter: the raw disk alone in /disk, 107:107, read-only', async () => {
    needGuests({ qemu: false });
    const img = await imageFiles(guests.counter.archive, [guests.counter.diskPathInImage]);
    expect(img.manifest.RepoTags).toEqual([guests.counter.ref]);
    expect([...img.files.keys()].filter((f) => f.startsWith('/disk/'))).toEqual([guests.counter.diskPathInImage]);
    expect(img.files.get(guests.counter.diskPathInImage)).toMatchObject({ mode: '-r--r--r--', owner: '107/107' });
    expect(await sha256(img.contents.get(guests.counter.diskPathInImage)!)).toBe(await sha256(guests.counter.disk));
  }, 60_000);

  it('guest-linux: the raw disk alone in /disk, kernel and initramfs in /boot, 107:107, no entrypoint', async () => {
    needGuests({ qemu: false });
    const l = guests.linux;
    const img = await imageFiles(l.archive, [l.diskPathInImage, l.kernelPathInImage, l.initrdPathInImage]);
    expect(img.manifest.RepoTags).toEqual([l.ref]);
    expect(img.config.config?.Entrypoint ?? null).toBeNull();
    expect([...img.files.keys()].filter((f) => f.startsWith('/disk/'))).toEqual([l.diskPathInImage]);
    for (const [inImage, local] of [[l.diskPathInImage, l.disk], [l.kernelPathInImage, l.kernel], [l.initrdPathInImage, l.initrd]] as const) {
      expect(img.files.get(inImage), inImage).toMatchObject({ mode: '-r--r--r--', owner: '107/107' });
      expect(await sha256(img.contents.get(inImage)!), inImage).toBe(await sha256(local));
    }
  }, 120_000);

  it('--check finds the built images again by the hash of their inputs', async () => {
    needGuests({ qemu: false });
    const again = await buildGuestImages({ check: true });
    expect(again).toEqual(guests);
  }, 60_000);
});
