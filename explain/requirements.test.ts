/**
 * The virt-launcher pod's requirements for VMIs whose rendering by KubeVirt v1.9.0 is written out
 * here by hand, from its source and its own tests (pkg/virt-controller/services/template_test.go
 * "should add node selector for node discovery feature to template", nodeselectorrenderer_test.go,
 * renderresources_test.go): the expectations are KubeVirt's, not this module's output.
 */
import { describe, expect, it } from 'vitest';
import { KUBEVIRT_DEFAULTS, type KubeVirtPlacementConfig } from './kubevirt-config.ts';
import { launcherRequirements, type Requirement } from './requirements.ts';
import { readVmiInput } from './vmi-input.ts';

const GiB = 2 ** 30;

function vmi(spec: Record<string, unknown>, status: Record<string, unknown> = {}) {
  return readVmiInput(
    { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'testvmi', namespace: 'default' }, spec: { architecture: 'amd64', ...spec }, status },
    'test',
    { clusterCpuModel: null, defaultArchitecture: 'amd64' },
    { fromServer: true },
  );
}

const domain = (extra: Record<string, unknown> = {}) => ({ domain: { cpu: { cores: 1, sockets: 1, threads: 1, model: 'host-model' }, devices: {}, ...extra } });

/** The pod's nodeSelector as KubeVirt would render it: the label requirements. */
function nodeSelector(requirements: readonly Requirement[]): Record<string, string> {
  return Object.fromEntries(requirements.flatMap((requirement) => (requirement.kind === 'label' ? [[requirement.key, requirement.value]] : [])));
}
function absent(requirements: readonly Requirement[]): string[] {
  return requirements.flatMap((requirement) => (requirement.kind === 'label-absent' ? [requirement.key] : []));
}
function resources(requirements: readonly Requirement[]): Record<string, number> {
  return Object.fromEntries(requirements.flatMap((requirement) => (requirement.kind === 'resource' ? [[requirement.resource, requirement.amount]] : [])));
}

describe('launcherRequirements (KubeVirt v1.9.0 renderLaunchManifest)', () => {
  it('a plain host-model VMI with the pod network: schedulable, arch, kvm, tun, vhost-net, 100m CPU, and no obsolete host model', () => {
    const { requirements } = launcherRequirements(vmi({ ...domain({ devices: { interfaces: [{ name: 'default', masquerade: {} }] }, resources: { requests: { memory: '1Gi' } } }) }), KUBEVIRT_DEFAULTS);
    expect(nodeSelector(requirements)).toEqual({ 'kubevirt.io/schedulable': 'true', 'kubernetes.io/arch': 'amd64' });
    expect(absent(requirements)).toEqual(['node-labeller.kubevirt.io/obsolete-host-model']);
    // 1 vCPU / cpuAllocationRatio 10 = 100m; the guest's memory request (overhead added by KubeVirt, not here).
    expect(resources(requirements)).toEqual({ 'devices.kubevirt.io/kvm': 1, 'devices.kubevirt.io/tun': 1, 'devices.kubevirt.io/vhost-net': 1, cpu: 0.1, memory: GiB });
    // kube-scheduler's filter order: taints, then labels and affinity, then resources.
    expect(requirements.map((requirement) => requirement.kind)).toEqual(['tolerations', 'label', 'label', 'label-absent', 'resource', 'resource', 'resource', 'resource', 'resource']);
    expect(requirements[1]?.id).toBe('label:kubevirt.io/schedulable');
  });

  it('a named model with features (template_test.go "node discovery"): model and required features selected, forbidden ones DoesNotExist, disabled ones ignored', () => {
    const cpu = { model: 'Conroe', cores: 2, features: [{ name: 'lahf_lm', policy: 'require' }, { name: 'mmx', policy: 'disable' }, { name: 'ssse3', policy: 'forbid' }] };
    const { requirements } = launcherRequirements(vmi({ domain: { cpu, devices: { autoattachPodInterface: false } } }), KUBEVIRT_DEFAULTS);
    expect(nodeSelector(requirements)).toEqual({
      'kubevirt.io/schedulable': 'true',
      'kubernetes.io/arch': 'amd64',
      'cpu-model.node.kubevirt.io/Conroe': 'true',
      'cpu-feature.node.kubevirt.io/lahf_lm': 'true',
    });
    expect(absent(requirements)).toEqual(['cpu-feature.node.kubevirt.io/ssse3']);
    // No interface and autoattachPodInterface false: no tun, no vhost-net (pkg/network/vmispec/devices.go).
    expect(resources(requirements)).toEqual({ 'devices.kubevirt.io/kvm': 1, cpu: 0.2 });
  });

  it('a feature without a policy is required, but only a named model turns features into selectors (WithModelAndFeatureLabels)', () => {
    const features = [{ name: 'pcid' }];
    expect(nodeSelector(launcherRequirements(vmi({ domain: { cpu: { model: 'Haswell', features } } }), KUBEVIRT_DEFAULTS).requirements)).toHaveProperty(['cpu-feature.node.kubevirt.io/pcid'], 'true');
    expect(nodeSelector(launcherRequirements(vmi({ domain: { cpu: { model: 'host-passthrough', features } } }), KUBEVIRT_DEFAULTS).requirements)).not.toHaveProperty(['cpu-feature.node.kubevirt.io/pcid']);
  });

  it('useEmulation: neither kvm nor vhost-net is requested; an e1000 interface never asks for vhost-net', () => {
    const emulation: KubeVirtPlacementConfig = { ...KUBEVIRT_DEFAULTS, found: true, useEmulation: true };
    const virtio = vmi(domain({ devices: { interfaces: [{ name: 'default' }] } }));
    expect(resources(launcherRequirements(virtio, emulation).requirements)).toEqual({ 'devices.kubevirt.io/tun': 1, cpu: 0.1 });
    const e1000 = vmi(domain({ devices: { interfaces: [{ name: 'default', model: 'e1000' }] } }));
    expect(resources(launcherRequirements(e1000, KUBEVIRT_DEFAULTS).requirements)).toEqual({ 'devices.kubevirt.io/kvm': 1, 'devices.kubevirt.io/tun': 1, cpu: 0.1 });
  });

  it('dedicated CPUs: kubevirt.io/cpumanager and one whole core per vCPU, plus one for an isolated emulator thread', () => {
    const { requirements } = launcherRequirements(vmi({ domain: { cpu: { cores: 4, dedicatedCpuPlacement: true, isolateEmulatorThread: true } } }), KUBEVIRT_DEFAULTS);
    expect(nodeSelector(requirements)['kubevirt.io/cpumanager']).toBe('true');
    expect(resources(requirements).cpu).toBe(5);
  });

  it('hugepages: the guest memory as hugepages-1Gi and no plain memory request of the guest', () => {
    const { requirements } = launcherRequirements(vmi({ domain: { memory: { guest: '4Gi', hugepages: { pageSize: '1Gi' } }, resources: { requests: { memory: '4Gi' } } } }), KUBEVIRT_DEFAULTS);
    const asked = resources(requirements);
    expect(asked['hugepages-1Gi']).toBe(4 * GiB);
    expect(asked).not.toHaveProperty('memory');
  });

  it('SEV-ES asks for sev and sev-es; SEV-SNP for sev and sev-snp (IsSEVVMI covers SNP); TDX for tdx; each with its device', () => {
    const es = launcherRequirements(vmi({ domain: { launchSecurity: { sev: { policy: { encryptedState: true } } } } }), KUBEVIRT_DEFAULTS).requirements;
    expect(nodeSelector(es)).toMatchObject({ 'kubevirt.io/sev': 'true', 'kubevirt.io/sev-es': 'true' });
    expect(resources(es)['devices.kubevirt.io/sev']).toBe(1);
    const snp = launcherRequirements(vmi({ domain: { launchSecurity: { snp: {} } } }), KUBEVIRT_DEFAULTS).requirements;
    expect(nodeSelector(snp)).toMatchObject({ 'kubevirt.io/sev': 'true', 'kubevirt.io/sev-snp': 'true' });
    expect(nodeSelector(snp)).not.toHaveProperty(['kubevirt.io/sev-es']);
    const tdx = launcherRequirements(vmi({ domain: { launchSecurity: { tdx: {} } } }), KUBEVIRT_DEFAULTS).requirements;
    expect(nodeSelector(tdx)).toMatchObject({ 'kubevirt.io/tdx': 'true' });
    expect(resources(tdx)['devices.kubevirt.io/tdx']).toBe(1);
  });

  it("the cluster's node selectors, then the VMI's (the VMI wins); machine type from status before spec; GPUs counted per device name", () => {
    const config: KubeVirtPlacementConfig = { ...KUBEVIRT_DEFAULTS, found: true, nodeSelectors: { pool: 'vms', zone: 'a' } };
    const input = vmi(
      { nodeSelector: { zone: 'b' }, domain: { machine: { type: 'q35' }, devices: { gpus: [{ name: 'g1', deviceName: 'nvidia.com/A10' }, { name: 'g2', deviceName: 'nvidia.com/A10' }] } } },
      { machine: { type: 'pc-q35-rhel9.6.0' } },
    );
    const { requirements } = launcherRequirements(input, config);
    expect(nodeSelector(requirements)).toMatchObject({ pool: 'vms', zone: 'b', 'machine-type.node.kubevirt.io/pc-q35-rhel9.6.0': 'true' });
    expect(resources(requirements)['nvidia.com/A10']).toBe(2);
  });

  it('invtsc: the TSC frequency KubeVirt chose (status.topologyHints) becomes a selector; before that it is a note', () => {
    const features = [{ name: 'invtsc', policy: 'require' }];
    const running = launcherRequirements(vmi({ domain: { cpu: { model: 'host-passthrough', features } } }, { topologyHints: { tscFrequency: 2_400_000_000 } }), KUBEVIRT_DEFAULTS);
    expect(nodeSelector(running.requirements)).toHaveProperty(['scheduling.node.kubevirt.io/tsc-frequency-2400000000'], 'true');
    const fresh = launcherRequirements(vmi({ domain: { cpu: { model: 'host-passthrough', features } } }), KUBEVIRT_DEFAULTS);
    expect(fresh.notes.some((note) => note.includes('TSC frequency'))).toBe(true);
  });

  it("with its virt-launcher pod made, the pod's own CPU and memory requests (KubeVirt's overhead included) replace the derived ones", () => {
    const launcherRequests = { cpu: 0.2, memory: 2.25 * GiB, 'devices.kubevirt.io/kvm': 1 };
    const { requirements, notes } = launcherRequirements(vmi(domain({ resources: { requests: { memory: '2Gi' } } })), KUBEVIRT_DEFAULTS, { launcherRequests });
    expect(resources(requirements)).toMatchObject({ cpu: 0.2, memory: 2.25 * GiB });
    expect(notes.join('\n')).not.toContain('overhead');
    // Hugepages back the guest; the pod's plain memory request is KubeVirt's overhead, and is judged too.
    const huge = launcherRequirements(vmi({ domain: { memory: { guest: '1Gi', hugepages: { pageSize: '1Gi' } }, resources: { requests: { memory: '1Gi' } } } }), KUBEVIRT_DEFAULTS, { launcherRequests: { memory: 300 * 2 ** 20 } });
    expect(resources(huge.requirements)).toMatchObject({ 'hugepages-1Gi': GiB, memory: 300 * 2 ** 20 });
  });

  it("migration of a host-model VMI: the source's host model as cpu-model-migration and its required features (prepareNodeSelectorForHostCpuModel)", () => {
    const source = {
      'host-model-cpu.node.kubevirt.io/Skylake-Client-IBRS': 'true',
      'host-model-required-features.node.kubevirt.io/ssbd': 'true',
      'host-model-required-features.node.kubevirt.io/md-clear': 'true',
    };
    const { requirements } = launcherRequirements(vmi(domain()), KUBEVIRT_DEFAULTS, { migrationSourceLabels: source });
    expect(nodeSelector(requirements)).toMatchObject({
      'cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS': 'true',
      'cpu-feature.node.kubevirt.io/ssbd': 'true',
      'cpu-feature.node.kubevirt.io/md-clear': 'true',
    });
  });
});

describe('readVmiInput', () => {
  const defaults = { clusterCpuModel: null, defaultArchitecture: 'amd64' };

  it("a VM's template gets KubeVirt's defaults as virt-api would apply them: host-model, the cluster's architecture, sockets from the CPU request", () => {
    const input = readVmiInput(
      { kind: 'VirtualMachine', metadata: { name: 'vm1' }, spec: { template: { spec: { domain: { resources: { requests: { cpu: '1500m', memory: '2Gi' } } } } } } },
      'file vm.yaml',
      defaults,
      { fromServer: false, namespace: 'vms' },
    );
    expect(input).toMatchObject({ kind: 'VirtualMachine', name: 'vm1', namespace: 'vms', architecture: 'amd64', cpu: { model: 'host-model', vcpus: 2 }, requests: { cpu: 1.5, memoryBytes: 2 * GiB } });
  });

  it('says which field is wrong', () => {
    const bad = (spec: unknown) => () => readVmiInput({ kind: 'VirtualMachineInstance', metadata: { name: 'x' }, spec }, 'test', defaults, { fromServer: true });
    expect(bad({ domain: { resources: { requests: { memory: 'lots' } } } })).toThrow('test: spec.domain.resources.requests.memory: "lots" is not a Kubernetes quantity');
    expect(bad({ domain: { cpu: { cores: 'four' } } })).toThrow(/spec: .*cpu.*cores/);
    expect(bad(undefined)).toThrow(/spec: /);
    expect(() => readVmiInput({ kind: 'Pod', metadata: { name: 'x' } }, 'test', defaults, { fromServer: true })).toThrow('neither VirtualMachineInstance nor VirtualMachine');
    expect(() => readVmiInput('text', 'test', defaults, { fromServer: true })).toThrow('not an object');
  });
});
