export type DeviceName = 'kvm' | 'tun' | 'vhost-net';

export interface DeviceSpec {
  path: string;
  major: number;
  minor: number;
  /** Set when the numbers come from a test override instead of the kernel's table. */
  overridden?: boolean;
}

export type DeviceSpecs = Readonly<Record<DeviceName, DeviceSpec>>;

/** The character devices KubeVirt needs, with the numbers the kernel assigns them (devices.txt, misc major 10). */
export const DEVICE_SPECS: DeviceSpecs = {
  kvm: { path: 'dev/kvm', major: 10, minor: 232 },
  tun: { path: 'dev/net/tun', major: 10, minor: 200 },
  'vhost-net': { path: 'dev/vhost-net', major: 10, minor: 238 },
};

/**
 * Test seam: `kvm=1:3,vhost-net=1:5` makes the probe accept other device numbers, because a
 * machine without the kvm driver cannot produce a 10:232 node that opens. Every result made
 * this way says `overridden: true`, so no report can pass off a fixture as real hardware.
 */
export function parseDeviceOverrides(text: string): Record<DeviceName, DeviceSpec> {
  const specs: Record<DeviceName, DeviceSpec> = { ...DEVICE_SPECS };
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^(kvm|tun|vhost-net)=(\d{1,4}):(\d{1,7})$/.exec(item);
    if (!match?.[1] || !match[2] || !match[3]) {
      throw new Error(`bad device override "${item}": expected NAME=MAJOR:MINOR with NAME one of kvm, tun, vhost-net`);
    }
    const name = match[1] as DeviceName;
    specs[name] = { path: DEVICE_SPECS[name].path, major: Number(match[2]), minor: Number(match[3]), overridden: true };
  }
  return specs;
}
