import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** The line the boot sector guest writes to COM1 (alone on its line). */
export const BOOTSECTOR_MARKER = 'VIRTGATE-GUEST-OK';
/** The first word of the line the Linux guest writes to ttyS0; see parseLinuxGuestLine. */
export const LINUX_MARKER = 'VIRTGATE-LINUX-GUEST-OK';

export interface GuestImage {
  /** The containerDisk's reference in containerd, e.g. localhost/virtgate/guest-linux:<hash>. */
  ref: string;
  repository: string;
  tag: string;
  /** Its docker-archive in the cache. */
  archive: string;
  /** The raw disk the image holds (also at /disk/<basename> in the image), for plain QEMU. */
  disk: string;
  /** Its path inside the image: a VMI's containerDisk finds it alone in /disk. */
  diskPathInImage: string;
}

export interface LinuxGuestImage extends GuestImage {
  /** Debian's kernel, also at /boot/vmlinuz in the image (firmware.kernelBoot.container.kernelPath). */
  kernel: string;
  /** The busybox initramfs, also at /boot/initrd.img in the image (kernelBoot.container.initrdPath). */
  initrd: string;
  kernelPathInImage: '/boot/vmlinuz';
  initrdPathInImage: '/boot/initrd.img';
  /** The command line SYSLINUX gives the kernel from the disk; kernelBoot needs it in kernelArgs. */
  kernelArgs: string;
}

export interface GuestImages {
  bootsector: GuestImage;
  /** counter.asm: one boot line, then a count every second (the live migration test's guest). */
  counter: GuestImage;
  linux: LinuxGuestImage;
}

/** What the Linux guest's marker line says about the guest that wrote it. */
export interface LinuxGuestLine {
  /** uname -r, e.g. 6.1.0-57-amd64. */
  kernel: string;
  /** What the kernel detected: "KVM" under KVM, "none" under TCG. */
  hypervisor: string;
  cpus: number;
  /** SMBIOS system serial: a VMI's spec.domain.firmware.serial ("none" if unset). */
  serial: string;
  /** SMBIOS system UUID: a VMI's spec.domain.firmware.uuid ("none" if unset). */
  uuid: string;
}

/** Reads the Linux guest's marker line out of a console log; undefined while it has not come. */
export function parseLinuxGuestLine(consoleLog: string): LinuxGuestLine | undefined {
  const m = /^VIRTGATE-LINUX-GUEST-OK kernel=(\S+) hypervisor=(\S+) cpus=(\d+) serial=(\S+) uuid=(\S+)\r?$/m.exec(consoleLog);
  if (!m) return undefined;
  return { kernel: m[1]!, hypervisor: m[2]!, cpus: Number(m[3]), serial: m[4]!, uuid: m[5]! };
}

/** True once the boot sector guest's marker stands on a line of its own in a console log. */
/** The counter guest's console: how often it booted and the counts it wrote, in order. */
export function readCounter(consoleLog: string): { boots: number; counts: number[] } {
  const boots = (consoleLog.match(/^VIRTGATE-COUNTER-BOOT\r?$/gm) ?? []).length;
  const counts = [...consoleLog.matchAll(/^VIRTGATE-COUNTER (\d+)\r?$/gm)].map((m) => Number(m[1]));
  return { boots, counts };
}

export function hasBootsectorMarker(consoleLog: string): boolean {
  return /^VIRTGATE-GUEST-OK\r?$/m.test(consoleLog);
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'guest-images.sh');

/**
 * Builds (or finds, by content hash) the guests' disks and containerDisk images with
 * guest-images.sh and reads where they are. The archives are docker-archives to import into
 * the node's containerd, as test/lab/node/images.ts's are.
 */
export async function buildGuestImages(options: { check?: boolean } = {}): Promise<GuestImages> {
  const args = [SCRIPT, ...(options.check ? ['--check'] : [])];
  const result = await execa('bash', args, { stderr: 'inherit', timeout: 15 * 60_000, reject: false });
  if (result.timedOut) throw new Error('test/lab/kubevirt/guest-images.sh did not finish within 15 min');
  if (result.exitCode !== 0) {
    throw new Error(
      `test/lab/kubevirt/guest-images.sh${options.check ? ' --check' : ''} failed (exit ${result.exitCode}); its output is above. ` +
        'It needs apt lists (apt-get update), buildah and Debian\'s nasm, fdisk, dosfstools, mtools, syslinux, syslinux-common, cpio (installed by the script when root)',
    );
  }
  const found: Partial<GuestImages> = {};
  for (const line of result.stdout.trim().split('\n')) {
    const [role, ref, archive, dir] = line.split(' ');
    if (!ref || !archive || !dir) continue;
    const colon = ref.lastIndexOf(':');
    const base = { ref, repository: ref.slice(0, colon), tag: ref.slice(colon + 1), archive };
    if (role === 'guest-bootsector') {
      found.bootsector = { ...base, disk: path.join(dir, 'bootsector.img'), diskPathInImage: '/disk/bootsector.img' };
    } else if (role === 'guest-counter') {
      found.counter = { ...base, disk: path.join(dir, 'counter.img'), diskPathInImage: '/disk/counter.img' };
    } else if (role === 'guest-linux') {
      found.linux = {
        ...base,
        disk: path.join(dir, 'linux.img'),
        diskPathInImage: '/disk/linux.img',
        kernel: path.join(dir, 'vmlinuz'),
        initrd: path.join(dir, 'initrd.img'),
        kernelPathInImage: '/boot/vmlinuz',
        initrdPathInImage: '/boot/initrd.img',
        kernelArgs: 'console=ttyS0,115200',
      };
    }
  }
  if (!found.bootsector || !found.counter || !found.linux) throw new Error(`guest-images.sh printed no guests:\n${result.stdout}`);
  return found as GuestImages;
}
