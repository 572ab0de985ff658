import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The kernel settings a kubelet sets on start (protectKernelDefaults: false); machine-wide, not per namespace. */
const KUBELET_SYSCTLS = ['vm.overcommit_memory', 'vm.panic_on_oom', 'kernel.panic', 'kernel.panic_on_oops', 'kernel.keys.root_maxkeys', 'kernel.keys.root_maxbytes'];

/**
 * Writes today's values of the kubelet's settings to `file`, which a cleanup script restores.
 * Only the first run's values: a killed run's leftovers must not become the "original".
 */
export async function backupKubeletSysctls(file: string): Promise<void> {
  if (existsSync(file)) return;
  const lines: string[] = [];
  for (const key of KUBELET_SYSCTLS) {
    const value = await readFile(path.join('/proc/sys', ...key.split('.')), 'utf8').catch(() => undefined);
    if (value !== undefined) lines.push(`${key} ${value.trim()}`);
  }
  await writeFile(file, `${lines.join('\n')}\n`);
}
