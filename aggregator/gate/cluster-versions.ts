import type { ClusterModel } from '../model/cluster.ts';
import { observeVersion } from './observed-version.ts';
import type { VersionTuple } from '../documents/gate.ts';

/** The version tuple a cluster runs: the API server, KubeVirt's and CDI's observed versions. */
export function clusterVersions(model: ClusterModel): VersionTuple {
  return {
    kubernetes: observeVersion(model.serverGitVersion, 'the API server version is unknown'),
    kubevirt: componentVersion('KubeVirt', model.kubevirt, (cr) => cr.observedKubeVirtVersion, 'status.observedKubeVirtVersion'),
    cdi: componentVersion('CDI', model.cdi, (cr) => cr.observedVersion, 'status.observedVersion'),
  };
}

type Component<CR> = { state: 'present'; cr: CR } | { state: 'unknown'; reason: string } | { state: 'crd-absent' | 'cr-absent' };

/** An add-on's version: observed from its CR's status, unknown when it cannot be read, absent when not installed. */
function componentVersion<CR>(name: string, component: Component<CR>, versionOf: (cr: CR) => string | null, field: string): VersionTuple['kubevirt'] {
  if (component.state === 'present') return observeVersion(versionOf(component.cr), `${name} has not reported ${field} yet`);
  if (component.state === 'unknown') return { state: 'unknown', reason: `${name} cannot be read: ${component.reason}` };
  return { state: 'absent', reason: `${name} is not installed` };
}
