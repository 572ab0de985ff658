import { describe, expect, it } from 'vitest';
import { AGGREGATOR_DEFAULTS, gateConfigOf, parseAggregatorConfig } from './config.ts';
import { DEFAULT_GATE_CONFIG } from './model/config.ts';

const valid = { ...AGGREGATOR_DEFAULTS };

describe('aggregator configuration', () => {
  it('accepts the defaults, which give the gate its documented defaults', () => {
    expect(parseAggregatorConfig(valid)).toMatchObject(valid);
    expect(gateConfigOf(parseAggregatorConfig(valid))).toEqual(DEFAULT_GATE_CONFIG);
  });

  it.each([
    [{ minReady: 2.5 }, '--min-ready: must be a whole number'],
    [{ minReady: 0 }, '--min-ready:'],
    [{ staleAfterSeconds: 10 }, '--stale-after: must be at least 60 s'],
    [{ prefix: 'kubevirt.io' }, '--prefix: must be a DNS subdomain'],
    [{ prefix: 'Virtgate.IO' }, '--prefix:'],
    [{ port: 70_000 }, '--port:'],
    [{ logLevel: 'verbose' }, '--log-level:'],
    [{ eolWarnDays: -1 }, '--eol-warn-days:'],
    [{ requestTimeoutSeconds: 0 }, '--request-timeout:'],
  ])('rejects %j naming the flag in one line', (change, message) => {
    let error: unknown;
    try {
      parseAggregatorConfig({ ...valid, ...change });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

});
