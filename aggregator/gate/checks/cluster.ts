import type { AssessedNode } from '../../readiness/assess-node.ts';
import { plural } from '../evidence.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';

/**
 * cluster.privileged: KubeVirt needs the API server to admit privileged pods
 * (--allow-privileged=true). The agent itself runs privileged, so one fresh, valid report proves
 * it → pass; without one the gate cannot tell → unknown.
 */
export function checkPrivileged(nodes: readonly AssessedNode[]): Finding {
  const proving = nodes.filter((item) => item.readiness.state !== 'unknown').length;
  if (proving > 0) {
    return { status: 'pass', message: `privileged pods are admitted: the privileged virtgate agent reports from ${plural(proving, 'node')}`, evidence: { nodesWithFreshReports: proving } };
  }
  return {
    status: 'unknown',
    message: 'no fresh agent report proves that privileged pods are admitted (KubeVirt needs --allow-privileged=true)',
    evidence: { nodesWithFreshReports: 0 },
  };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const privilegedRule = gateRule('cluster.privileged', ({ nodes }: ClusterInputs) => checkPrivileged(nodes));
