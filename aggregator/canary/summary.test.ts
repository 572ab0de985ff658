import { describe, expect, it } from 'vitest';
import { vmBoot } from '../../test/lab/aggregator/vm-boot.ts';
import type { CanarySummary } from '../documents/canary.ts';
import { canarySummarySchema } from '../documents/canary.ts';
import type { NodeCanaryResult } from './results.ts';
import { summariseCanary } from './summary.ts';

const NOW = new Date('2026-12-02T12:00:00Z');
const INTEL = 'intel/xeon-gold-6338/hardware/5.14/metal';
const AMD = 'amd/epyc-9654/hardware/6.8/metal';
const ARM = 'arm/neoverse-n1/hardware/6.8/metal';

const result = (node: string, options: Parameters<typeof vmBoot>[0]): NodeCanaryResult => ({ node, vmBoot: vmBoot(options) });

describe('summariseCanary', () => {
  it('has no class and no node when no report carries a canary result', () => {
    expect(summariseCanary([], NOW)).toEqual({ nodes: 0, classes: [] });
  });

  it('per class: the newest result, its failed runs, the latest success over the class and the newest boot; worst first', () => {
    const results = [
      result('intel-1', { nodeClass: INTEL, runAt: '2026-12-02T10:00:00Z', lastSuccessAt: '2026-12-02T10:45:00Z', seconds: { scheduled: 1, launcherRunning: 6, vmiRunning: 10, guestMarker: 21 } }),
      // The newest result of its class: the guest stayed silent, the class's second failed run in a row.
      result('intel-2', { nodeClass: INTEL, runAt: '2026-12-02T11:30:00Z', reason: 'GuestSilent', classFailedRuns: 2, lastSuccessAt: '2026-12-01T09:00:00Z', message: 'console: SeaBIOS' }),
      // Booted later than intel-1, but its lastSuccessAt, in another offset, is earlier than intel-1's (10:30Z < 10:45Z).
      result('intel-3', { nodeClass: INTEL, runAt: '2026-12-02T11:00:00Z', lastSuccessAt: '2026-12-02T12:30:00+02:00', seconds: { scheduled: 2, launcherRunning: 8, vmiRunning: 15, guestMarker: 30 } }),
      result('amd-1', { nodeClass: AMD, runAt: '2026-12-02T11:45:00Z', seconds: { scheduled: 1, launcherRunning: 4, vmiRunning: 7, guestMarker: 12 } }),
      result('arm-1', { nodeClass: ARM, runAt: '2026-12-02T11:50:00Z', reason: 'NotScheduled', message: '0/9 nodes are available: 1 Insufficient devices.kubevirt.io/kvm' }),
    ];
    const expected: CanarySummary = {
      nodes: 5,
      classes: [
        {
          nodeClass: INTEL,
          nodes: 3,
          booted: 2,
          latest: { node: 'intel-2', status: 'False', reason: 'GuestSilent', message: 'console: SeaBIOS', runAt: '2026-12-02T11:30:00Z', ageSeconds: 1800, seconds: { scheduled: 2 } },
          failedRuns: 2,
          lastSuccessAt: '2026-12-02T10:45:00Z',
          lastBoot: { node: 'intel-3', runAt: '2026-12-02T11:00:00Z', seconds: { scheduled: 2, launcherRunning: 8, vmiRunning: 15, guestMarker: 30 } },
        },
        {
          nodeClass: ARM,
          nodes: 1,
          booted: 0,
          latest: { node: 'arm-1', status: 'False', reason: 'NotScheduled', message: '0/9 nodes are available: 1 Insufficient devices.kubevirt.io/kvm', runAt: '2026-12-02T11:50:00Z', ageSeconds: 600, seconds: {} },
          failedRuns: 1,
          lastSuccessAt: null,
          lastBoot: null,
        },
        {
          nodeClass: AMD,
          nodes: 1,
          booted: 1,
          latest: { node: 'amd-1', status: 'True', reason: 'Booted', message: 'the guest printed the nonce', runAt: '2026-12-02T11:45:00Z', ageSeconds: 900, seconds: { scheduled: 1, launcherRunning: 4, vmiRunning: 7, guestMarker: 12 } },
          failedRuns: 0,
          lastSuccessAt: '2026-12-02T11:45:00Z',
          lastBoot: { node: 'amd-1', runAt: '2026-12-02T11:45:00Z', seconds: { scheduled: 1, launcherRunning: 4, vmiRunning: 7, guestMarker: 12 } },
        },
      ],
    };
    const summary = summariseCanary(results, NOW);
    expect(summary).toEqual(expected);
    expect(canarySummarySchema.parse(summary)).toEqual(expected);
    // The order of the input does not matter.
    expect(summariseCanary([...results].reverse(), NOW)).toEqual(expected);
  });

  it('orders classes with equal failed runs: a class whose newest result did not boot first, then by name', () => {
    const summary = summariseCanary(
      [
        result('z', { nodeClass: 'z-class', runAt: '2026-12-02T11:00:00Z', reason: 'VmiDeleted', classFailedRuns: 0 }),
        result('b', { nodeClass: 'b-class', runAt: '2026-12-02T11:00:00Z' }),
        result('a', { nodeClass: 'a-class', runAt: '2026-12-02T11:00:00Z' }),
      ],
      NOW,
    );
    expect(summary.classes.map((entry) => entry.nodeClass)).toEqual(['z-class', 'a-class', 'b-class']);
  });

  it('takes the first node by name of two results of one run, and dates ages with the time it is given', () => {
    const results = [result('n2', { nodeClass: INTEL, runAt: '2026-12-02T11:00:00Z' }), result('n1', { nodeClass: INTEL, runAt: '2026-12-02T11:00:00Z', reason: 'LauncherFailed' })];
    const [entry] = summariseCanary(results, new Date('2026-12-02T11:00:30Z')).classes;
    expect(entry?.latest).toMatchObject({ node: 'n1', reason: 'LauncherFailed', ageSeconds: 30 });
    expect(entry?.lastBoot?.node).toBe('n2');
  });
});
