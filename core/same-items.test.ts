import { describe, expect, it } from 'vitest';
import { sameItems } from './same-items.ts';

describe('sameItems', () => {
  const x = { n: 1 };
  const y = { n: 2 };
  it('compares whole lists by identity and order', () => {
    expect(sameItems([x, y], [x, y])).toBe(true);
    expect(sameItems([x, y], [y, x])).toBe(false);
    expect(sameItems([x], [x, y])).toBe(false);
    expect(sameItems([{ n: 1 }], [x])).toBe(false);
    expect(sameItems([], [])).toBe(true);
  });
  it('compares with a range of the second list', () => {
    const list = [y, x, y, x];
    expect(sameItems([x, y], list, 1, 3)).toBe(true);
    expect(sameItems([x, y], list, 0, 2)).toBe(false);
    expect(sameItems([x], list, 1, 3)).toBe(false);
    expect(sameItems([], list, 2, 2)).toBe(true);
    expect(sameItems([x], list, 3)).toBe(true);
  });
});
