/**
 * Publishing a release's images: each OCI archive `npm run release` wrote is pushed to the
 * registry under the release's tag (buildah), and the digest the registry stored is signed, with
 * the image's SBOM attached as an in-toto attestation (predicate type spdxjson), by cosign with the
 * key the release is given. Users verify with the release's public key (docs/release.md, Verifying
 * the images).
 *
 * Signed by digest, the one buildah's push reports, never by tag: what is signed is exactly what
 * was pushed. Key-based and offline: nothing goes to a transparency log (Rekor) or a signing
 * service (`--tlog-upload=false --use-signing-config=false`; cosign v3 calls the first flag
 * deprecated in favour of a signing config, but with one it fetches Sigstore's TUF root over the
 * network), so users verify with `--insecure-ignore-tlog` and the public key.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { CANARY_DISK_IMAGE, ROLES } from './images.ts';

/** The release's images by name: `<name>-<version>.oci.tar` and `<name>-<version>.spdx.json` in the release directory. */
export function releaseImageNames(): string[] {
  return [...ROLES.map((role) => `virtgate-${role}`), CANARY_DISK_IMAGE];
}

export interface PublishOptions {
  /** The cosign binary. */
  cosign: string;
  /** cosign's private key file (an encrypted key reads its password from COSIGN_PASSWORD). */
  key: string;
  version: string;
  /** Registry and path to push under, e.g. ghcr.io/virtgate: images become <prefix>/<name>:<version>. */
  imagePrefix: string;
  /** The release's directory: archives and SBOMs are read from it, `cosign.pub` is written to it. */
  releaseDir: string;
  /** A registry on plain HTTP (a local one in tests). */
  allowHttpRegistry?: boolean;
  /** Progress, one line a step. */
  log?: (line: string) => void;
}

export interface PublishedImage {
  /** <prefix>/<name>@sha256:…: the digest pushed, signed and attested. */
  reference: string;
}

async function run(command: string, args: string[]): Promise<string> {
  const result = await execa(command, args, { reject: false, stdin: 'ignore' });
  if (result.exitCode !== 0) throw new Error(`${path.basename(command)} ${args[0]} failed (exit ${result.exitCode}): ${result.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return result.stdout.trim();
}

/** Pushes one archive as `tagged`; returns the digest the registry stored. */
async function push(archive: string, tagged: string, options: PublishOptions): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'virtgate-publish-'));
  const image = await run('buildah', ['pull', '--quiet', `oci-archive:${archive}`]);
  try {
    const digestFile = path.join(scratch, 'digest');
    await run('buildah', ['push', '--quiet', `--tls-verify=${!options.allowHttpRegistry}`, '--digestfile', digestFile, image, `docker://${tagged}`]);
    const digest = (await readFile(digestFile, 'utf8')).trim();
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`buildah push wrote no digest for ${tagged}: ${JSON.stringify(digest)}`);
    return digest;
  } finally {
    await run('buildah', ['rmi', image]).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Pushes, signs and attests every release image; writes the public key as `cosign.pub`. */
export async function publishRelease(options: PublishOptions): Promise<PublishedImage[]> {
  const log = options.log ?? (() => undefined);
  const cosignFlags = ['--yes', '--key', options.key, '--tlog-upload=false', '--use-signing-config=false', ...(options.allowHttpRegistry ? ['--allow-http-registry'] : [])];
  const published: PublishedImage[] = [];
  for (const name of releaseImageNames()) {
    const repository = `${options.imagePrefix}/${name}`;
    const digest = await push(path.join(options.releaseDir, `${name}-${options.version}.oci.tar`), `${repository}:${options.version}`, options);
    const reference = `${repository}@${digest}`;
    log(`pushed ${repository}:${options.version} as ${digest}`);
    await run(options.cosign, ['sign', ...cosignFlags, reference]);
    await run(options.cosign, ['attest', ...cosignFlags, '--type', 'spdxjson', '--predicate', path.join(options.releaseDir, `${name}-${options.version}.spdx.json`), reference]);
    log(`signed ${reference} and attached its SBOM`);
    published.push({ reference });
  }
  await writeFile(path.join(options.releaseDir, 'cosign.pub'), `${await run(options.cosign, ['public-key', '--key', options.key])}\n`);
  return published;
}
