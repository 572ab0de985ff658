import { describe, expect, it } from 'vitest';
import { parseWorkloadPlacement } from './placement.ts';

describe('parseWorkloadPlacement', () => {
  it('treats an absent placement as selecting every node', () => {
    expect(parseWorkloadPlacement(undefined)).toEqual({ state: 'valid', nodeSelector: {}, requiredTerms: null, tolerations: [] });
    expect(parseWorkloadPlacement({})).toEqual({ state: 'valid', nodeSelector: {}, requiredTerms: null, tolerations: [] });
  });

  it('reads selector, required terms and tolerations with Kubernetes defaults', () => {
    expect(
      parseWorkloadPlacement({
        nodeSelector: { 'virtgate.io/ready': 'true' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Exists' }] }] },
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
          },
        },
        tolerations: [{ operator: 'Exists' }],
      }),
    ).toEqual({
      state: 'valid',
      nodeSelector: { 'virtgate.io/ready': 'true' },
      requiredTerms: [{ matchExpressions: [{ key: 'k', operator: 'Exists', values: [] }], matchFields: [] }],
      tolerations: [{ key: '', operator: 'Exists', value: '', effect: '' }],
    });
  });

  it.each([
    ['a string', 'everywhere'],
    ['a nodeSelector with a number', { nodeSelector: { a: 1 } }],
    ['terms that are not a list', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: 'x' } } } }],
    ['a toleration with a numeric key', { tolerations: [{ key: 3 }] }],
  ])('marks %s invalid rather than guess', (_name, raw) => {
    expect(parseWorkloadPlacement(raw).state).toBe('invalid');
  });
});
