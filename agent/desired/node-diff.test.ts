import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { CONDITION_TYPE, nodeKeys } from '../../core/kube/names.ts';
import { diff, differs, metadataChanged } from './node-diff.ts';
import type { DesiredNode } from './node-state.ts';
import { formatOwnership } from '../../core/kube/ownership.ts';

const keys = nodeKeys();
const ours = { key: keys.notReadyTaint, value: 'true', effect: 'NoSchedule' };
const condition = { status: 'True' as const, reason: 'HardwareVirtualization', message: 'KVM is usable' };
const desired: DesiredNode = {
  labels: { [keys.labels.ready]: 'true', [keys.labels.tier]: 'hardware' },
  taints: { present: [], absent: [keys.notReadyTaint] },
  condition,
};

/** A Node that holds exactly `desired`, plus foreign labels and taints. */
function nodeMatching(): V1Node {
  return {
    metadata: {
      name: 'n1',
      resourceVersion: '7',
      labels: { ...desired.labels, 'team.example.com/rack': 'r1' },
      annotations: { [keys.ownershipAnnotation]: formatOwnership({ labels: Object.keys(desired.labels), taints: [] }) },
    },
    spec: { taints: [{ key: 'team.example.com/maintenance', effect: 'NoSchedule' }] },
    status: { conditions: [{ type: CONDITION_TYPE, ...condition }] },
  };
}

describe('diff (the one comparison behind publishing and drift)', () => {
  it('finds nothing on a node that holds the desired state, foreign labels and taints included', () => {
    const changes = diff(desired, nodeMatching(), keys);
    expect(changes).toEqual({ labels: {}, taints: { add: [], remove: [] }, ownership: undefined, condition: false });
    expect(differs(changes)).toBe(false);
  });

  it('sees a removed or edited owned label, and removes owned labels no longer wanted', () => {
    const node = nodeMatching();
    delete node.metadata!.labels![keys.labels.ready];
    node.metadata!.labels![keys.familyLabel('kvm')] = 'true';
    node.metadata!.annotations![keys.ownershipAnnotation] = formatOwnership({ labels: [...Object.keys(desired.labels), keys.familyLabel('kvm')], taints: [] });
    const changes = diff(desired, node, keys);
    expect(changes.labels).toEqual({ [keys.labels.ready]: 'true', [keys.familyLabel('kvm')]: null });
    expect(changes.ownership).toBe(formatOwnership({ labels: Object.keys(desired.labels), taints: [] }));
    expect(metadataChanged(changes)).toBe(true);
  });

  it('adds a wanted taint and records it as owned; lifts one no longer wanted and forgets it', () => {
    const tainting: DesiredNode = { ...desired, taints: { present: [ours], absent: [] } };
    const add = diff(tainting, nodeMatching(), keys);
    expect(add.taints).toEqual({ add: [ours], remove: [] });
    expect(JSON.parse(add.ownership ?? '{}')).toMatchObject({ taints: [keys.notReadyTaint] });

    const tainted = nodeMatching();
    tainted.spec!.taints!.push(ours);
    tainted.metadata!.annotations![keys.ownershipAnnotation] = formatOwnership({ labels: Object.keys(desired.labels), taints: [keys.notReadyTaint] });
    expect(diff(tainting, tainted, keys).taints).toEqual({ add: [], remove: [] });
    const lift = diff(desired, tainted, keys);
    expect(lift.taints).toEqual({ add: [], remove: [keys.notReadyTaint] });
    expect(JSON.parse(lift.ownership ?? '{}')).toMatchObject({ taints: [] });
  });

  it('sees a missing condition, or one whose status, reason or message changed', () => {
    const missing = nodeMatching();
    missing.status = {};
    expect(diff(desired, missing, keys).condition).toBe(true);
    for (const edit of [{ status: 'False' }, { reason: 'Other' }, { message: 'edited' }]) {
      const node = nodeMatching();
      Object.assign(node.status!.conditions![0]!, edit);
      const changes = diff(desired, node, keys);
      expect(changes.condition).toBe(true);
      expect(metadataChanged(changes)).toBe(false);
      expect(differs(changes)).toBe(true);
    }
  });
});
