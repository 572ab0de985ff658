export type DeviceName = 'kvm' | 'tun' | 'vhost-net';

export interface DeviceSpec {
  path: string;
  /** Where the kernel publishes the numbers it registered the device under, once its driver is loaded. */
  sysfs: string;
  /** The numbers the kernel assigns it (devices.txt, misc major 10), used while sysfs names none. */
  major: number;
  minor: number;
}

export type DeviceSpecs = Readonly<Record<DeviceName, DeviceSpec>>;

/**
 * The character devices KubeVirt needs. A loaded misc driver shows its numbers in
 * sys/class/misc/<name>/dev, which is what devtmpfs and udev make the /dev node from; without the
 * driver there is no such file and the node, if any, must carry the kernel's fixed numbers.
 */
export const DEVICE_SPECS: DeviceSpecs = {
  kvm: { path: 'dev/kvm', sysfs: 'sys/class/misc/kvm/dev', major: 10, minor: 232 },
  tun: { path: 'dev/net/tun', sysfs: 'sys/class/misc/tun/dev', major: 10, minor: 200 },
  'vhost-net': { path: 'dev/vhost-net', sysfs: 'sys/class/misc/vhost-net/dev', major: 10, minor: 238 },
};
