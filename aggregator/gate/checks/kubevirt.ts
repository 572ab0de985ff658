import type { KubeVirtCr, KubeVirtSummary } from '../../model/kubevirt.ts';
import { clip } from '../../../core/untrusted.ts';
import type { AssessedNode } from '../../readiness/assess-node.ts';
import { nameList, plural } from '../evidence.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';

/** Why there is no KubeVirt to look at, or null when there is one. */
export function kubevirtMissing(kubevirt: KubeVirtSummary): string | null {
  switch (kubevirt.state) {
    case 'crd-absent':
      return 'KubeVirt is not installed: the API server does not serve kubevirt.io/v1 kubevirts (no KubeVirt CRD)';
    case 'cr-absent':
      return 'KubeVirt is not installed: the KubeVirt CRD exists but there is no KubeVirt object';
    case 'unknown':
      return `KubeVirt cannot be read: ${kubevirt.reason}`;
    case 'present':
      return null;
  }
}

/** What to do when KubeVirt is not installed, per state. */
const INSTALL_HINT = {
  'crd-absent': 'install virt-operator (the release\'s kubevirt-operator.yaml), then create a KubeVirt object (kubevirt-cr.yaml)',
  'cr-absent': "virt-operator deploys nothing until one exists: create it in virt-operator's namespace (the release's kubevirt-cr.yaml)",
} as const;

/** ` (Available=False, DeploymentInProgress: Deploying version …)`, or ` (no Available condition)`. */
function availability(cr: KubeVirtCr): string {
  if (cr.available === null) return ' (no Available condition)';
  const reason = cr.availableReason === null ? '' : `, ${cr.availableReason}`;
  const message = cr.availableMessage === null ? '' : `: ${cr.availableMessage}`;
  return ` (Available=${clip(cr.available, 16)}${reason}${message})`;
}

/**
 * kubevirt.deployed, from what virt-operator writes (model/kubevirt.ts):
 * - no KubeVirt (no CRD, or no CR) → fail, saying what to install;
 * - not ready yet: no phase (virt-operator has not acted on the CR), `Deploying`, or `Deployed`
 *   without status.observedKubeVirtVersion → unknown: the gate cannot judge KubeVirt yet;
 * - `Deployed` and Available=True → pass, unless an update is in progress (Progressing=True) → warn;
 * - `Deployed` without Available=True (a failed or degraded deployment) → warn;
 * - `Deleting` / `Deleted` → fail; any other phase → unknown.
 */
export function checkKubeVirtDeployed(kubevirt: KubeVirtSummary): Finding {
  if (kubevirt.state === 'crd-absent' || kubevirt.state === 'cr-absent') {
    return { status: 'fail', message: `${kubevirtMissing(kubevirt)}; ${INSTALL_HINT[kubevirt.state]}`, evidence: { state: kubevirt.state } };
  }
  if (kubevirt.state === 'unknown') return { status: 'unknown', message: kubevirtMissing(kubevirt) ?? '', evidence: { state: 'unknown', reason: clip(kubevirt.reason, 200) } };
  const { cr, count } = kubevirt;
  const namespace = clip(cr.namespace ?? '?', 63);
  const name = clip(cr.name ?? '?', 63);
  const where = `${namespace}/${name}`;
  const version = (value: string | null) => (value === null ? null : clip(value, 100));
  const evidence = {
    object: where,
    phase: cr.phase === null ? null : clip(cr.phase, 64),
    available: cr.available,
    availableReason: cr.availableReason,
    progressing: cr.progressing,
    observedKubeVirtVersion: version(cr.observedKubeVirtVersion),
    targetKubeVirtVersion: version(cr.targetKubeVirtVersion),
    objects: count,
  };
  const extra = count > 1 ? ` (${count} KubeVirt objects exist; KubeVirt acts on one)` : '';
  const wait = `wait until virt-operator reports it Deployed and Available (kubectl -n ${namespace} wait kubevirt/${name} --for=condition=Available --timeout=15m), else read virt-operator's log`;
  const target = cr.targetKubeVirtVersion === null ? '' : ` ${version(cr.targetKubeVirtVersion)}`;
  switch (cr.phase) {
    case null:
      return {
        status: 'unknown',
        message: `KubeVirt ${where} has no status yet: virt-operator has not acted on it; check that virt-operator is running (kubectl -n ${namespace} get deployment virt-operator)${extra}`,
        evidence,
      };
    case 'Deploying':
      return { status: 'unknown', message: `KubeVirt ${where} is still Deploying${target}${availability(cr)}: not ready yet; ${wait}${extra}`, evidence };
    case 'Deployed':
      if (cr.observedKubeVirtVersion === null) {
        return { status: 'unknown', message: `KubeVirt ${where} is Deployed but reports no status.observedKubeVirtVersion: its version cannot be checked; ${wait}${extra}`, evidence };
      }
      if (cr.available !== 'True') {
        return {
          status: 'warn',
          message: `KubeVirt ${where} is Deployed but not Available${availability(cr)}: some of its components are not ready; check kubectl -n ${namespace} get pods and virt-operator's log${extra}`,
          evidence,
        };
      }
      if (cr.progressing === 'True') {
        return {
          status: 'warn',
          message: `KubeVirt ${where} is updating from ${version(cr.observedKubeVirtVersion)} to${target || ' a new version'} (Progressing=True); the version checks use ${version(cr.observedKubeVirtVersion)} until the update completes${extra}`,
          evidence,
        };
      }
      return { status: 'pass', message: `KubeVirt ${where} is Deployed and Available${extra}`, evidence };
    case 'Deleting':
    case 'Deleted':
      return { status: 'fail', message: `KubeVirt ${where} is ${cr.phase}: virt-operator is removing KubeVirt, so VMs cannot run; create a KubeVirt object again if that was not intended${extra}`, evidence };
    default:
      return { status: 'unknown', message: `KubeVirt ${where} has an unknown phase "${clip(cr.phase, 40)}"${extra}`, evidence };
  }
}

/**
 * kubevirt.emulation-consistent (over all nodes):
 * - useEmulation on while hardware nodes are ready → warn: every VM runs emulated, slowly;
 * - useEmulation off, no hardware node ready, some emulation nodes ready → fail: VMs would not start;
 * - otherwise pass. No KubeVirt → unknown (kubevirt.deployed reports it).
 */
export function checkEmulationConsistent(kubevirt: KubeVirtSummary, nodes: readonly AssessedNode[]): Finding {
  const missing = kubevirtMissing(kubevirt);
  if (missing !== null || kubevirt.state !== 'present') return { status: 'unknown', message: missing ?? '', evidence: { kubevirt: kubevirt.state } };
  const hardware = nodes.filter((item) => item.readiness.state === 'ready').map((item) => item.node.name);
  const emulation = nodes.filter((item) => item.readiness.state === 'emulation').map((item) => item.node.name);
  const { useEmulation } = kubevirt.cr;
  const evidence = { useEmulation, hardwareReady: hardware.length, emulationReady: emulation.length };
  if (useEmulation && hardware.length > 0) {
    return {
      status: 'warn',
      message: `useEmulation is on while ${plural(hardware.length, 'hardware node is', 'hardware nodes are')} ready: VMs run emulated (slow); turn spec.configuration.developerConfiguration.useEmulation off`,
      evidence,
    };
  }
  if (!useEmulation && hardware.length === 0 && emulation.length > 0) {
    return {
      status: 'fail',
      message: `useEmulation is off but no hardware node is ready, only emulation nodes (${nameList(emulation)}): VMs would not start; fix KVM on the nodes, or turn useEmulation on (test only)`,
      evidence,
    };
  }
  if (useEmulation) return { status: 'pass', message: 'useEmulation is on and no hardware node is ready: VMs run emulated (slow, test only)', evidence };
  return { status: 'pass', message: `useEmulation is off; ${plural(hardware.length, 'hardware node is', 'hardware nodes are')} ready`, evidence };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const deployedRule = gateRule('kubevirt.deployed', ({ model }: ClusterInputs) => checkKubeVirtDeployed(model.kubevirt));
export const emulationConsistentRule = gateRule('kubevirt.emulation-consistent', ({ model, nodes }: ClusterInputs) => checkEmulationConsistent(model.kubevirt, nodes));
