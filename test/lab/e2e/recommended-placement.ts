/**
 * The KubeVirt `spec.workloads.nodePlacement` the chart tells users to apply, read from the NOTES
 * that `helm install` prints, so that the tests and the demo apply exactly what users are told to
 * apply instead of a second copy of it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';
import { type NodePlacement, nodePlacementSchema } from './node-placement.ts';

const CHART_DIR = path.join(PACKAGE_ROOT, 'charts/virtgate');

const snippetSchema = z.object({ spec: z.object({ workloads: z.object({ nodePlacement: nodePlacementSchema }) }) });

/**
 * Renders the chart's NOTES with a client-side dry run (nothing reaches a cluster) and returns the
 * placement snippet in them. `values` are `--set` arguments, e.g. `prefix=nodes.example.com`.
 */
export async function recommendedPlacement(helmBinary: string, values: string[] = []): Promise<NodePlacement> {
  // Helm's cache, config and data go to a private temp dir, never the user's.
  const home = await mkdtemp(path.join(os.tmpdir(), 'virtgate-helm-notes-'));
  try {
    const { stdout } = await execa(
      helmBinary,
      ['install', 'virtgate', CHART_DIR, '--namespace', 'virtgate', '--dry-run=client', ...values.flatMap((value) => ['--set', value])],
      { env: { HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home, KUBECONFIG: '/dev/null' } },
    );
    return placementFromNotes(stdout);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The first indented `spec:` block after `NOTES:`, parsed as a KubeVirt CR fragment. */
export function placementFromNotes(output: string): NodePlacement {
  const start = output.indexOf('NOTES:');
  if (start < 0) throw new Error('helm printed no NOTES');
  const block = /^( +)spec:\n(?:\1 +\S.*\n)+/m.exec(output.slice(start));
  if (!block) throw new Error(`the chart's NOTES hold no KubeVirt "spec:" snippet:\n${output.slice(start)}`);
  const indent = block[1]?.length ?? 0;
  const text = block[0]
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
  return snippetSchema.parse(parse(text)).spec.workloads.nodePlacement;
}
