/**
 * The chart as `helm package` makes it: charts/virtgate with the release's version as both its
 * version and appVersion (so the images' tag defaults to it). It goes in a `chart/` folder: its
 * file name, virtgate-X.Y.Z.tgz, is the CLI tarball's too.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export async function packageChart(helm: string, repo: string, version: string, outDir: string): Promise<string> {
  const destination = path.join(outDir, 'chart');
  await mkdir(destination, { recursive: true });
  // helm's cache and config in a temp dir: packaging needs none of the user's repositories.
  const home = await mkdtemp(path.join(tmpdir(), 'virtgate-release-helm-'));
  try {
    await execa(helm, ['package', path.join(repo, 'charts/virtgate'), '--version', version, '--app-version', version, '--destination', destination], {
      env: { HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home },
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  return path.join(destination, `virtgate-${version}.tgz`);
}
