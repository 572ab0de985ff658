import { describe, expect, it } from 'vitest';
import { formatBytes, formatCpu, parseQuantity } from './quantity.ts';

describe('parseQuantity (k8s.io/apimachinery resource.Quantity)', () => {
  it.each([
    ['500m', 0.5],
    ['2', 2],
    ['1.5', 1.5],
    ['2Gi', 2 * 2 ** 30],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['128Mi', 128 * 2 ** 20],
    ['1k', 1000],
    ['1M', 1e6],
    ['1e3', 1000],
    ['.5', 0.5],
    [4, 4],
  ])('%s is %d', (text, value) => {
    expect(parseQuantity(text)).toBe(value);
  });

  it.each(['lots', '1GB', '', '1 Gi', 'Gi', '--1', '1ki'])('%s is not a quantity', (text) => {
    expect(parseQuantity(text)).toBeNull();
  });

  it('shows bytes in the largest whole binary unit, and CPU as cores or millicores', () => {
    expect([formatBytes(2 * 2 ** 30), formatBytes(1536 * 2 ** 20), formatBytes(1000)]).toEqual(['2Gi', '1536Mi', '1000']);
    expect([formatCpu(4), formatCpu(0.1), formatCpu(1.25)]).toEqual(['4', '100m', '1250m']);
  });
});
