/** A copy of a kubeconfig whose cluster points at another address (a proxy), same CA and user. */
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

interface KubeconfigFile {
  clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
  [key: string]: unknown;
}

export async function kubeconfigVia(source: string, server: string, target: string): Promise<string> {
  const config = parse(await readFile(source, 'utf8')) as KubeconfigFile;
  for (const entry of config.clusters) entry.cluster.server = server;
  await writeFile(target, stringify(config), { mode: 0o600 });
  return target;
}
