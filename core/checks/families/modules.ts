import type { CpuFamilyFacts } from './cpu.ts';
import type { DeviceFacts, DevicesFamilyFacts } from './devices.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { readHostDir, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CpuFacts } from '../host/parse/cpuinfo.ts';
import { parseProcModules } from '../host/parse/proc-modules.ts';
import { classifyPlatform, describePlatform } from '../host/platform-class.ts';
import type { PlatformFamilyFacts } from './platform.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import { lacksHardwareVirtualization, vendorKvmModule } from '../host/virtualization-remedy.ts';

/** The KVM-related kernel modules, and the kvm module's `nested` parameter. */
const IDS = ['kernel.modules', 'kvm.nested'] as const;
type ModulesCheckId = (typeof IDS)[number];

export interface ModuleFacts {
  /** Where the list came from; `sys/module` also lists built-in modules that have parameters. */
  sources: string[];
  /** The modules of interest that were found loaded or built in. */
  loaded: string[];
}

export interface NestedFacts {
  /** Raw value of sys/module/kvm_{intel,amd}/parameters/nested, when present. */
  kvmIntel: string | null;
  kvmAmd: string | null;
}

export interface ModulesFamilyFacts {
  modules: Observation<ModuleFacts>;
  nested: NestedFacts;
}

/** Kernel modules that matter to KubeVirt. */
const RELEVANT_MODULES = ['kvm', 'kvm_intel', 'kvm_amd', 'vhost_net', 'tun'] as const;

/**
 * Loaded modules from proc/modules, plus sys/module, which also shows built-in modules
 * that have parameters. A built-in module without parameters appears in neither.
 */
async function probeLoadedModules(hostRoot: string): Promise<Observation<ModuleFacts>> {
  const [procModules, sysModule] = await Promise.all([
    readHostFile(hostRoot, 'proc/modules'),
    readHostDir(hostRoot, 'sys/module'),
  ]);
  const sources: string[] = [];
  const found = new Set<string>();
  if (procModules.state === 'ok') {
    sources.push('proc/modules');
    for (const name of parseProcModules(procModules.text)) found.add(name);
  }
  if (sysModule.state === 'ok') {
    sources.push('sys/module');
    for (const name of sysModule.entries) found.add(name);
  }
  if (sources.length === 0) {
    return { state: 'unknown', reason: 'neither proc/modules nor sys/module could be read' };
  }
  return { state: 'ok', value: { sources, loaded: RELEVANT_MODULES.filter((m) => found.has(m)) } };
}

async function readNestedParameter(hostRoot: string, module: string): Promise<string | null> {
  const read = await readHostFile(hostRoot, `sys/module/${module}/parameters/nested`, 64);
  return read.state === 'ok' ? read.text.trim().slice(0, 8) : null;
}

async function probeNested(hostRoot: string): Promise<NestedFacts> {
  const [kvmIntel, kvmAmd] = await Promise.all([
    readNestedParameter(hostRoot, 'kvm_intel'),
    readNestedParameter(hostRoot, 'kvm_amd'),
  ]);
  return { kvmIntel, kvmAmd };
}

const opens = (device: DeviceFacts): boolean => device.state === 'present' && device.open === 'ok';

/**
 * Modules are only a hint: a built-in module without parameters is invisible in both
 * proc/modules and sys/module, so a device that opens counts as proof its driver is there.
 */
function evaluateModules(
  modules: Observation<ModuleFacts>,
  cpu: Observation<CpuFacts>,
  devices: DevicesFamilyFacts,
): CheckOutcomeOf<ModulesCheckId> {
  const id = 'kernel.modules';
  if (modules.state === 'unknown') return { id, status: 'error', message: modules.reason };
  const loaded = new Set(modules.value.loaded);
  // The vendor module follows the CPU's flag, not its vendor: kvm_amd on a CPU without svm cannot load.
  // Without vmx/svm no KVM module can help, so none is asked for: cpu.virtualization says why.
  const vendorModule = vendorKvmModule(cpu);
  const kvmWanted = !lacksHardwareVirtualization(cpu);
  const wanted: Array<[string, boolean]> = [
    ...(kvmWanted ? ([['kvm', opens(devices.kvm)]] as Array<[string, boolean]>) : []),
    ...(vendorModule ? ([[vendorModule, opens(devices.kvm)]] as Array<[string, boolean]>) : []),
    ['tun', opens(devices.tun)],
    ['vhost_net', opens(devices.vhostNet)],
  ];
  const missing = wanted.filter(([name, deviceWorks]) => !loaded.has(name) && !deviceWorks).map(([name]) => name);
  const observed = { sources: modules.value.sources, loaded: modules.value.loaded, missing };
  if (missing.length === 0) return { id, status: 'pass', message: `${wanted.map(([name]) => name).join(', ')} are present`, observed };
  return {
    id,
    status: 'warn',
    message: `not found loaded: ${missing.join(', ')} (a module built into the kernel may not show)`,
    hint: `modprobe ${missing.join(' ')}, and list them in /etc/modules-load.d/ so they load at boot.`,
    observed,
  };
}

/** Whether VMs here would be nested: the platform decides (on arm64 the CPU flag cannot). */
function evaluateNested(facts: CpuFamilyFacts & PlatformFamilyFacts, nested: NestedFacts): CheckOutcomeOf<ModulesCheckId> {
  const id = 'kvm.nested';
  const platform = classifyPlatform(facts.platform, facts.cpu);
  const parameter = nested.kvmIntel ?? nested.kvmAmd;
  const nestedOn = parameter !== null && /^(Y|y|1)$/.test(parameter);
  const hypervisor = facts.cpu.state === 'ok' ? facts.cpu.value.hypervisor : null;
  const observed = { hypervisor, platform: platform.kind, nestedParameter: parameter };
  if (platform.kind === 'virtual-machine') {
    return {
      id,
      status: 'warn',
      // Without VT-x/AMD-V passed through, VMs here are not nested but emulated: say which.
      message: lacksHardwareVirtualization(facts.cpu)
        ? `this host is itself ${describePlatform(platform)}: VMs here could only be emulated (its hypervisor passes no VT-x/AMD-V), fit for tests only`
        : `this host is itself ${describePlatform(platform)}: VMs here are nested, fit for tests only`,
      hint: 'Use bare-metal nodes for production VMs.',
      observed,
    };
  }
  if (platform.kind === 'unknown') {
    // "Cannot tell" is what error means; platform reports the same gap, so this follows from it.
    if (facts.cpu.state === 'unknown') return { id, status: 'error', message: facts.cpu.reason, observed, followsFrom: 'platform' };
    return { id, status: 'error', message: `cannot tell whether VMs here are nested (${platform.evidence})`, observed, followsFrom: 'platform' };
  }
  if (nestedOn) return { id, status: 'pass', message: 'bare metal; nested virtualization is enabled for guests', observed };
  return { id, status: 'pass', message: 'bare metal', observed };
}

async function probeModules({ hostRoot }: ProbeContext): Promise<ModulesFamilyFacts> {
  const [modules, nested] = await Promise.all([probeLoadedModules(hostRoot), probeNested(hostRoot)]);
  return { modules, nested };
}

export const modulesFamily = {
  ids: IDS,
  probe: probeModules,
  // Modules are judged against the CPU vendor and the devices; nesting against the platform.
  evaluate: (facts: ModulesFamilyFacts & CpuFamilyFacts & DevicesFamilyFacts & PlatformFamilyFacts) => [
    evaluateModules(facts.modules, facts.cpu, facts),
    evaluateNested(facts, facts.nested),
  ],
  example: { modules: { state: 'ok', value: { sources: ['proc/modules', 'sys/module'], loaded: ['kvm', 'kvm_intel', 'vhost_net', 'tun'] } }, nested: { kvmIntel: 'N', kvmAmd: null } } satisfies ModulesFamilyFacts,
} satisfies CheckFamily;
