/**
 * The canary guest outside KubeVirt: its disk assembled on this machine exactly as
 * Dockerfile.canary-disk assembles it (Debian's nasm, the sector then zeros to 1 MiB), and booted
 * by plain QEMU under TCG as a VMI without EFI gets it (q35, SeaBIOS, the disk on virtio-blk),
 * with the UUID a VMI's spec.domain.firmware.uuid becomes (`-uuid`). A missing nasm or QEMU
 * throws a message naming the Debian package, so a test that needs them fails, never skips.
 */
import { spawn } from 'node:child_process';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';

export const CANARY_ASM = path.join(PACKAGE_ROOT, 'canary/guest/canary.asm');
/** The raw disk's size: SeaBIOS boots no virtio disk under one cylinder (504 KiB); 1 MiB keeps it aligned. */
export const CANARY_DISK_BYTES = 1024 * 1024;

const QEMU = 'qemu-system-x86_64';

/** Assembles canary.asm into `<dir>/canary.img` (the 512-byte sector, then zeros to 1 MiB); returns its path. */
export async function assembleCanaryDisk(dir: string): Promise<string> {
  const sector = path.join(dir, 'canary.bin');
  const disk = path.join(dir, 'canary.img');
  const nasm = await execa('nasm', ['-f', 'bin', '-o', sector, CANARY_ASM], { reject: false });
  if (nasm.failed) {
    throw new Error(`nasm could not assemble ${CANARY_ASM} (${nasm.shortMessage}${nasm.stderr ? `: ${nasm.stderr}` : ''}); install Debian's nasm (apt-get install nasm)`);
  }
  const bytes = await readFile(sector);
  if (bytes.length !== 512) throw new Error(`canary.asm assembled to ${bytes.length} bytes, not one 512-byte sector`);
  await writeFile(disk, bytes);
  await truncate(disk, CANARY_DISK_BYTES);
  return disk;
}

/** Throws why QEMU cannot boot the guest here, if it cannot. */
export async function requireQemu(): Promise<void> {
  const version = await execa(QEMU, ['--version'], { reject: false });
  if (version.failed) {
    throw new Error(`${QEMU} is missing or does not run (${version.shortMessage}): the canary guest is booted with it. Install Debian's qemu-system-x86 (apt-get install qemu-system-x86)`);
  }
}

export interface CanaryBoot {
  /** Everything the guest (and SeaBIOS before it) wrote to COM1. */
  console: string;
  /** Milliseconds from starting QEMU until `done(console)` held. */
  ms: number;
}

/**
 * Boots the raw disk under TCG with `-uuid <uuid>` (none: QEMU's default, all zeros), COM1 to
 * a file, until `done(console)` holds; then kills QEMU (the guest halts, it never powers off).
 * Throws with the console's tail if `done` never holds within `timeoutMs`.
 */
export async function bootCanaryDisk(disk: string, serialFile: string, opts: { uuid?: string; done: (console: string) => boolean; timeoutMs: number }): Promise<CanaryBoot> {
  const args = [
    '-accel', 'tcg', '-machine', 'q35', '-m', '32', '-nographic', '-monitor', 'none', '-no-reboot', '-nic', 'none',
    '-serial', `file:${serialFile}`,
    ...(opts.uuid ? ['-uuid', opts.uuid] : []),
    // snapshot=on: the disk is never written, as a containerDisk's is not (KubeVirt boots an overlay).
    '-drive', `file=${disk},format=raw,if=none,id=disk0,snapshot=on`, '-device', 'virtio-blk-pci,drive=disk0,bootindex=1',
  ];
  const started = Date.now();
  const child = spawn(QEMU, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.on('exit', (code) => ((exited = code), resolve())));
  let output = '';
  try {
    while (Date.now() - started < opts.timeoutMs) {
      output = await readFile(serialFile, 'latin1').catch(() => '');
      if (opts.done(output)) return { console: output, ms: Date.now() - started };
      if (exited !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (exited === undefined) {
      child.kill('SIGKILL');
      await exit;
    }
  }
  throw new Error(
    `the canary guest printed no marker within ${opts.timeoutMs} ms under TCG` +
      `${exited !== undefined ? ` (QEMU exited with ${exited}: ${stderr.trim()})` : ''}; console tail:\n${output.slice(-2000)}`,
  );
}
