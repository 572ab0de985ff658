import { describe, expect, it } from 'vitest';
import { parseNode } from '../model/node.ts';
import type { NodeModel } from '../model/node.ts';
import type { NodeSelectorTerm } from '../model/placement.ts';
import { rawNode } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { matchesNodeSelector, matchesRequiredTerms, matchesRequirement, matchesTerm } from './node-selector.ts';

const labels = { zone: 'a', 'virtgate.io/ready': 'true', cores: '16', empty: '' };

function node(name: string, nodeLabels: Record<string, string>): NodeModel {
  const parsed = parseNode(rawNode(name, { labels: nodeLabels }));
  if (!parsed) throw new Error('fixture');
  return parsed;
}

describe('matchesRequirement', () => {
  it.each([
    ['In, value listed', { key: 'zone', operator: 'In', values: ['a', 'b'] }, true],
    ['In, value not listed', { key: 'zone', operator: 'In', values: ['b'] }, false],
    ['In, key absent', { key: 'rack', operator: 'In', values: ['a'] }, false],
    ['In, no values (invalid)', { key: 'zone', operator: 'In', values: [] }, false],
    ['NotIn, value listed', { key: 'zone', operator: 'NotIn', values: ['a'] }, false],
    ['NotIn, value not listed', { key: 'zone', operator: 'NotIn', values: ['b'] }, true],
    ['NotIn, key absent', { key: 'rack', operator: 'NotIn', values: ['a'] }, true],
    ['Exists', { key: 'empty', operator: 'Exists', values: [] }, true],
    ['Exists, key absent', { key: 'rack', operator: 'Exists', values: [] }, false],
    ['Exists with values (invalid)', { key: 'zone', operator: 'Exists', values: ['a'] }, false],
    ['DoesNotExist, key absent', { key: 'rack', operator: 'DoesNotExist', values: [] }, true],
    ['DoesNotExist, key present', { key: 'zone', operator: 'DoesNotExist', values: [] }, false],
    ['Gt, greater', { key: 'cores', operator: 'Gt', values: ['8'] }, true],
    ['Gt, equal', { key: 'cores', operator: 'Gt', values: ['16'] }, false],
    ['Lt, smaller', { key: 'cores', operator: 'Lt', values: ['32'] }, true],
    ['Lt, label not a number', { key: 'zone', operator: 'Lt', values: ['32'] }, false],
    ['Gt, two values (invalid)', { key: 'cores', operator: 'Gt', values: ['1', '2'] }, false],
    ['Gt, bound not a number', { key: 'cores', operator: 'Gt', values: ['x'] }, false],
    ['Gt, bound beyond int64', { key: 'cores', operator: 'Gt', values: ['-9223372036854775809'] }, false],
    ['Gt, negative bound', { key: 'cores', operator: 'Gt', values: ['-3'] }, true],
    ['unknown operator', { key: 'zone', operator: 'Equals', values: ['a'] }, false],
  ])('%s', (_name, requirement, expected) => {
    expect(matchesRequirement(labels, requirement)).toBe(expected);
  });

  it('does not see inherited properties as labels', () => {
    expect(matchesRequirement({}, { key: 'toString', operator: 'Exists', values: [] })).toBe(false);
    expect(matchesNodeSelector({}, { constructor: 'x' })).toBe(false);
  });
});

describe('matchesNodeSelector', () => {
  it('needs every key with exactly its value; empty selects all', () => {
    expect(matchesNodeSelector(labels, {})).toBe(true);
    expect(matchesNodeSelector(labels, { zone: 'a', 'virtgate.io/ready': 'true' })).toBe(true);
    expect(matchesNodeSelector(labels, { zone: 'a', 'virtgate.io/ready': 'false' })).toBe(false);
    expect(matchesNodeSelector(labels, { rack: '' })).toBe(false);
  });
});

describe('required node affinity terms', () => {
  const gpu = node('gpu-1', { zone: 'a', gpu: 'yes' });
  const plain = node('plain-1', { zone: 'b' });
  const zoneA: NodeSelectorTerm = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }], matchFields: [] };
  const noGpu: NodeSelectorTerm = { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist', values: [] }], matchFields: [] };

  it('ORs terms', () => {
    expect(matchesRequiredTerms(gpu, [zoneA, noGpu])).toBe(true);
    expect(matchesRequiredTerms(plain, [zoneA, noGpu])).toBe(true);
    expect(matchesRequiredTerms(plain, [zoneA])).toBe(false);
  });

  it('ANDs the expressions of a term', () => {
    const both: NodeSelectorTerm = { matchExpressions: [...zoneA.matchExpressions, ...noGpu.matchExpressions], matchFields: [] };
    expect(matchesTerm(gpu, both)).toBe(false);
    expect(matchesTerm(node('x', { zone: 'a' }), both)).toBe(true);
  });

  it('matches nothing with an empty term or an empty term list, and everything without affinity', () => {
    expect(matchesTerm(gpu, { matchExpressions: [], matchFields: [] })).toBe(false);
    expect(matchesRequiredTerms(gpu, [])).toBe(false);
    expect(matchesRequiredTerms(gpu, null)).toBe(true);
  });

  it('supports matchFields on metadata.name only', () => {
    const byName: NodeSelectorTerm = { matchExpressions: [], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-1'] }] };
    expect(matchesTerm(gpu, byName)).toBe(true);
    expect(matchesTerm(plain, byName)).toBe(false);
    expect(matchesTerm(gpu, { matchExpressions: [], matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['uid-gpu-1'] }] })).toBe(false);
    expect(matchesTerm(gpu, { matchExpressions: [], matchFields: [{ key: 'metadata.name', operator: 'Exists', values: [] }] })).toBe(false);
  });
});
