import { describe, expect, it } from 'vitest';
import { durationSetting, secondsOf } from './duration.ts';

describe('a duration setting', () => {
  const interval = durationSetting({ flag: '--interval <duration>', help: 'how often', default: '5m', min: '10s', max: '1d' });

  it('derives the seconds and the help text from one default', () => {
    expect(interval.default).toBe(300);
    expect(interval.defaultText).toBe('5m');
    expect(durationSetting({ flag: '--base <duration>', help: 'b', default: '500ms' }).default).toBe(0.5);
  });

  it('reads flag text as seconds', () => {
    expect(interval.parse?.('90s')).toBe(90);
    expect(interval.parse?.('120')).toBe(120);
    expect(() => interval.parse?.('soon')).toThrow(/duration/);
  });

  it('enforces its bounds in seconds', () => {
    expect(interval.schema.safeParse(9).success).toBe(false);
    expect(interval.schema.safeParse(10).success).toBe(true);
    expect(interval.schema.safeParse(86_401).success).toBe(false);
    expect(interval.schema.safeParse(5).error?.issues[0]?.message).toBe('must be at least 10 s');
  });

  it('refuses a default it cannot read, when the table loads', () => {
    expect(() => secondsOf('five minutes' as '5m')).toThrow(/not a duration/);
  });
});
