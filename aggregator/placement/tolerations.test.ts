import { describe, expect, it } from 'vitest';
import type { Taint } from '../model/node.ts';
import type { Toleration } from '../model/placement.ts';
import { hasUntoleratedTaint, toleratesTaint, untoleratedTaints } from './tolerations.ts';

const notReady: Taint = { key: 'virtgate.io/not-ready', value: '', effect: 'NoSchedule' };
const dedicated: Taint = { key: 'dedicated', value: 'vms', effect: 'NoExecute' };
const preferred: Taint = { key: 'soft', value: '', effect: 'PreferNoSchedule' };

function toleration(fields: Partial<Toleration>): Toleration {
  return { key: '', operator: '', value: '', effect: '', ...fields };
}

describe('toleratesTaint', () => {
  it.each([
    ['Exists on the key', toleration({ key: 'virtgate.io/not-ready', operator: 'Exists' }), notReady, true],
    ['Exists with an empty key tolerates everything', toleration({ operator: 'Exists' }), dedicated, true],
    ['Equal with the value', toleration({ key: 'dedicated', operator: 'Equal', value: 'vms' }), dedicated, true],
    ['the default operator is Equal', toleration({ key: 'dedicated', value: 'vms' }), dedicated, true],
    ['Equal with another value', toleration({ key: 'dedicated', operator: 'Equal', value: 'db' }), dedicated, false],
    ['another key', toleration({ key: 'other', operator: 'Exists' }), notReady, false],
    ['matching effect', toleration({ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }), dedicated, true],
    ['another effect', toleration({ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }), dedicated, false],
    ['an unknown operator', toleration({ key: 'dedicated', operator: 'Like', value: 'vms' }), dedicated, false],
  ])('%s', (_name, given, taint, expected) => {
    expect(toleratesTaint(given, taint)).toBe(expected);
  });
});

describe('untoleratedTaints', () => {
  it('keeps only NoSchedule / NoExecute taints nobody tolerates', () => {
    expect(untoleratedTaints([notReady, dedicated, preferred], [])).toEqual([notReady, dedicated]);
    expect(untoleratedTaints([notReady, dedicated, preferred], [toleration({ key: 'dedicated', operator: 'Exists' })])).toEqual([notReady]);
    expect(untoleratedTaints([notReady, dedicated], [toleration({ operator: 'Exists' })])).toEqual([]);
  });
});

describe('hasUntoleratedTaint', () => {
  it('says whether untoleratedTaints finds any, for every combination', () => {
    const taints = [notReady, dedicated, preferred];
    const tolerations = [toleration({ key: 'dedicated', operator: 'Exists' }), toleration({ operator: 'Exists' }), toleration({ key: 'virtgate.io/not-ready', operator: 'Exists', effect: 'NoExecute' })];
    const subsets = <T>(items: readonly T[]): T[][] => items.reduce<T[][]>((all, item) => all.concat(all.map((subset) => [...subset, item])), [[]]);
    for (const someTaints of subsets(taints)) {
      for (const someTolerations of subsets(tolerations)) {
        expect(hasUntoleratedTaint(someTaints, someTolerations)).toBe(untoleratedTaints(someTaints, someTolerations).length > 0);
      }
    }
  });
});
