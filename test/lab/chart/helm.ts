/** Runs the real helm (built with the control plane) against the chart, and reads what it renders. */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';

const run = promisify(execFile);

export const CHART_DIR = path.join(PACKAGE_ROOT, 'charts/virtgate');
export const ALL_ON_VALUES = path.join(PACKAGE_ROOT, 'test/lab/chart/values-all-on.yaml');

export interface HelmOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Helm's own cache, config and data stay in one temp dir of ours (reused by every run), never the user's. */
const HELM_HOME = path.join(tmpdir(), 'virtgate-helm-home');
mkdirSync(HELM_HOME, { recursive: true });

export async function helm(binDir: string, args: string[], kubeconfig?: string): Promise<HelmOutcome> {
  try {
    const { stdout, stderr } = await run(path.join(binDir, 'helm'), [...args, ...(kubeconfig ? ['--kubeconfig', kubeconfig] : [])], {
      env: { ...process.env, HELM_CACHE_HOME: HELM_HOME, HELM_CONFIG_HOME: HELM_HOME, HELM_DATA_HOME: HELM_HOME, KUBECONFIG: kubeconfig ?? '/dev/null' },
      maxBuffer: 32 * 1024 * 1024,
      timeout: 300_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'number') {
      const failed = error as { code: number; stdout?: string; stderr?: string };
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
    throw error;
  }
}

/**
 * Helm's stderr without client-go's own info lines (klog's `I` prefix). client-go logs at info
 * when a watch it opened ends, e.g. "watch ended with error … context canceled" as helm stops
 * waiting for a hook; that is not helm complaining. Warnings, errors and helm's own text stay.
 */
export function helmComplaints(stderr: string): string {
  const klogInfo = /^I\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [\w.-]+:\d+\] /;
  return stderr
    .split('\n')
    .filter((line) => !klogInfo.test(line))
    .join('\n')
    .trim();
}

/** Like helm(), but a non-zero exit throws with helm's stderr. */
export async function helmOk(binDir: string, args: string[], kubeconfig?: string): Promise<string> {
  const outcome = await helm(binDir, args, kubeconfig);
  if (outcome.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${outcome.code}:\n${outcome.stderr}`);
  return outcome.stdout;
}

/** A rendered object; findManifest() hands it out as the client-node type of its kind. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`helm rendered invalid YAML: ${document.errors[0]?.message}`);
      return document.toJS() as Manifest | null;
    })
    .filter((object): object is Manifest => object !== null && typeof object === 'object');
}

export async function renderChart(binDir: string, args: string[] = []): Promise<Manifest[]> {
  return parseManifests(await helmOk(binDir, ['template', 'virtgate', CHART_DIR, '--namespace', 'virtgate', ...args]));
}

/** The rendered object of `kind` (and `name`), typed as the caller says, e.g. findManifest<V1DaemonSet>(...). */
export function findManifest<T = Manifest>(objects: Manifest[], kind: string, name?: string): T {
  const found = objects.find((object) => object.kind === kind && (name === undefined || object.metadata.name === name));
  if (!found) throw new Error(`no ${kind}${name ? ` ${name}` : ''} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found as T;
}

/**
 * The installed DaemonSet's own arguments, with what only a real pod has swapped for this test:
 * the host root (a fixture tree instead of the /host mounts) and the port (any free one).
 */
export function agentArgsFromDaemonSet(daemonSetArgs: string[] | undefined, hostArgs: string[]): string[] {
  const [command, ...rest] = daemonSetArgs ?? [];
  if (command !== 'agent') throw new Error(`the DaemonSet does not run "virtgate agent": ${JSON.stringify(daemonSetArgs)}`);
  return [...rest.filter((arg) => !arg.startsWith('--host-root=') && !arg.startsWith('--port=')), ...hostArgs];
}
