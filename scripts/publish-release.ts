/**
 * `npm run release:publish -- --version X.Y.Z --dir DIR --key cosign.key`: pushes the release's
 * three images from their OCI archives in DIR to --image-prefix, signs each pushed digest with
 * cosign and attaches its SBOM as an attestation, and writes the public key to DIR/cosign.pub
 * (docs/release.md, Publishing the images). Prints each image@digest it published.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { execa } from 'execa';
import { locateCosign } from '../test/lab/controlplane/binaries.ts';
import { exactVersion } from './release/cli-args.ts';
import { publishRelease, releaseImageNames } from './release/publish.ts';

interface Options {
  version: string;
  dir: string;
  key: string;
  imagePrefix: string;
  cosign?: string;
  allowHttpRegistry: boolean;
}

function existingPath(value: string): string {
  if (!existsSync(value)) throw new InvalidArgumentError(`${value} does not exist`);
  return value;
}

/** --cosign, else `cosign` on PATH, else the one built with the test control plane. */
async function findCosign(explicit: string | undefined): Promise<string> {
  if (explicit) return explicit;
  if ((await execa('cosign', ['version'], { reject: false })).exitCode === 0) return 'cosign';
  const built = await locateCosign().catch(() => undefined);
  if (built) return built;
  throw new Error('no cosign: install cosign v3 (https://docs.sigstore.dev/cosign/system_config/installation/), pass --cosign PATH, or build the test control plane (bash test/lab/controlplane/build.sh)');
}

const program = new Command('release:publish')
  .description('Push the release images from their OCI archives, sign each pushed digest with cosign, attach each SBOM as an attestation, and write the public key to <dir>/cosign.pub')
  .addOption(new Option('--version <X.Y.Z>', 'the release version (the images\' tag)').argParser(exactVersion).makeOptionMandatory())
  .addOption(new Option('--dir <dir>', 'the release directory `npm run release --out` wrote').argParser(existingPath).makeOptionMandatory())
  .addOption(new Option('--key <file>', 'cosign\'s private key (an encrypted key reads its password from COSIGN_PASSWORD)').argParser(existingPath).makeOptionMandatory())
  .addOption(new Option('--image-prefix <registry/path>', 'registry and path to push under').default('ghcr.io/virtgate'))
  .option('--cosign <path>', 'the cosign binary (default: cosign on PATH, else the one built with the test control plane)')
  .option('--allow-http-registry', 'the registry speaks plain HTTP (a local one)', false)
  .exitOverride()
  .configureOutput({ outputError: (message, write) => write(`release:publish: ${message.replace(/^error: /, '')}`) });

try {
  program.parse();
  const options = program.opts<Options>();
  const missing = releaseImageNames().flatMap((name) => [`${name}-${options.version}.oci.tar`, `${name}-${options.version}.spdx.json`]).filter((file) => !existsSync(path.join(options.dir, file)));
  if (missing.length > 0) {
    process.stderr.write(`release:publish: ${options.dir} is not the release directory of ${options.version}: missing ${missing.join(', ')} (make it with npm run release -- --version ${options.version} --out ${options.dir})\n`);
    process.exit(2);
  }
  const published = await publishRelease({
    cosign: await findCosign(options.cosign),
    key: options.key,
    version: options.version,
    imagePrefix: options.imagePrefix,
    releaseDir: options.dir,
    allowHttpRegistry: options.allowHttpRegistry,
    log: (line) => process.stderr.write(`release:publish: ${line}\n`),
  });
  for (const image of published) process.stdout.write(`${image.reference}\n`);
  process.stderr.write(`release:publish: public key in ${path.join(options.dir, 'cosign.pub')}\n`);
} catch (error) {
  if (!(error instanceof CommanderError)) process.stderr.write(`release:publish: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CommanderError && error.exitCode === 0 ? 0 : error instanceof CommanderError ? 2 : 1;
}
