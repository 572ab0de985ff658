import { describe, expect, it } from 'vitest';
import { compareMinor, minorOf } from './minor.ts';

describe('minorOf', () => {
  it.each([
    ['v1.35.2', '1.35'],
    ['v1.35.2-eks-4f2a9b1', '1.35'],
    ['v1.36.3-eks-abc123', '1.36'],
    ['v1.31.4+k3s1', '1.31'],
    ['v1.33.1-gke.1584000', '1.33'],
    ['1.7', '1.7'],
    ['v1.7.0-rc.1', '1.7'],
    ['1.64.0', '1.64'],
  ])('reads %s as %s', (input, expected) => {
    expect(minorOf(input)).toBe(expected);
  });

  it.each([[''], ['latest'], ['1'], ['v2'], [135], [null], [undefined], [{ gitVersion: 'v1.35.0' }], [`v1.35.0${'x'.repeat(300)}`]])(
    'gives null for %j',
    (input) => {
      expect(minorOf(input)).toBeNull();
    },
  );
});

describe('compareMinor', () => {
  it('orders numerically, not as text', () => {
    expect(compareMinor('1.9', '1.10')).toBeLessThan(0);
    expect(compareMinor('1.35', '1.35')).toBe(0);
    expect(['1.10', '1.9', '1.25', '2.0'].sort(compareMinor)).toEqual(['1.9', '1.10', '1.25', '2.0']);
  });
});
