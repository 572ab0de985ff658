/**
 * KubeVirt installed on the real node the way its release notes tell users to: the operator's
 * manifest (`kubectl create -f kubevirt-operator.yaml`), then a `KubeVirt` CR. The manifest is
 * rendered by KubeVirt's own manifest-templator from its release template, with the images
 * built here (localhost/kubevirt/<name>:v1.9.0, imported into containerd, never pulled).
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { KUBEVIRT_VERSION } from './binaries.ts';

export const KUBEVIRT_NAMESPACE = 'vgnode-kubevirt';
export const KUBEVIRT_IMAGE_REGISTRY = 'localhost/kubevirt';

/** The operator's manifest for `namespace`, as KubeVirt's release step renders it. */
export async function renderOperatorManifest(binDir: string, manifestsDir: string, namespace: string): Promise<string> {
  const rendered = await execa(path.join(binDir, 'manifest-templator'), [
    '--process-vars',
    `--input-file=${path.join(manifestsDir, 'kubevirt-operator.yaml.in')}`,
    `--namespace=${namespace}`,
    `--container-prefix=${KUBEVIRT_IMAGE_REGISTRY}`,
    `--container-tag=${KUBEVIRT_VERSION}`,
    '--image-pull-policy=IfNotPresent',
    '--verbosity=2',
    `--csv-version=${KUBEVIRT_VERSION.slice(1)}`,
    // Read even when no OLM bundle is written (build.sh copies it beside the template).
    `--kubevirt-logo-path=${path.join(manifestsDir, 'kubevirt_logo.png')}`,
  ], { timeout: 60_000 });
  return rendered.stdout;
}

export interface KubeVirtSpecOptions {
  useEmulation: boolean;
  /** `spec.workloads.nodePlacement.nodeSelector`: where virt-handler, and so VMs, may run. */
  workloadsNodeSelector?: Record<string, string>;
}

/** The `KubeVirt` CR a platform team writes when it points KubeVirt at virtgate's labels. */
export function kubevirtCr(options: KubeVirtSpecOptions): Record<string, unknown> {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: KUBEVIRT_NAMESPACE },
    spec: {
      imagePullPolicy: 'IfNotPresent',
      imageRegistry: KUBEVIRT_IMAGE_REGISTRY,
      imageTag: KUBEVIRT_VERSION,
      // One replica of virt-api and virt-controller: a single node, two shared cores.
      infra: { replicas: 1 },
      configuration: {
        developerConfiguration: {
          useEmulation: options.useEmulation,
          // KubeVirt 1.9 mounts containerDisks as Kubernetes image volumes (ImageVolume, Beta, on by
          // default), which need containerd 2.1+; Debian's containerd is 1.6, so KubeVirt's older
          // init-container path serves them (observed: "spec.volumes[6].image.reference: Required value").
          disabledFeatureGates: ['ImageVolume'],
        },
        // The Template feature (Beta, on by default) deploys virt-template-apiserver and
        // -controller from a separate project whose images are not built here.
        virtTemplateDeployment: { enabled: false },
      },
      ...(options.workloadsNodeSelector ? { workloads: { nodePlacement: { nodeSelector: options.workloadsNodeSelector } } } : {}),
    },
  };
}

/** The real kubectl (built with the control plane) with the admin kubeconfig. */
export function kubectl(binDir: string, kubeconfig: string) {
  return async (args: string[], input?: string): Promise<string> => {
    const result = await execa(path.join(binDir, 'kubectl'), args, {
      env: { KUBECONFIG: kubeconfig, HOME: os.tmpdir() },
      input,
      reject: false,
      timeout: 300_000,
    });
    if (result.exitCode !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.exitCode}:\n${result.stderr}`);
    return result.stdout;
  };
}

/** Creates a multi-document YAML text with `kubectl create -f` (as users do with the release file); returns the file. */
export async function createFromText(run: ReturnType<typeof kubectl>, text: string): Promise<string> {
  const file = path.join(os.tmpdir(), `virtgate-kubevirt-${process.pid}.yaml`);
  await writeFile(file, text);
  await run(['create', '-f', file]);
  return file;
}
