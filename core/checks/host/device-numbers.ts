export type DeviceName = 'kvm' | 'tun' | 'vhost-net';

export interface DeviceSpec {
  path: string;
  major: number;
  minor: number;
}

export type DeviceSpecs = Readonly<Record<DeviceName, DeviceSpec>>;

/** The character devices KubeVirt needs, with the numbers the kernel assigns them (devices.txt, misc major 10). */
export const DEVICE_SPECS: DeviceSpecs = {
  kvm: { path: 'dev/kvm', major: 10, minor: 232 },
  tun: { path: 'dev/net/tun', major: 10, minor: 200 },
  'vhost-net': { path: 'dev/vhost-net', major: 10, minor: 238 },
};
