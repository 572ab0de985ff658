import { describe, expect, it } from 'vitest';
import { locateBinaries } from '../lab/controlplane/binaries.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const tempDir = useTempDirs();

describe('a machine without the built control plane', () => {
  it('fails (never skips) with the command that builds it', async () => {
    const emptyCache = await tempDir('virtgate-empty-cache-');
    const failure = locateBinaries({ ...process.env, VIRTGATE_CACHE: emptyCache });
    await expect(failure).rejects.toThrow(/not built.*\n[\s\S]*bash test\/lab\/controlplane\/build\.sh/);
    await expect(failure).rejects.toThrow(/missing control-plane binaries: etcd kube-apiserver kube-scheduler kube-controller-manager kubelet kube-proxy kubectl helm/);
  });
});
