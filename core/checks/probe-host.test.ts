import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, type BuildHostOptions, type BuiltHost, HOST_PROFILES, type HostProfile, removeDevice, restoreDevice, writeHostFiles } from '../../test/lab/hosts/build-host.ts';
import { unservedMiscMinor } from '../../test/lab/hosts/misc-devices.ts';
import { CLI_MAIN, tempDir } from '../../test/lab/hosts/paths.ts';
import { runNodeWithout } from '../../test/lab/hosts/privileges.ts';
import { evaluate } from './evaluate.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { assertHostRoot, HostRootError, probeFamilies, probeHost } from './probe-host.ts';
import type { CheckId, HostFacts } from './registry.ts';
import type { CheckOutcome, Verdict } from './verdict.ts';

const run = promisify(execFile);

let base = '';
let remove = async () => {};
let counter = 0;

beforeAll(async () => {
  ({ dir: base, remove } = await tempDir('probe-host'));
});
afterAll(() => remove());

async function build(profile: HostProfile, options?: BuildHostOptions): Promise<BuiltHost> {
  counter += 1;
  return buildHost(path.join(base, `${counter}-${profile}`), profile, options);
}

async function probe(host: BuiltHost): Promise<{ facts: HostFacts; verdict: Verdict; check: (id: CheckId) => CheckOutcome }> {
  const facts = await probeHost(host.root);
  const verdict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
  const check = (id: CheckId) => {
    const found = verdict.checks.find((c) => c.id === id);
    if (!found) throw new Error(`no ${id} check in the verdict`);
    return found;
  };
  return { facts, verdict, check };
}

/** What each profile must look like to the probes. */
const EXPECTED: Record<HostProfile, {
  arch: 'x86_64' | 'arm64';
  vendor: string;
  vmx: boolean;
  svm: boolean;
  hypervisor: boolean;
  kvm: string;
  tun: string;
  vhostNet: string;
  kernel: string;
  os: string;
  nested: [string | null, string | null];
  iommuGroups: number;
  platform: 'bare-metal' | 'virtual-machine';
}> = {
  'intel-metal': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-284.11.1.el9_2.x86_64', os: 'rhel', nested: ['Y', null], iommuGroups: 48, platform: 'bare-metal' },
  'amd-metal': { arch: 'x86_64', vendor: 'amd', vmx: false, svm: true, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-503.14.1.el9_5.x86_64', os: 'rocky', nested: [null, '1'], iommuGroups: 64, platform: 'bare-metal' },
  'nested-vm': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: true, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.15.0-126-generic', os: 'ubuntu', nested: ['Y', null], iommuGroups: 0, platform: 'virtual-machine' },
  'no-vmx': { arch: 'x86_64', vendor: 'intel', vmx: false, svm: false, hypervisor: true, kvm: 'missing', tun: 'ok', vhostNet: 'missing', kernel: '6.1.0-28-cloud-amd64', os: 'debian', nested: [null, null], iommuGroups: 0, platform: 'virtual-machine' },
  'no-tun': { arch: 'x86_64', vendor: 'intel', vmx: false, svm: false, hypervisor: true, kvm: 'missing', tun: 'missing', vhostNet: 'missing', kernel: '6.1.0-28-cloud-amd64', os: 'debian', nested: [null, null], iommuGroups: 0, platform: 'virtual-machine' },
  'kvm-enodev': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ENODEV', tun: 'ok', vhostNet: 'missing', kernel: '5.14.0-503.11.1.el9_5.x86_64', os: 'centos', nested: [null, null], iommuGroups: 48, platform: 'bare-metal' },
  'kvm-regular-file': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'skipped', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-427.42.1.el9_4.x86_64', os: 'almalinux', nested: ['N', null], iommuGroups: 48, platform: 'bare-metal' },
  rhel9: { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-570.12.1.el9_6.x86_64', os: 'rhel', nested: ['N', null], iommuGroups: 96, platform: 'bare-metal' },
  al2023: { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '6.1.119-129.201.amzn2023.x86_64', os: 'amzn', nested: ['Y', null], iommuGroups: 80, platform: 'bare-metal' },
  'arm64-metal': { arch: 'arm64', vendor: 'arm', vmx: false, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '6.8.0-1019-aws', os: 'ubuntu', nested: [null, null], iommuGroups: 32, platform: 'bare-metal' },
  'ec2-vm': { arch: 'x86_64', vendor: 'intel', vmx: false, svm: false, hypervisor: true, kvm: 'missing', tun: 'ok', vhostNet: 'missing', kernel: '6.1.119-129.201.amzn2023.x86_64', os: 'amzn', nested: [null, null], iommuGroups: 0, platform: 'virtual-machine' },
  'ec2-metal': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '6.1.119-129.201.amzn2023.x86_64', os: 'amzn', nested: ['Y', null], iommuGroups: 64, platform: 'bare-metal' },
  'arm64-vm': { arch: 'arm64', vendor: 'arm', vmx: false, svm: false, hypervisor: false, kvm: 'missing', tun: 'ok', vhostNet: 'missing', kernel: '6.8.0-1019-aws', os: 'ubuntu', nested: [null, null], iommuGroups: 0, platform: 'virtual-machine' },
  'kvm-pvm': { arch: 'x86_64', vendor: 'intel', vmx: false, svm: false, hypervisor: true, kvm: 'ok', tun: 'ok', vhostNet: 'missing', kernel: '6.18.44-pvm-host', os: 'debian', nested: [null, null], iommuGroups: 0, platform: 'virtual-machine' },
  'gpu-vfio': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-570.12.1.el9_6.x86_64', os: 'rhel', nested: ['Y', null], iommuGroups: 48, platform: 'bare-metal' },
  'gpu-shared-group': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-570.12.1.el9_6.x86_64', os: 'rhel', nested: ['Y', null], iommuGroups: 48, platform: 'bare-metal' },
  'pci-500': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '5.14.0-570.12.1.el9_6.x86_64', os: 'rhel', nested: ['Y', null], iommuGroups: 500, platform: 'bare-metal' },
  'sev-snp-metal': { arch: 'x86_64', vendor: 'amd', vmx: false, svm: true, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '6.14.0-29-generic', os: 'ubuntu', nested: [null, '1'], iommuGroups: 64, platform: 'bare-metal' },
  'tdx-metal': { arch: 'x86_64', vendor: 'intel', vmx: true, svm: false, hypervisor: false, kvm: 'ok', tun: 'ok', vhostNet: 'ok', kernel: '6.17.0-8-generic', os: 'ubuntu', nested: ['N', null], iommuGroups: 48, platform: 'bare-metal' },
};

const openOf = (device: HostFacts['kvm']) => (device.state === 'present' ? device.open : device.state);

describe('probeHost on every fixture profile', () => {
  it.each(HOST_PROFILES)('%s: the probes see what the profile built, and the tier follows', async (profile) => {
    const host = await build(profile);
    const { facts, verdict } = await probe(host);
    const want = EXPECTED[profile];
    expect(facts.hostRoot).toBe(host.root);
    expect(facts.cpu).toEqual({
      state: 'ok',
      value: expect.objectContaining({ arch: want.arch, vendor: want.vendor, vmx: want.vmx, svm: want.svm, hypervisor: want.hypervisor }),
    });
    expect([openOf(facts.kvm), openOf(facts.tun), openOf(facts.vhostNet)]).toEqual([want.kvm, want.tun, want.vhostNet]);
    expect(facts.kernelRelease).toEqual({ state: 'ok', value: want.kernel });
    expect(facts.os.state === 'ok' && facts.os.value.id).toBe(want.os);
    expect([facts.nested.kvmIntel, facts.nested.kvmAmd]).toEqual(want.nested);
    expect(facts.cgroup).toEqual({ state: 'ok', value: { version: 2, controllers: ['cpuset', 'cpu', 'io', 'memory', 'hugetlb', 'pids', 'rdma', 'misc'] } });
    expect(facts.iommu.state === 'ok' && facts.iommu.value.groups).toBe(want.iommuGroups);
    expect(verdict.checks.find((check) => check.id === 'platform')?.observed).toMatchObject({ kind: want.platform });
    expect(verdict.tier).toBe(host.expectedTier);
    expect(verdict.conclusive).toBe(true);
    expect(verdict.checks.some((check) => check.status === 'error')).toBe(false);
  });
});

describe('the cases the issue names', () => {
  it('Intel metal with KVM: hardware and ready; the stand-in is the node the host\'s sysfs registers', async () => {
    const { verdict, check } = await probe(await build('intel-metal'));
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
    expect(check('cpu.virtualization')).toMatchObject({ status: 'pass', message: 'Intel VT-x (vmx) is available' });
    expect(check('dev.kvm').message).toBe('/dev/kvm (1:3) opens read-write, served by kvm_intel (Intel VT-x)');
    expect(check('dev.kvm').observed).toMatchObject({ expected: '1:3' });
    expect(check('dev.tun')).toMatchObject({ status: 'pass', message: '/dev/net/tun (10:200) opens read-write' });
    expect(check('os.userland').status).toBe('pass');
    expect(check('kernel.modules')).toMatchObject({ status: 'pass', observed: { missing: [] } });
  });

  it('AMD metal: svm passes and kvm_amd is the vendor module', async () => {
    const { verdict, check } = await probe(await build('amd-metal'));
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
    expect(check('cpu.virtualization').message).toBe('AMD-V (svm) is available');
    expect(check('kvm.nested')).toMatchObject({ status: 'pass', observed: { nestedParameter: '1' } });
  });

  it('a nested VM: hardware, with a "test only" warning', async () => {
    const { verdict, check } = await probe(await build('nested-vm'));
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
    expect(check('kvm.nested')).toMatchObject({ status: 'warn', observed: { hypervisor: true, nestedParameter: 'Y' } });
    expect(check('kvm.nested').message).toMatch(/itself a virtual machine.*tests only/);
  });

  it('no vmx: emulation tier, ready only with allowEmulation', async () => {
    const host = await build('no-vmx');
    const facts = await probeHost(host.root);
    const strict = evaluate(facts, { state: 'disabled' }, DEFAULT_POLICY);
    expect(strict).toMatchObject({ tier: 'emulation', ready: false, conclusive: true });
    expect(strict.checks.find((c) => c.id === 'cpu.virtualization')?.status).toBe('fail');
    expect(evaluate(facts, { state: 'disabled' }, { ...DEFAULT_POLICY, allowEmulation: true })).toMatchObject({ tier: 'emulation', ready: true });
  });

  it('no tun: tier none, not ready even with allowEmulation', async () => {
    const host = await build('no-tun');
    const facts = await probeHost(host.root);
    const verdict = evaluate(facts, { state: 'disabled' }, { ...DEFAULT_POLICY, allowEmulation: true });
    expect(verdict).toMatchObject({ tier: 'none', ready: false });
    expect(verdict.checks.find((c) => c.id === 'dev.tun')).toMatchObject({ status: 'fail', message: '/dev/net/tun does not exist' });
  });

  it('kvm_pvm (paravirtual KVM, no vmx/svm): the hand-written verdict, never hardware, and dev.kvm names the reason', async () => {
    const host = await build('kvm-pvm');
    const { facts, verdict } = await probe(host);
    expect(facts.kvmProvider).toEqual({ state: 'ok', value: { module: 'kvm_pvm', seen: ['kvm', 'kvm_pvm'] } });
    expect({ tier: verdict.tier, ready: verdict.ready, conclusive: verdict.conclusive }).toEqual({ tier: 'emulation', ready: false, conclusive: true });
    expect(Object.fromEntries(verdict.checks.map((c) => [c.id, c.status]))).toEqual({
      'cpu.virtualization': 'fail',
      'dev.kvm': 'warn',
      'dev.tun': 'pass',
      'dev.vhost-net': 'warn',
      'kvm.run': 'skip',
      'qemu.access': 'pass',
      'kernel.modules': 'warn',
      'kvm.nested': 'warn',
      // A VM under a hypervisor that names no cloud: it passes, with its name (kvm.nested warns).
      platform: 'pass',
      'kernel.version': 'warn',
      'os.userland': 'warn',
      cgroup: 'pass',
      iommu: 'pass',
      'virt-host-validate': 'skip',
      // proc/meminfo without hugepages reserved.
      hugepages: 'pass',
      passthrough: 'skip',
      // A VM's CPU without sev or tdx_host_platform: informational, it passes and says so.
      confidential: 'pass',
    });
    const kvm = verdict.checks.find((c) => c.id === 'dev.kvm');
    expect(kvm?.message).toBe(
      '/dev/kvm (1:3) opens read-write, but it is served by kvm_pvm: paravirtual KVM without VT-x/AMD-V, where only PVM-enabled guest kernels boot',
    );
    expect(kvm?.hint).toMatch(/KubeVirt needs hardware virtualization \(kvm_intel with VT-x or kvm_amd with AMD-V\)/);
    expect(kvm?.observed).toMatchObject({ provider: 'kvm_pvm', expected: '1:3' });
    // The stand-in 1:3 node is never driven by KVM ioctls.
    expect(verdict.checks.find((c) => c.id === 'kvm.run')?.message).toBe(
      `tiny KVM guest not run: under --host-root ${host.root}, dev/kvm is not the real 10:232 character device`,
    );
    // With emulation allowed it is ready, and still emulation.
    expect(evaluate(facts, { state: 'disabled' }, { ...DEFAULT_POLICY, allowEmulation: true })).toMatchObject({ tier: 'emulation', ready: true });
  });

  it('kvm_pvm on a CPU that shows vmx is still not hardware: the provider decides what boots', async () => {
    const intel = await build('intel-metal');
    const pvm = await build('kvm-pvm', { files: { 'proc/cpuinfo': await readFile(path.join(intel.root, 'proc/cpuinfo'), 'utf8') } });
    const { verdict, check } = await probe(pvm);
    expect(check('cpu.virtualization').status).toBe('pass');
    expect(check('dev.kvm').status).toBe('warn');
    expect(verdict.tier).toBe('emulation');
  });

  it('the provider of every other profile: the vendor module, or built in on arm64', async () => {
    const providers = await Promise.all(
      (['intel-metal', 'amd-metal', 'arm64-metal', 'no-vmx'] as const).map(async (profile) => {
        const { facts } = await probe(await build(profile));
        return facts.kvmProvider.state === 'ok' ? facts.kvmProvider.value.module : 'unknown';
      }),
    );
    expect(providers).toEqual(['kvm_intel', 'kvm_amd', 'builtin', 'none']);
  });

  it('/dev/kvm whose driver is absent: virtgate fails it (ENODEV), with the reason', async () => {
    const host = await build('kvm-enodev');
    // A misc minor /proc/misc shows no driver for stands in for 10:232, whatever this host serves.
    const minor = unservedMiscMinor();
    const { facts, verdict, check } = await probe(host);
    expect(facts.kvm).toMatchObject({ kind: 'char', major: 10, minor, expected: `10:${minor}`, open: 'ENODEV' });
    expect(check('dev.kvm')).toMatchObject({ status: 'fail', message: '/dev/kvm exists but its driver is not loaded (open: ENODEV)' });
    // The CPU has vmx: the remedy names its one module, never kvm_amd.
    expect(check('dev.kvm').hint).toBe('Load kvm_intel (modprobe kvm_intel) and list it in /etc/modules-load.d/ so it loads at boot.');
    expect(verdict).toMatchObject({ tier: 'emulation', ready: false });
  });

  it('a regular file at /dev/kvm: fail, and it is never opened', async () => {
    const { facts, check } = await probe(await build('kvm-regular-file'));
    expect(facts.kvm).toMatchObject({ kind: 'file', open: 'skipped' });
    expect(check('dev.kvm')).toMatchObject({ status: 'fail', message: '/dev/kvm is a regular file, not a character device' });
  });

  it('RHEL 9: Enterprise Linux with an el9 kernel, no kernel warning', async () => {
    const { check } = await probe(await build('rhel9'));
    expect(check('os.userland')).toMatchObject({ status: 'pass', observed: { id: 'rhel', idLike: ['fedora'] } });
    expect(check('kernel.version')).toMatchObject({ status: 'pass', observed: { enterpriseLinuxKernel: true } });
  });

  it('Amazon Linux 2023: not Enterprise Linux although ID_LIKE says fedora; kernel 6.1 is below the USO issue', async () => {
    const { verdict, check } = await probe(await build('al2023'));
    expect(check('os.userland')).toMatchObject({ status: 'warn', observed: { id: 'amzn', idLike: ['fedora'] } });
    expect(check('os.userland').message).toMatch(/^Amazon Linux 2023\.6\.20250107 is not Enterprise Linux/);
    expect(check('kernel.version')).toMatchObject({ status: 'pass', observed: { enterpriseLinuxKernel: false } });
    // A warning is not a blocker.
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
  });

  it('Amazon Linux 2023 on its 6.12 kernel: the kubevirt#16386 warning appears', async () => {
    const { check } = await probe(await build('al2023', { files: { 'proc/sys/kernel/osrelease': '6.12.13-34.130.amzn2023.x86_64\n' } }));
    expect(check('kernel.version').status).toBe('warn');
    expect(check('kernel.version').message).toMatch(/USO.*kubevirt\/kubevirt#16386/);
  });

  it('arm64 metal: KVM without any CPU flag', async () => {
    const { facts, verdict, check } = await probe(await build('arm64-metal'));
    expect(facts.cpu).toMatchObject({ state: 'ok', value: { arch: 'arm64', vmx: false, svm: false } });
    expect(check('cpu.virtualization')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^arm64: KVM needs no CPU flag/) });
    // kvm is built in on arm64: seen in sys/module only, and no kvm_intel/kvm_amd is asked for.
    expect(check('kernel.modules')).toMatchObject({ status: 'pass', observed: { sources: ['proc/modules', 'sys/module'] } });
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
  });

  it('an EC2 m5.large VM: warned as a cloud VM type, with m5.metal named; kvm.nested says the host is a VM', async () => {
    const { facts, verdict, check } = await probe(await build('ec2-vm'));
    expect(facts.platform.dmi).toEqual({ sysVendor: 'Amazon EC2', productName: 'm5.large', productVersion: null, biosVendor: 'Amazon EC2' });
    expect(check('platform')).toEqual({
      id: 'platform',
      status: 'warn',
      message: 'the kernel runs on a virtual machine under Amazon EC2 (Nitro) (Amazon EC2 m5.large); from DMI: Amazon EC2 m5.large',
      hint: 'Use a .metal instance type (e.g. m5.metal instead of m5.large, where the family has one), or for tests a type with nested virtualization (C8i, M8i, R8i): other virtual EC2 instances get no VT-x. On EKS, create the node group with that type.',
      observed: { kind: 'virtual-machine', hypervisor: 'Amazon EC2 (Nitro)', cloud: 'aws', vendor: 'Amazon EC2', product: 'm5.large', evidence: 'DMI: Amazon EC2 m5.large' },
    });
    expect(check('kvm.nested')).toMatchObject({ status: 'warn', observed: { platform: 'virtual-machine', hypervisor: true } });
    expect(verdict).toMatchObject({ tier: 'emulation', ready: false });
  });

  it('an EC2 m5.metal host: bare metal by its instance type, no hint, hardware tier', async () => {
    const { verdict, check } = await probe(await build('ec2-metal'));
    expect(check('platform')).toEqual({
      id: 'platform',
      status: 'pass',
      message: 'the kernel runs on bare metal (Amazon EC2 m5.metal); from DMI: Amazon EC2 m5.metal',
      observed: { kind: 'bare-metal', hypervisor: null, cloud: 'aws', vendor: 'Amazon EC2', product: 'm5.metal', evidence: 'DMI: Amazon EC2 m5.metal' },
    });
    expect(check('kvm.nested')).toMatchObject({ status: 'pass', message: 'bare metal; nested virtualization is enabled for guests' });
    expect(verdict).toMatchObject({ tier: 'hardware', ready: true });
  });

  it('an arm64 VM (Graviton c7g.large): DMI says VM although arm64 has no hypervisor flag; kvm.nested no longer says bare metal', async () => {
    const { facts, check } = await probe(await build('arm64-vm'));
    expect(facts.cpu).toMatchObject({ state: 'ok', value: { arch: 'arm64', hypervisor: false } });
    expect(check('platform')).toMatchObject({ status: 'warn', observed: { kind: 'virtual-machine', cloud: 'aws', product: 'c7g.large' } });
    expect(check('platform').hint).toMatch(/c7g\.metal instead of c7g\.large/);
    expect(check('kvm.nested')).toMatchObject({ status: 'warn', message: expect.stringMatching(/itself a virtual machine under Amazon EC2 \(Nitro\) \(Amazon EC2 c7g\.large\)/) });
  });

  it('an arm64 VM with a device tree and no DMI: the QEMU virt machine and a Xen hypervisor node are VMs; a board is bare metal', async () => {
    const noDmi = Object.fromEntries(['sys_vendor', 'product_name', 'product_version', 'bios_vendor'].map((name) => [`sys/class/dmi/id/${name}`, null]));
    const qemu = await probe(await build('arm64-metal', { files: { ...noDmi, 'proc/device-tree/compatible': 'linux,dummy-virt\u0000' } }));
    expect(qemu.check('platform').observed).toMatchObject({ kind: 'virtual-machine', hypervisor: 'KVM/QEMU' });
    expect(qemu.check('kvm.nested').status).toBe('warn');
    const xen = await probe(
      await build('arm64-metal', {
        files: { ...noDmi, 'sys/firmware/devicetree/base/compatible': 'xen,xenvm-4.17\u0000xen,xenvm\u0000', 'sys/firmware/devicetree/base/hypervisor/compatible': 'xen,xen-4.17\u0000xen,xen\u0000' },
      }),
    );
    expect(xen.facts.platform.deviceTree).toEqual({ compatible: ['xen,xenvm-4.17', 'xen,xenvm'], hypervisor: ['xen,xen-4.17', 'xen,xen'] });
    expect(xen.check('platform').observed).toMatchObject({ kind: 'virtual-machine', hypervisor: 'xen,xen-4.17' });
    const board = await probe(await build('arm64-metal', { files: { ...noDmi, 'proc/device-tree/compatible': 'raspberrypi,5-model-b\u0000brcm,bcm2712\u0000' } }));
    expect(board.check('platform')).toMatchObject({ status: 'pass', observed: { kind: 'bare-metal', evidence: 'the device tree names no hypervisor' } });
    // With neither DMI nor a device tree, arm64 cannot tell: the platform check says so, kvm.nested does not guess.
    const bare = await probe(await build('arm64-metal', { files: noDmi }));
    expect(bare.check('platform')).toMatchObject({ status: 'error', observed: { kind: 'unknown' } });
    expect(bare.check('kvm.nested').message).toMatch(/^cannot tell whether VMs here are nested/);
  });

  it('Xen under sys/hypervisor/type: a VM even when DMI names no hypervisor', async () => {
    const { check } = await probe(await build('intel-metal', { files: { 'sys/hypervisor/type': 'xen\n' } }));
    expect(check('platform').observed).toMatchObject({ kind: 'virtual-machine', hypervisor: 'xen', evidence: 'sys/hypervisor/type is xen' });
  });

  it('a host with cgroup v1 gets a warning, and one lacking a controller fails', async () => {
    const v1 = await probe(await build('intel-metal', { cgroup: 'v1' }));
    expect(v1.facts.cgroup).toMatchObject({ state: 'ok', value: { version: 1 } });
    expect(v1.check('cgroup')).toMatchObject({ status: 'warn', observed: { missing: [] } });
    const noMemory = await probe(await build('intel-metal', { files: { 'sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io pids\n' } }));
    expect(noMemory.check('cgroup')).toMatchObject({ status: 'fail', message: 'cgroup v2 lacks the memory controller' });
    expect(noMemory.verdict).toMatchObject({ tier: 'hardware', ready: false });
  });

  it('a host without proc/modules (as here) still reads sys/module', async () => {
    const { facts } = await probe(await build('intel-metal', { files: { 'proc/modules': null } }));
    expect(facts.modules).toEqual({ state: 'ok', value: { sources: ['sys/module'], loaded: ['kvm', 'kvm_intel', 'vhost_net', 'tun'] } });
  });
});

describe('unreadable files: the check says "error", never "fail"', () => {
  it('a directory where proc/cpuinfo belongs', async () => {
    const host = await build('intel-metal', { files: { 'proc/cpuinfo': null } });
    await mkdir(path.join(host.root, 'proc/cpuinfo'));
    const { verdict, check } = await probe(host);
    expect(check('cpu.virtualization')).toEqual({ id: 'cpu.virtualization', status: 'error', message: 'proc/cpuinfo could not be read (EISDIR)' });
    expect(check('kvm.nested').status).toBe('error');
    // The tier cannot be proven, and the verdict says so.
    expect(verdict).toMatchObject({ tier: 'emulation', conclusive: false });
  });

  it('a FIFO at every file a probe reads: no hang, every probe says why', async () => {
    const host = await build('intel-metal');
    const targets = ['proc/cpuinfo', 'proc/sys/kernel/osrelease', 'etc/os-release', 'proc/modules', 'sys/module/kvm_intel/parameters/nested', 'sys/fs/cgroup/cgroup.controllers'];
    await writeHostFiles(host.root, Object.fromEntries(targets.map((t) => [t, null])));
    for (const target of targets) await run('mkfifo', [path.join(host.root, target)]);
    const { facts, check } = await probe(host);
    expect(facts.cpu).toEqual({ state: 'unknown', reason: 'proc/cpuinfo could not be read (ENOTREG)' });
    expect(facts.kernelRelease).toEqual({ state: 'unknown', reason: 'proc/sys/kernel/osrelease could not be read (ENOTREG)' });
    expect(facts.os).toEqual({ state: 'unknown', reason: 'etc/os-release could not be read (ENOTREG)' });
    expect(facts.nested.kvmIntel).toBeNull();
    expect(facts.cgroup.state).toBe('unknown');
    expect(facts.modules).toMatchObject({ state: 'ok', value: { sources: ['sys/module'] } });
    for (const id of ['cpu.virtualization', 'kernel.version', 'os.userland', 'cgroup'] as const) expect(check(id).status).toBe('error');
  });

  it('a symlink loop at etc/os-release and a dangling symlink at proc/sys/kernel/osrelease', async () => {
    const host = await build('rhel9', { files: { 'etc/os-release': null, 'proc/sys/kernel/osrelease': null } });
    await symlink('os-release', path.join(host.root, 'etc/os-release'));
    await symlink('/nonexistent/osrelease', path.join(host.root, 'proc/sys/kernel/osrelease'));
    const { check } = await probe(host);
    expect(check('os.userland')).toMatchObject({ status: 'error', message: 'etc/os-release could not be read (ELOOP)' });
    expect(check('kernel.version')).toMatchObject({ status: 'error', message: 'proc/sys/kernel/osrelease does not exist' });
  });

  it('mode-000 files read by a root without CAP_DAC_OVERRIDE: EACCES, reported through the CLI', async () => {
    const host = await build('intel-metal');
    await chmod(path.join(host.root, 'proc/cpuinfo'), 0o000);
    await chmod(path.join(host.root, 'etc/os-release'), 0o000);
    const outcome = await runNodeWithout(['dac_override', 'dac_read_search'], [CLI_MAIN, 'check', '--json', '--no-vhv', ...host.cliArgs]);
    expect(outcome.stderr).toBe('');
    const report = JSON.parse(outcome.stdout) as Verdict;
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('cpu.virtualization')).toMatchObject({ status: 'error', message: 'proc/cpuinfo could not be read (EACCES)' });
    expect(byId.get('os.userland')).toMatchObject({ status: 'error', message: 'etc/os-release could not be read (EACCES)' });
    expect(report.conclusive).toBe(false);
    expect(outcome.code).toBe(1);
  });
});

describe('truncated, garbage and huge files', () => {
  it('a cpuinfo cut inside the flags line: error, not "no vmx"', async () => {
    const host = await build('intel-metal');
    const { readFile } = await import('node:fs/promises');
    const full = await readFile(path.join(host.root, 'proc/cpuinfo'), 'utf8');
    await writeHostFiles(host.root, { 'proc/cpuinfo': full.slice(0, full.indexOf(' vmx ')) });
    const { check } = await probe(host);
    expect(check('cpu.virtualization')).toMatchObject({ status: 'error', message: expect.stringMatching(/truncated/) });
  });

  it.each([
    ['empty', ''],
    ['garbage', 'lorem ipsum dolor sit amet\n\u0000\u0001\u0002\n'],
    ['only a vendor line', 'processor\t: 0\nvendor_id\t: GenuineIntel\n'],
  ])('a cpuinfo that is %s: error', async (_name, text) => {
    const { check } = await probe(await build('intel-metal', { files: { 'proc/cpuinfo': text } }));
    expect(check('cpu.virtualization').status).toBe('error');
  });

  it.each([
    ['truncated before ID', 'NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Pl'],
    ['garbage', '\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000'],
    ['empty', ''],
  ])('an os-release that is %s: os.userland error', async (_name, text) => {
    const { check } = await probe(await build('rhel9', { files: { 'etc/os-release': text } }));
    expect(check('os.userland')).toMatchObject({ status: 'error', message: expect.stringMatching(/no ID line/) });
  });

  it('a garbage kernel release: error', async () => {
    const { check } = await probe(await build('rhel9', { files: { 'proc/sys/kernel/osrelease': 'Linux version?\n' } }));
    expect(check('kernel.version')).toMatchObject({ status: 'error', message: expect.stringMatching(/is not a kernel release/) });
  });

  it('a huge cpuinfo (512 MiB, sparse) is read only up to the bound, and its first processor still counts', async () => {
    const host = await build('intel-metal');
    await truncate(path.join(host.root, 'proc/cpuinfo'), 512 * 1024 * 1024);
    const { facts } = await probe(host);
    expect(facts.cpu).toMatchObject({ state: 'ok', value: { vmx: true, processors: 4 } });
  });

  it('a huge os-release whose ID lies past the 64 KiB bound is not read to its end', async () => {
    const text = `NAME="Padded"\n${'# padding\n'.repeat(10_000)}ID=rhel\n`;
    const { check } = await probe(await build('rhel9', { files: { 'etc/os-release': text } }));
    expect(check('os.userland').status).toBe('error');
  });

  it('a huge kernel release file is bounded and refused: a real release is at most 64 characters', async () => {
    const { check } = await probe(await build('rhel9', { files: { 'proc/sys/kernel/osrelease': `5.14.0-${'x'.repeat(100_000)}\n` } }));
    expect(check('kernel.version')).toMatchObject({ status: 'error', message: expect.stringMatching(/is not a kernel release/) });
  });
});

describe('fixture mutators', () => {
  it('removeDevice and restoreDevice take a device away and put the same node back', async () => {
    const host = await build('intel-metal');
    await removeDevice(host.root, 'kvm');
    expect((await probe(host)).verdict.tier).toBe('emulation');
    await restoreDevice(host.root, 'kvm');
    expect((await probe(host)).verdict.tier).toBe('hardware');
    await removeDevice(host.root, 'tun');
    expect((await probe(host)).verdict.tier).toBe('none');
    await restoreDevice(host.root, 'tun');
    expect((await probe(host)).verdict.tier).toBe('hardware');
  });

  it('restoreDevice refuses a device the profile never had', async () => {
    const host = await build('no-tun');
    await expect(restoreDevice(host.root, 'tun')).rejects.toThrow(/profile no-tun has no tun device to restore/);
  });

  it('buildHost refuses a non-empty directory and paths outside the root', async () => {
    const host = await build('no-vmx');
    await expect(buildHost(host.root, 'no-vmx')).rejects.toThrow(/is not empty/);
    await expect(writeHostFiles(host.root, { '../escape': 'x' })).rejects.toThrow(/is not inside/);
  });
});

describe('probeFamilies', () => {
  it('runs a synchronous probe once the others have finished, and merges every part', async () => {
    const events: string[] = [];
    const asynchronous = (name: string, ms: number) => ({
      ids: [name],
      evaluate: () => [],
      probe: async () => {
        events.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        events.push(`${name} end`);
        return { [name]: true };
      },
    });
    const walk = { ids: ['walk'], evaluate: () => [], synchronousProbe: true as const, probe: async () => (events.push('walk'), { walk: true }) };
    const facts = await probeFamilies([asynchronous('a', 20), walk, asynchronous('b', 5)], { hostRoot: '/x' });
    expect(events).toEqual(['a start', 'b start', 'b end', 'a end', 'walk']);
    expect(facts).toEqual({ hostRoot: '/x', a: true, walk: true, b: true });
    expect(Object.keys(facts)).toEqual(['hostRoot', 'a', 'walk', 'b']);
  });
});

describe('assertHostRoot', () => {
  it('accepts a directory and rejects a missing path or a file with HostRootError', async () => {
    await expect(assertHostRoot(base)).resolves.toBeUndefined();
    await expect(assertHostRoot(path.join(base, 'absent'))).rejects.toBeInstanceOf(HostRootError);
    const file = path.join(base, 'a-file');
    await writeFile(file, '');
    await expect(assertHostRoot(file)).rejects.toThrow(/is not a directory/);
  });
});
