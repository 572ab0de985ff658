import { describe, expect, it } from 'vitest';
import type { PruneResult } from '../../prune/prune.ts';
import { renderPrune } from './prune.ts';

const plan = (node: string, labels: string[] = []) => ({ node, labels, taints: [], annotation: labels.length > 0, condition: labels.length > 0, leftAlone: [] });

describe('renderPrune', () => {
  const result: PruneResult = {
    dryRun: false,
    nodes: [
      { node: 'a', result: 'pruned', plan: { ...plan('a', ['virtgate.io/ready']), taints: ['virtgate.io/not-ready'] } },
      { node: 'b', result: 'clean', plan: { ...plan('b'), leftAlone: [{ key: 'virtgate.io/x', kind: 'label', why: 'not recorded as owned' }] } },
      { node: 'c', result: 'failed', plan: plan('c', ['virtgate.io/tier']), error: 'HTTP 403: forbidden' },
      { node: 'd', result: 'gone', plan: plan('d', ['virtgate.io/tier']) },
    ],
    nodeValidations: { deleted: ['a'], failed: [{ name: 'c', error: 'HTTP 500: boom' }] },
  };

  it('says per node and per NodeValidation what happened, then sums up', () => {
    expect(renderPrune(result).split('\n')).toEqual([
      'node a: removed labels virtgate.io/ready; taints virtgate.io/not-ready; the ownership annotation; condition VirtualizationReady',
      'node b: nothing to remove; left alone: label virtgate.io/x (not recorded as owned)',
      'node c: FAILED to remove labels virtgate.io/tier; the ownership annotation; condition VirtualizationReady: HTTP 403: forbidden',
      'node d: deleted meanwhile',
      'nodevalidation a: deleted',
      'nodevalidation c: FAILED to delete: HTTP 500: boom',
      'virtgate prune: 1 of 4 nodes cleaned, 1 failed; 1 NodeValidations deleted, 1 failed',
      '',
    ]);
  });

  it('says "would" in a dry run', () => {
    const text = renderPrune({ ...result, dryRun: true });
    expect(text).toContain('node a: would remove labels virtgate.io/ready');
    expect(text).toContain('nodevalidation a: would delete');
    expect(text).toContain('virtgate prune (dry run): 1 of 4 nodes to clean, 1 failed; 1 NodeValidations to delete, 1 failed');
  });
});
