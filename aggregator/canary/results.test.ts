import { describe, expect, it } from 'vitest';
import { healthyCluster, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { vmBoot } from '../../test/lab/aggregator/vm-boot.ts';
import { parseSnapshot } from '../model/cluster.ts';
import { canaryResults } from './results.ts';

const CLASS = 'intel/xeon/hardware/5.14/metal';
const RUN = '2026-12-02T11:30:00Z';

describe('canaryResults', () => {
  it("reads each node's status.vmBoot off its own, attributed report, and nothing off the others", () => {
    const cluster = healthyCluster();
    const result = vmBoot({ nodeClass: CLASS, runAt: RUN });
    const model = parseSnapshot({
      ...cluster,
      nodes: [...cluster.nodes, rawNode('node-d'), rawNode('node-e')],
      nodeValidations: [
        rawReport('node-a', { vmBoot: result }),
        // Owned by another Node's uid: readiness calls it forged, and so its result is not read.
        rawReport('node-b', { vmBoot: result, ownerUid: 'uid-someone-else' }),
        rawReport('node-c'),
        // Two reports claim node-d: neither is trusted.
        rawReport('node-d', { vmBoot: result }),
        rawReport('node-d', { vmBoot: result }),
        // A reason the schema does not know: the report stays valid, its vmBoot is dropped.
        rawReport('node-e', { vmBoot: { ...result, reason: 'Exploded' } }),
        // No Node of that name.
        rawReport('node-gone', { vmBoot: result }),
      ],
    });
    expect(canaryResults(model)).toEqual([{ node: 'node-a', vmBoot: result }]);
    expect(model.reports.filter((parse) => parse.state === 'valid' && parse.report.name === 'node-e')).toHaveLength(1);
  });

  it('clips the message as the checks are clipped, and keeps the rest of the result as written', () => {
    const cluster = healthyCluster();
    const written = vmBoot({ nodeClass: CLASS, runAt: RUN, reason: 'GuestSilent', message: `console tail: ${'x'.repeat(4000)}` });
    const [read] = canaryResults(parseSnapshot({ ...cluster, nodeValidations: [rawReport('node-a', { vmBoot: written })] }));
    expect(read?.vmBoot.message).toHaveLength(300);
    expect(read?.vmBoot.message.endsWith('…')).toBe(true);
    expect(read?.vmBoot).toEqual({ ...written, message: read?.vmBoot.message });
  });

  it('is empty when no report has a result', () => {
    expect(canaryResults(parseSnapshot(healthyCluster()))).toEqual([]);
  });
});
