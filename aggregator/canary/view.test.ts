import { describe, expect, it } from 'vitest';
import { healthyCluster, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { vmBoot } from '../../test/lab/aggregator/vm-boot.ts';
import { parseSnapshot } from '../model/cluster.ts';
import { canaryView } from './view.ts';

describe('canaryView', () => {
  it('reads the model only when first asked, then answers the same view', () => {
    const model = parseSnapshot(healthyCluster({ nodeValidations: [rawReport('node-a', { vmBoot: vmBoot({ nodeClass: 'c', runAt: '2026-12-02T11:00:00Z' }) })] }));
    let reads = 0;
    const counted = { nodes: model.nodes, get reports() { reads += 1; return model.reports; } };
    const view = canaryView(counted, new Date('2026-12-02T12:00:00Z'));
    // A recompute that nobody reads the canary of costs nothing.
    expect(reads).toBe(0);
    const first = view();
    expect(reads).toBeGreaterThan(0);
    const afterFirst = reads;
    expect(view()).toBe(first);
    expect(reads).toBe(afterFirst);
    expect(first.summary).toMatchObject({ nodes: 1, classes: [{ nodeClass: 'c', latest: { node: 'node-a', ageSeconds: 3600 } }] });
  });
});
