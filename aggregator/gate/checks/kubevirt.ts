import type { KubeVirtSummary } from '../../model/kubevirt.ts';
import { clip } from '../../model/untrusted.ts';
import type { AssessedNode } from '../../readiness/types.ts';
import { nameList, plural } from '../evidence.ts';
import type { GateCheck } from '../types.ts';

/** Why there is no KubeVirt to look at, or null when there is one. */
export function kubevirtMissing(kubevirt: KubeVirtSummary): string | null {
  switch (kubevirt.state) {
    case 'crd-absent':
      return 'KubeVirt is not installed (no kubevirt.io KubeVirt CRD)';
    case 'cr-absent':
      return 'KubeVirt is not installed (the CRD exists, but there is no KubeVirt object)';
    case 'unknown':
      return `KubeVirt cannot be read: ${kubevirt.reason}`;
    case 'present':
      return null;
  }
}

/**
 * kubevirt.deployed: phase Deployed and Available=True → pass; Deployed without Available=True or
 * Deploying → warn; Deleting/Deleted, or no KubeVirt at all → fail; an unreadable or unknown
 * phase → unknown.
 */
export function checkKubeVirtDeployed(kubevirt: KubeVirtSummary): GateCheck<'kubevirt.deployed'> {
  const id = 'kubevirt.deployed';
  if (kubevirt.state === 'crd-absent' || kubevirt.state === 'cr-absent') {
    return { id, status: 'fail', message: `${kubevirtMissing(kubevirt)}; install KubeVirt (virt-operator and a KubeVirt CR)`, evidence: { state: kubevirt.state } };
  }
  if (kubevirt.state === 'unknown') return { id, status: 'unknown', message: kubevirtMissing(kubevirt) ?? '', evidence: { state: 'unknown' } };
  const { cr, count } = kubevirt;
  const where = `${clip(cr.namespace ?? '?', 63)}/${clip(cr.name ?? '?', 63)}`;
  const evidence = {
    object: where,
    phase: cr.phase,
    available: cr.available,
    observedKubeVirtVersion: cr.observedKubeVirtVersion === null ? null : clip(cr.observedKubeVirtVersion, 100),
    objects: count,
  };
  const extra = count > 1 ? ` (${count} KubeVirt objects exist; KubeVirt acts on one)` : '';
  switch (cr.phase) {
    case 'Deployed':
      return cr.available === 'True'
        ? { id, status: 'pass', message: `KubeVirt ${where} is Deployed and Available${extra}`, evidence }
        : { id, status: 'warn', message: `KubeVirt ${where} is Deployed but its Available condition is ${cr.available ?? 'missing'}${extra}`, evidence };
    case 'Deploying':
      return { id, status: 'warn', message: `KubeVirt ${where} is still Deploying${extra}`, evidence };
    case 'Deleting':
    case 'Deleted':
      return { id, status: 'fail', message: `KubeVirt ${where} is ${cr.phase}${extra}`, evidence };
    default:
      return { id, status: 'unknown', message: `KubeVirt ${where} has ${cr.phase === null ? 'no phase yet' : `an unknown phase "${clip(cr.phase, 40)}"`}${extra}`, evidence };
  }
}

/**
 * kubevirt.emulation-consistent (over all nodes):
 * - useEmulation on while hardware nodes are ready → warn: every VM runs emulated, slowly;
 * - useEmulation off, no hardware node ready, some emulation nodes ready → fail: VMs would not start;
 * - otherwise pass. No KubeVirt → unknown (kubevirt.deployed reports it).
 */
export function checkEmulationConsistent(kubevirt: KubeVirtSummary, nodes: readonly AssessedNode[]): GateCheck<'kubevirt.emulation-consistent'> {
  const id = 'kubevirt.emulation-consistent';
  const missing = kubevirtMissing(kubevirt);
  if (missing !== null || kubevirt.state !== 'present') return { id, status: 'unknown', message: missing ?? '', evidence: { kubevirt: kubevirt.state } };
  const hardware = nodes.filter((item) => item.readiness.state === 'ready').map((item) => item.node.name);
  const emulation = nodes.filter((item) => item.readiness.state === 'emulation').map((item) => item.node.name);
  const { useEmulation } = kubevirt.cr;
  const evidence = { useEmulation, hardwareReady: hardware.length, emulationReady: emulation.length };
  if (useEmulation && hardware.length > 0) {
    return {
      id,
      status: 'warn',
      message: `useEmulation is on while ${plural(hardware.length, 'hardware node is', 'hardware nodes are')} ready: VMs run emulated (slow); turn spec.configuration.developerConfiguration.useEmulation off`,
      evidence,
    };
  }
  if (!useEmulation && hardware.length === 0 && emulation.length > 0) {
    return {
      id,
      status: 'fail',
      message: `useEmulation is off but no hardware node is ready, only emulation nodes (${nameList(emulation)}): VMs would not start; fix KVM on the nodes, or turn useEmulation on (test only)`,
      evidence,
    };
  }
  if (useEmulation) return { id, status: 'pass', message: 'useEmulation is on and no hardware node is ready: VMs run emulated (slow, test only)', evidence };
  return { id, status: 'pass', message: `useEmulation is off; ${plural(hardware.length, 'hardware node is', 'hardware nodes are')} ready`, evidence };
}
