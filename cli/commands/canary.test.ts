import { describe, expect, it } from 'vitest';
import type { CanaryRun } from '../../canary/run.ts';
import { renderCanary } from './canary.ts';

const RUN: CanaryRun = {
  runId: 'mib2x9k0-3f4a',
  startedAt: '2026-12-05T12:00:00.000Z',
  picked: [
    { node: 'worker-1', nodeClass: 'intel/xeon-gold-6338/hardware/kernel-6.12/metal' },
    { node: 'w2', nodeClass: 'amd/epyc-9654/hardware/kernel-6.12/metal' },
  ],
  skipped: [{ node: 'worker-3', reason: 'NotReady' }],
  results: [
    { node: 'worker-1', nodeClass: 'intel/xeon-gold-6338/hardware/kernel-6.12/metal', vmi: 'canary-a', status: 'True', reason: 'Booted', message: 'ok', seconds: { scheduled: 0.4, launcherRunning: 3.1, vmiRunning: 5.25, guestMarker: 6 } },
    { node: 'w2', nodeClass: 'amd/epyc-9654/hardware/kernel-6.12/metal', vmi: 'canary-b', status: 'False', reason: 'NotScheduled', message: 'the virt-launcher pod was not scheduled within 180 s: Unschedulable: 0/3 nodes are available', seconds: {} },
  ],
  interrupted: false,
  unpublished: [],
  cost: { cpuSeconds: 1.2, vmSeconds: 18.5 },
};

describe('renderCanary', () => {
  it('a table of node, class, result and step seconds, failures explained beneath, then the skipped nodes and a summary', () => {
    expect(renderCanary(RUN, false)).toBe(
      [
        'NODE      CLASS                                            RESULT        SECONDS (scheduled / launcher / running / marker)',
        'worker-1  intel/xeon-gold-6338/hardware/kernel-6.12/metal  Booted        0.4 / 3.1 / 5.3 / 6.0',
        'w2        amd/epyc-9654/hardware/kernel-6.12/metal         NotScheduled  - / - / - / -',
        '  w2: the virt-launcher pod was not scheduled within 180 s: Unschedulable: 0/3 nodes are available',
        'skipped worker-3: NotReady',
        'virtgate canary mib2x9k0-3f4a: tried 2 nodes, 1 booted, 1 skipped',
        '',
      ].join('\n'),
    );
  });

  it('a dry run lists the picks only', () => {
    expect(renderCanary({ ...RUN, results: [] }, true)).toBe(
      [
        'NODE      CLASS',
        'worker-1  intel/xeon-gold-6338/hardware/kernel-6.12/metal',
        'w2        amd/epyc-9654/hardware/kernel-6.12/metal',
        'skipped worker-3: NotReady',
        'virtgate canary mib2x9k0-3f4a (dry run): would try 2 nodes, 1 skipped',
        '',
      ].join('\n'),
    );
  });
});
