import type { GateConfig } from '../../model/config.ts';
import { cdiPairFor, eolFor, kubernetesWindow, kubevirtSupporting, oldestEol } from '../../versions/lookup.ts';
import { compareMinor } from '../../versions/minor.ts';
import type { VersionData } from '../../versions/schema.ts';
import { daysBetween, parseIsoDay } from '../days.ts';
import { versionEvidence } from '../observed-version.ts';
import type { VersionTuple } from '../../documents/gate.ts';
import { type Finding, gateRule, type TupleInputs } from '../rule.ts';

/**
 * The version-tuple checks: pure functions of the observed versions, the version data and the day.
 * - tuple.kubernetes-supported: the server's minor outside the KubeVirt minor's window → fail;
 *   a KubeVirt minor the data does not know, or no KubeVirt version → unknown.
 * - tuple.kubernetes-eol: on or after the EOL day → fail; within eolWarnDays → warn. Evaluated
 *   from the server version alone, so it works without KubeVirt.
 * - tuple.cdi-paired: a CDI minor other than the one KubeVirt's release pins → warn (no formal
 *   matrix exists); CDI absent → pass (it is optional).
 */

function window(versions: readonly string[]): string {
  return versions.join(', ');
}

export function checkKubernetesSupported(tuple: VersionTuple, data: VersionData): Finding {
  const { kubernetes, kubevirt } = tuple;
  const evidence = { kubernetes: versionEvidence(kubernetes), kubevirt: versionEvidence(kubevirt) };
  if (kubevirt.state !== 'known') return { status: 'unknown', message: `${kubevirt.reason}: no KubeVirt version to check`, evidence };
  if (kubernetes.state !== 'known') return { status: 'unknown', message: `${kubernetes.reason}: no Kubernetes version to check`, evidence };
  const supported = kubernetesWindow(data, kubevirt.minor);
  if (supported === null) {
    return {
      status: 'unknown',
      message: `the version data has no support window for KubeVirt ${kubevirt.minor}; update the version data file`,
      evidence: { ...evidence, kubevirtMinor: kubevirt.minor },
    };
  }
  const full = { ...evidence, kubevirtMinor: kubevirt.minor, kubernetesMinor: kubernetes.minor, supportedKubernetes: [...supported] };
  if (supported.includes(kubernetes.minor)) {
    return { status: 'pass', message: `Kubernetes ${kubernetes.minor} is supported by KubeVirt ${kubevirt.minor} (${window(supported)})`, evidence: full };
  }
  const alternatives = kubevirtSupporting(data, kubernetes.minor);
  const advice = alternatives.length > 0 ? `; KubeVirt ${alternatives.join(', ')} support${alternatives.length === 1 ? 's' : ''} Kubernetes ${kubernetes.minor}` : '';
  return {
    status: 'fail',
    message: `Kubernetes ${kubernetes.minor} is outside KubeVirt ${kubevirt.minor}'s supported window (${window(supported)})${advice}`,
    evidence: { ...full, kubevirtSupportingKubernetes: alternatives },
  };
}

export function checkKubernetesEol(
  tuple: VersionTuple,
  data: VersionData,
  config: Pick<GateConfig, 'eolWarnDays'>,
  todayMs: number,
): Finding {
  const { kubernetes } = tuple;
  if (kubernetes.state !== 'known') {
    return { status: 'unknown', message: `${kubernetes.reason}: no Kubernetes version to check`, evidence: { kubernetes: versionEvidence(kubernetes) } };
  }
  const entry = eolFor(data, kubernetes.minor);
  if (entry === null) {
    const oldest = oldestEol(data);
    if (oldest !== null && compareMinor(kubernetes.minor, oldest.kubernetes) < 0 && parseIsoDay(oldest.eol) <= todayMs) {
      return {
        status: 'fail',
        message: `Kubernetes ${kubernetes.minor} is older than ${oldest.kubernetes}, which reached end of life on ${oldest.eol}; upgrade the cluster`,
        evidence: { kubernetes: kubernetes.version, kubernetesMinor: kubernetes.minor, olderThan: oldest.kubernetes, olderThanEol: oldest.eol },
      };
    }
    return {
      status: 'unknown',
      message: `the version data has no end-of-life date for Kubernetes ${kubernetes.minor}; update the version data file`,
      evidence: { kubernetes: kubernetes.version, kubernetesMinor: kubernetes.minor },
    };
  }
  const daysLeft = daysBetween(todayMs, parseIsoDay(entry.eol));
  const inferred = entry.confirmed ? '' : ' (inferred date)';
  const evidence = {
    kubernetes: kubernetes.version,
    kubernetesMinor: kubernetes.minor,
    eol: entry.eol,
    confirmed: entry.confirmed,
    daysLeft,
    warnDays: config.eolWarnDays,
  };
  if (daysLeft <= 0) {
    const ago = daysLeft === 0 ? 'today' : `${-daysLeft} day${daysLeft === -1 ? '' : 's'} ago`;
    return { status: 'fail', message: `Kubernetes ${kubernetes.minor} reached end of life on ${entry.eol}${inferred}, ${ago}; upgrade the cluster`, evidence };
  }
  if (daysLeft <= config.eolWarnDays) {
    return { status: 'warn', message: `Kubernetes ${kubernetes.minor} reaches end of life on ${entry.eol}${inferred}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}; plan the upgrade`, evidence };
  }
  return { status: 'pass', message: `Kubernetes ${kubernetes.minor} is supported until ${entry.eol}${inferred}, ${daysLeft} days from now`, evidence };
}

export function checkCdiPaired(tuple: VersionTuple, data: VersionData): Finding {
  const { kubevirt, cdi } = tuple;
  const evidence = { kubevirt: versionEvidence(kubevirt), cdi: versionEvidence(cdi) };
  if (kubevirt.state !== 'known') return { status: 'unknown', message: `${kubevirt.reason}: no KubeVirt version to pair CDI with`, evidence };
  if (cdi.state === 'absent') return { status: 'pass', message: `${cdi.reason}; nothing to pair (CDI is optional; DataVolumes need it)`, evidence };
  if (cdi.state === 'unknown') return { status: 'unknown', message: `${cdi.reason}: no CDI version to check`, evidence };
  const pair = cdiPairFor(data, kubevirt.minor);
  if (pair === null) {
    return {
      status: 'unknown',
      message: `the version data pairs no CDI with KubeVirt ${kubevirt.minor}; update the version data file`,
      evidence: { ...evidence, kubevirtMinor: kubevirt.minor, cdiMinor: cdi.minor },
    };
  }
  const full = { ...evidence, kubevirtMinor: kubevirt.minor, cdiMinor: cdi.minor, pairedCdi: pair.cdi, ...(pair.note ? { note: pair.note } : {}) };
  if (cdi.minor === pair.cdi) return { status: 'pass', message: `CDI ${cdi.minor} is the one KubeVirt ${kubevirt.minor} pins`, evidence: full };
  return {
    status: 'warn',
    message: `CDI ${cdi.minor} with KubeVirt ${kubevirt.minor}, whose release pins CDI ${pair.cdi}; no formal matrix exists, so test DataVolume imports or move CDI to ${pair.cdi}`,
    evidence: full,
  };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const kubernetesSupportedRule = gateRule('tuple.kubernetes-supported', ({ tuple, data }: TupleInputs) => checkKubernetesSupported(tuple, data));
export const kubernetesEolRule = gateRule('tuple.kubernetes-eol', ({ tuple, data, config, todayMs }: TupleInputs) => checkKubernetesEol(tuple, data, config, todayMs));
export const cdiPairedRule = gateRule('tuple.cdi-paired', ({ tuple, data }: TupleInputs) => checkCdiPaired(tuple, data));
