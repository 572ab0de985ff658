/** The demo's fake nodes: one fixture host each, and what virtgate should find there. */
import type { HostProfile } from '../test/lab/hosts/build-host.ts';

export interface DemoNode {
  name: string;
  profile: HostProfile;
  /** One line for the banner: what the agent should conclude. */
  expect: string;
  /** As the kubelet would report them (Node status.nodeInfo), matching the fixture host. */
  kernelVersion: string;
  osImage: string;
}

export const DEMO_NODES: readonly DemoNode[] = [
  {
    name: 'demo-intel',
    profile: 'intel-metal',
    expect: 'bare-metal Intel, RHEL 9: hardware, ready',
    kernelVersion: '5.14.0-284.11.1.el9_2.x86_64',
    osImage: 'Red Hat Enterprise Linux 9.2 (Plow)',
  },
  {
    name: 'demo-amd',
    profile: 'amd-metal',
    expect: 'bare-metal AMD, Rocky 9: hardware, ready',
    kernelVersion: '5.14.0-503.14.1.el9_5.x86_64',
    osImage: 'Rocky Linux 9.5 (Blue Onyx)',
  },
  {
    name: 'demo-nested',
    profile: 'nested-vm',
    expect: 'a VM with nested virtualisation, Ubuntu: hardware (nested: test only), non-EL warning',
    kernelVersion: '5.15.0-126-generic',
    osImage: 'Ubuntu 22.04.5 LTS',
  },
  {
    name: 'demo-emulation',
    profile: 'no-vmx',
    expect: 'a VM without nested virtualisation: emulation only, not ready',
    kernelVersion: '6.1.0-28-cloud-amd64',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
  },
  {
    name: 'demo-none',
    profile: 'no-tun',
    expect: 'no KVM and no /dev/net/tun: cannot run VMs',
    kernelVersion: '6.1.0-28-cloud-amd64',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
  },
];
