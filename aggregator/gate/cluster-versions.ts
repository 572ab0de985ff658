import type { ClusterModel } from '../model/cluster.ts';
import { observeVersion } from './observed-version.ts';
import type { VersionTuple } from '../documents/gate.ts';

/** The version tuple a cluster runs: the API server, KubeVirt's and CDI's observed versions. */
export function clusterVersions(model: ClusterModel): VersionTuple {
  const { kubevirt, cdi } = model;
  return {
    kubernetes: observeVersion(model.serverGitVersion, 'the API server version is unknown'),
    kubevirt:
      kubevirt.state === 'present'
        ? observeVersion(kubevirt.cr.observedKubeVirtVersion, 'KubeVirt has not reported status.observedKubeVirtVersion yet')
        : kubevirt.state === 'unknown'
          ? { state: 'unknown', reason: `KubeVirt cannot be read: ${kubevirt.reason}` }
          : { state: 'absent', reason: 'KubeVirt is not installed' },
    cdi:
      cdi.state === 'present'
        ? observeVersion(cdi.cr.observedVersion, 'CDI has not reported status.observedVersion yet')
        : cdi.state === 'unknown'
          ? { state: 'unknown', reason: `CDI cannot be read: ${cdi.reason}` }
          : { state: 'absent', reason: 'CDI is not installed' },
  };
}
