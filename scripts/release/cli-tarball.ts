/**
 * The CLI as one file: `npm pack` of the built package with its production dependencies bundled
 * (bundleDependencies), so `npm install -g ./virtgate-X.Y.Z.tgz` needs no registry, and a `bin`
 * that runs with Node.js 24.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { jsonText, stampLock, stampManifest } from './version-stamp.ts';

/** What the tarball holds besides package.json, as the package's `files` says (README and LICENSE npm adds itself). */
const SHIPPED = ['dist', 'data', 'README.md', 'LICENSE'];

export async function packCli(repo: string, version: string, outDir: string): Promise<string> {
  const stage = await mkdtemp(path.join(tmpdir(), 'virtgate-release-cli-'));
  try {
    const manifest = stampManifest(await readFile(path.join(repo, 'package.json'), 'utf8'), version);
    // The scripts build and test a checkout; an installed package runs none of them.
    delete manifest.scripts;
    await writeFile(path.join(stage, 'package.json'), jsonText({ ...manifest, bundleDependencies: true }));
    await writeFile(path.join(stage, 'package-lock.json'), jsonText(stampLock(await readFile(path.join(repo, 'package-lock.json'), 'utf8'), version)));
    for (const entry of SHIPPED) await cp(path.join(repo, entry), path.join(stage, entry), { recursive: true });
    // Exactly the lock's production dependencies, from npm's cache when it has them.
    await execa('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--no-update-notifier', '--loglevel=error'], { cwd: stage, stderr: 'inherit' });
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', outDir], { cwd: stage });
    const [result] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    if (!result) throw new Error(`npm pack printed no file: ${packed.stdout}`);
    return path.join(outDir, result.filename);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
