import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiextensionsV1Api, type KubeConfig, loadYaml, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';
import { CRD_FILE, crdYamlOfTemplate } from '../../../scripts/crd.ts';
import { waitFor } from './wait.ts';

/** The chart's CRD template; installCrd applies the plain YAML inside its `crds.install` gate. */
export const NODE_VALIDATION_CRD = path.join(PACKAGE_ROOT, CRD_FILE);
/** The NodeValidation CRD the chart shipped in crds/ before it had the status subresource (see test/fixtures/crds/README.md). */
export const PREVIOUS_NODE_VALIDATION_CRD = path.join(PACKAGE_ROOT, 'test/fixtures/crds/nodevalidations.virtgate.io.previous.yaml');

/** Creates a CRD from a YAML file, or the chart's CRD template (if absent), and waits until the API server serves it. */
export async function installCrd(kc: KubeConfig, file: string = NODE_VALIDATION_CRD): Promise<void> {
  // loadYaml maps YAML keys onto client-node's model (x-kubernetes-preserve-unknown-fields becomes
  // xKubernetesPreserveUnknownFields); a plain YAML parse would have those keys silently dropped.
  const crd = loadYaml<V1CustomResourceDefinition>(crdYamlOfTemplate(await readFile(file, 'utf8')));
  const api = kc.makeApiClient(ApiextensionsV1Api);
  try {
    await api.createCustomResourceDefinition({ body: crd });
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
  const name = crd.metadata?.name ?? '';
  await waitFor(`CRD ${name} to be established`, async () => {
    const current = await api.readCustomResourceDefinition({ name });
    return current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
  });
}
