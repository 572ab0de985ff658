import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { type BuiltImage, builtImage } from '../node/images.ts';

/** The release a rolling upgrade starts from (previous-release.sh): an earlier commit's chart and images. */
export interface PreviousRelease {
  commit: string;
  chartDir: string;
  images: { agent: BuiltImage; aggregator: BuiltImage };
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'previous-release.sh');

/** Builds (or finds) the previous release with previous-release.sh and reads where it is. */
export async function previousRelease(): Promise<PreviousRelease> {
  const result = await execa('bash', [SCRIPT], { stderr: 'inherit', timeout: 30 * 60_000, reject: false });
  if (result.exitCode !== 0) throw new Error(`test/lab/cluster/previous-release.sh failed (exit ${result.exitCode}); its output is above`);
  const found: Partial<Record<string, string[]>> = {};
  for (const line of result.stdout.trim().split('\n')) {
    const [key, ...rest] = line.split(' ');
    if (key) found[key] = rest;
  }
  const [chartDir] = found.chart ?? [];
  const [commit] = found.commit ?? [];
  const [agentRef, agentArchive] = found.agent ?? [];
  const [aggregatorRef, aggregatorArchive] = found.aggregator ?? [];
  if (!chartDir || !commit || !agentRef || !agentArchive || !aggregatorRef || !aggregatorArchive) {
    throw new Error(`previous-release.sh printed no chart or images:\n${result.stdout}`);
  }
  return { commit, chartDir, images: { agent: builtImage(agentRef, agentArchive), aggregator: builtImage(aggregatorRef, aggregatorArchive) } };
}
