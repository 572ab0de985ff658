import { describe, expect, it } from 'vitest';
import { parseNode } from '../model/node.ts';
import { parseWorkloadPlacement } from '../model/placement.ts';
import { rawNode } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { placementSelects } from './select-nodes.ts';

function node(...args: Parameters<typeof rawNode>) {
  const parsed = parseNode(rawNode(...args));
  if (!parsed) throw new Error('fixture');
  return parsed;
}

function placement(raw: unknown) {
  const parsed = parseWorkloadPlacement(raw);
  if (parsed.state !== 'valid') throw new Error(parsed.reason);
  return parsed;
}

describe('placementSelects', () => {
  const ready = node('ready', { labels: { 'virtgate.io/ready': 'true', zone: 'a' } });
  const failing = node('failing', { labels: { 'virtgate.io/ready': 'false', zone: 'a' } });
  const tainted = node('tainted', { labels: { 'virtgate.io/ready': 'false' }, taints: [{ key: 'virtgate.io/not-ready', effect: 'NoSchedule' }] });

  it('selects every node when nodePlacement is absent, except untolerated NoSchedule taints', () => {
    const all = placement(undefined);
    expect([ready, failing, tainted].filter((item) => placementSelects(all, item)).map((item) => item.name)).toEqual(['ready', 'failing']);
  });

  it('needs the nodeSelector and the affinity and the tolerations to agree', () => {
    const selector = placement({ nodeSelector: { 'virtgate.io/ready': 'true' } });
    expect(placementSelects(selector, ready)).toBe(true);
    expect(placementSelects(selector, failing)).toBe(false);

    const affinity = placement({
      nodeSelector: { zone: 'a' },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'virtgate.io/ready', operator: 'NotIn', values: ['true'] }] }] } } },
    });
    expect(placementSelects(affinity, failing)).toBe(true);
    expect(placementSelects(affinity, ready)).toBe(false);
    expect(placementSelects(affinity, tainted)).toBe(false);

    const tolerating = placement({ tolerations: [{ key: 'virtgate.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }] });
    expect(placementSelects(tolerating, tainted)).toBe(true);
  });
});
