/**
 * `npm run release -- --version X.Y.Z --out DIR`: everything a user installs, from one version
 * number (docs/release.md):
 *   virtgate-X.Y.Z.tgz                       the CLI (npm install -g, no registry needed)
 *   krew/virtgate.yaml                       the krew plugin manifest of that tarball (kubectl virtgate)
 *   chart/virtgate-X.Y.Z.tgz                 the Helm chart (helm push to an OCI registry)
 *   virtgate-agent-X.Y.Z.oci.tar             the agent image, OCI archive (+ .spdx.json SBOM)
 *   virtgate-aggregator-X.Y.Z.oci.tar        the aggregator image, OCI archive (+ .spdx.json SBOM)
 *   canary-disk-X.Y.Z.oci.tar                the VM canary's containerDisk, OCI archive (+ .spdx.json SBOM)
 *   SHA256SUMS
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { packageChart } from './release/chart.ts';
import { exactVersion } from './release/cli-args.ts';
import { packCli } from './release/cli-tarball.ts';
import { releaseImages } from './release/images.ts';
import { findHelm } from './release/helm.ts';
import { writeKrewManifest } from './release/krew-manifest.ts';
import { sha256File } from './release/sha256.ts';

const SOURCE = 'https://github.com/virtgate/virtgate';

interface Options {
  version: string;
  out: string;
  helm?: string;
  imagePrefix: string;
  downloadUrl?: string;
}

function httpUrl(value: string): string {
  // krew downloads `uri` over HTTP(S); anything else would make a manifest no krew can install from.
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new InvalidArgumentError('an http:// or https:// URL');
  return value;
}

async function release(options: Options): Promise<void> {
  const repo = PACKAGE_ROOT;
  const version = options.version;
  const outDir = path.resolve(options.out);
  await mkdir(outDir, { recursive: true });
  const helm = await findHelm(options.helm);
  const git = async (...args: string[]): Promise<string> => (await execa('git', ['-C', repo, ...args])).stdout.trim();
  const revision = await git('rev-parse', 'HEAD');
  if ((await git('status', '--porcelain')) !== '') process.stderr.write(`release: the worktree has uncommitted changes; they are in this release, and the revision label (${revision}) does not show them\n`);
  // The commit's date, not now: the SBOMs and labels of one commit are the same on every run.
  const created = new Date(await git('log', '-1', '--format=%cI'));
  const license = (JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { license: string }).license;

  const step = (text: string) => process.stderr.write(`release: ${text}\n`);
  step('building dist/ (npm run build)');
  await execa('npm', ['run', '--silent', 'build'], { cwd: repo, stderr: 'inherit' });
  step('the CLI tarball');
  const cli = await packCli(repo, version, outDir);
  step('the krew plugin manifest of the CLI tarball');
  const krew = await writeKrewManifest({ repo, version, archive: cli, downloadUrl: options.downloadUrl ?? `${SOURCE}/releases/download/v${version}`, homepage: SOURCE }, outDir);
  step('the chart');
  const chart = await packageChart(helm, repo, version, outDir);
  step('the images (scripts/images.sh, then the release layer, labels and SBOM)');
  const images = await releaseImages(repo, { version, revision, source: SOURCE, license, created, repositoryPrefix: options.imagePrefix }, outDir);

  const files = [cli, krew, chart, ...images.flatMap((image) => [image.archive, image.sbom])];
  const sums = await Promise.all(files.map(async (file) => `${await sha256File(file)}  ${path.relative(outDir, file)}`));
  await writeFile(path.join(outDir, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  for (const file of [...files, path.join(outDir, 'SHA256SUMS')]) process.stdout.write(`${path.relative(outDir, file)}\n`);
  for (const image of images) step(`${image.reference}: SBOM lists ${image.packages.deb} Debian and ${image.packages.npm} npm packages`);
}

const program = new Command('release')
  .description('Build a virtgate release: the CLI tarball and its krew manifest, the Helm chart and the three images (agent, aggregator, canary disk) as OCI archives with SBOMs')
  .addOption(new Option('--version <X.Y.Z>', 'the release version (semver, no "v")').argParser(exactVersion).makeOptionMandatory())
  .requiredOption('--out <dir>', 'where to write the release files (created if missing)')
  .option('--helm <path>', 'the helm binary (default: helm on PATH, else the one built with the test control plane)')
  .addOption(new Option('--image-prefix <registry/path>', 'registry and path the images are named for').default('ghcr.io/virtgate'))
  .addOption(new Option('--download-url <url>', `where the release's files will be downloaded from, for the krew manifest's uri (default: ${SOURCE}/releases/download/vX.Y.Z)`).argParser(httpUrl))
  .exitOverride()
  .configureOutput({ outputError: (message, write) => write(`release: ${message.replace(/^error: /, '')}`) });

try {
  program.parse();
  await release(program.opts<Options>());
} catch (error) {
  if (!(error instanceof CommanderError)) process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CommanderError && error.exitCode === 0 ? 0 : error instanceof CommanderError ? 2 : 1;
}
