import type { ModuleFacts, NestedFacts, Observation } from '../facts.ts';
import { readHostDir, readHostFile } from '../files.ts';
import { parseProcModules } from '../parse/proc-modules.ts';

/** Kernel modules that matter to KubeVirt. */
export const RELEVANT_MODULES = ['kvm', 'kvm_intel', 'kvm_amd', 'vhost_net', 'tun'] as const;

/**
 * Loaded modules from proc/modules, plus sys/module, which also shows built-in modules
 * that have parameters. A built-in module without parameters appears in neither.
 */
export async function probeModules(hostRoot: string): Promise<Observation<ModuleFacts>> {
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

export async function probeNested(hostRoot: string): Promise<NestedFacts> {
  const [kvmIntel, kvmAmd] = await Promise.all([
    readNestedParameter(hostRoot, 'kvm_intel'),
    readNestedParameter(hostRoot, 'kvm_amd'),
  ]);
  return { kvmIntel, kvmAmd };
}
