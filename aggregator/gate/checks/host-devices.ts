import type { JsonObject } from '../../../core/json.ts';
import type { KubeVirtSummary } from '../../model/kubevirt.ts';
import { clip } from '../../../core/untrusted.ts';
import type { HostDeviceAvailability } from '../../documents/gate.ts';
import { type ClusterInputs, type Finding, gateRule } from '../rule.ts';
import { canRunVms } from '../../readiness/sort.ts';
import { nameList, plural } from '../evidence.ts';
import { kubevirtMissing } from './kubevirt.ts';

/**
 * kubevirt.host-devices: each of KubeVirt's permittedHostDevices against the ready nodes that can
 * provide it (gate/host-devices.ts). KubeVirt itself only ever leaves such a resource
 * unadvertised, so a VM that asks for it stays Pending without a reason; this says which nodes
 * lack it and why.
 * - no KubeVirt → unknown (kubevirt.deployed reports it);
 * - nothing permitted → pass;
 * - entries to judge but no ready node → unknown (nodes.min-ready reports it);
 * - an entry (not externalResourceProvider) that no ready node provides → fail, with each node's reason;
 * - otherwise pass, with the count of nodes per resource; external entries are named as not judged.
 */
export function checkHostDevices(kubevirt: KubeVirtSummary, availability: readonly HostDeviceAvailability[], readyNodes: number): Finding {
  const missing = kubevirtMissing(kubevirt);
  if (missing !== null || kubevirt.state !== 'present') return { status: 'unknown', message: missing ?? '', evidence: { kubevirt: kubevirt.state } };
  const judged = availability.filter((entry) => !entry.external);
  const external = availability.filter((entry) => entry.external);
  const evidence: JsonObject = {
    permitted: availability.length,
    external: external.map((entry) => entry.resource).slice(0, 10),
    devices: judged.slice(0, 10).map((entry) => ({ resource: entry.resource, selector: entry.selector, nodes: entry.nodes, devices: entry.devices, providers: entry.providers, reasons: entry.reasons.slice(0, 5) })),
  };
  const notJudged = external.length > 0 ? `; ${plural(external.length, 'entry', 'entries')} served by an external device plugin, not judged (${nameList(external.map((entry) => entry.resource))})` : '';
  if (availability.length === 0) return { status: 'pass', message: 'KubeVirt permits no host devices (spec.configuration.permittedHostDevices is empty)', evidence };
  if (judged.length === 0) return { status: 'pass', message: `every permitted host device is served by an external device plugin${notJudged}`, evidence };
  if (readyNodes === 0) return { status: 'unknown', message: `no ready node to provide ${plural(judged.length, 'permitted host device')}${notJudged}`, evidence };
  const unprovided = judged.filter((entry) => entry.nodes === 0);
  if (unprovided.length > 0) {
    const lines = unprovided.slice(0, 3).map((entry) => `${entry.resource} (${entry.selector}): ${entry.reasons.slice(0, 3).join('; ')}${entry.reasons.length > 3 ? ` (+${entry.reasons.length - 3} more nodes)` : ''}`);
    return {
      status: 'fail',
      message: `${plural(unprovided.length, 'permitted host device has', 'permitted host devices have')} no ready node to provide ${unprovided.length === 1 ? 'it' : 'them'}, so VMs requesting ${unprovided.length === 1 ? 'it' : 'them'} stay Pending: ${clip(lines.join(' | '), 900)}${unprovided.length > 3 ? ` (+${unprovided.length - 3} more)` : ''}${notJudged}`,
      evidence,
    };
  }
  const provided = judged.map((entry) => `${entry.resource} on ${plural(entry.nodes, 'node')} (${plural(entry.devices, 'device')})`);
  return { status: 'pass', message: `every permitted host device has a ready node: ${clip(provided.slice(0, 5).join(', '), 600)}${provided.length > 5 ? ` (+${provided.length - 5} more)` : ''}${notJudged}`, evidence };
}

/** The rules this file adds to the gate (registered in ../rules.ts). */
export const hostDevicesRule = gateRule('kubevirt.host-devices', ({ model, nodes, hostDevices }: ClusterInputs) => {
  if (hostDevices === null) throw new Error('the host-device availability could not be computed');
  return checkHostDevices(model.kubevirt, hostDevices, nodes.filter((item) => canRunVms(item.readiness.state)).length);
});
