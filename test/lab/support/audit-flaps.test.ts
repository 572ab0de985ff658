import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../controlplane/audit.ts';
import { flapsIn, type PublishedBefore } from './audit-flaps.ts';

const before: PublishedBefore = {
  nodeName: 'n1',
  prefix: 'virtgate.io',
  labels: { 'virtgate.io/ready': 'true', 'virtgate.io/tier': 'hardware' },
  conditionType: 'VirtualizationReady',
  conditionStatus: 'True',
  report: { group: 'virtgate.io', resource: 'nodevalidations', ready: true, tier: 'hardware' },
};

function write(verb: string, resource: string, body: unknown, extra: Partial<AuditEvent> = {}): AuditEvent {
  const [name, subresource] = resource.split('/');
  return {
    stage: 'ResponseComplete',
    verb,
    requestURI: '/',
    user: { username: 'someone' },
    objectRef: {
      resource: name === 'nodes' ? 'nodes' : 'nodevalidations',
      ...(name === 'nodes' ? {} : { apiGroup: 'virtgate.io' }),
      ...(subresource ? { subresource } : {}),
      name: 'n1',
    },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: '2026-12-03T00:00:00Z',
    ...(body === undefined ? {} : { requestObject: body }),
    ...extra,
  };
}

describe('flapsIn', () => {
  it('finds nothing in writes that keep the published state (heartbeats, the kubelet, foreign labels)', () => {
    const events = [
      write('patch', 'nodes', { metadata: { labels: { 'virtgate.io/ready': 'true', 'team.example.com/x': null } } }),
      write('patch', 'nodes/status', { status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'VirtualizationReady', status: 'True' }] } }),
      write('patch', 'nodevalidations/status', [{ op: 'add', path: '/status/heartbeatAt', value: 'x' }]),
      write('patch', 'nodes', [{ op: 'remove', path: '/metadata/labels/team.example.com~1x' }]),
      // A refused write changed nothing; another node is not this one.
      write('patch', 'nodes', { metadata: { labels: { 'virtgate.io/ready': null } } }, { responseStatus: { code: 409 } }),
      { ...write('delete', 'nodes', {}), objectRef: { resource: 'nodes', name: 'other' } },
    ];
    expect(flapsIn(events, before)).toEqual([]);
  });

  it('finds each kind of flap', () => {
    const flaps = flapsIn(
      [
        write('patch', 'nodes', { metadata: { labels: { 'virtgate.io/ready': 'false' } } }),
        write('patch', 'nodes', { metadata: { labels: { 'virtgate.io/tier': null } } }),
        write('patch', 'nodes', [{ op: 'remove', path: '/metadata/labels/virtgate.io~1ready' }]),
        write('update', 'nodes', { metadata: { labels: { 'virtgate.io/ready': 'true' } } }),
        write('patch', 'nodes/status', { status: { conditions: [{ type: 'VirtualizationReady', status: 'Unknown' }] } }),
        write('update', 'nodes/status', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
        write('patch', 'nodevalidations/status', [{ op: 'add', path: '/status', value: { ready: false, tier: 'hardware' } }]),
        write('delete', 'nodevalidations', {}),
        write('patch', 'nodes', undefined),
      ],
      before,
    );
    expect(flaps.map((flap) => flap.split(':')[0])).toEqual([
      'label virtgate.io/ready=false (was true)',
      'label virtgate.io/tier removed',
      'label virtgate.io/ready removed',
      'label virtgate.io/tier removed (labels replaced)',
      'condition VirtualizationReady=Unknown (was True)',
      'condition VirtualizationReady removed (conditions replaced)',
      'NodeValidation ready=false (was true)',
      'NodeValidation n1 deleted',
      'a write without its body in the audit log (the policy must log it at level Request)',
    ]);
  });
});
