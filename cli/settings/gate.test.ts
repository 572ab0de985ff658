import { describe, expect, it } from 'vitest';
import { AGGREGATOR_DEFAULTS } from '../../aggregator/config.ts';
import { gateSettings } from './gate.ts';

describe('gate settings', () => {
  it('validates the gate command its own way: no server settings needed', () => {
    const { port: _port, bindAddress: _bind, logLevel: _level, watch: _watch, perNodeMetrics: _perNode, shutdownDrainSeconds: _drain, ...gateOnly } = AGGREGATOR_DEFAULTS;
    expect(gateSettings.parse({ ...gateOnly, json: false })).toMatchObject({ minReady: 2, staleAfterSeconds: 1800 });
    expect(() => gateSettings.parse({ ...gateOnly, json: false, minReady: -3 })).toThrow(/^--min-ready:/);
  });

  it('has the aggregator\'s defaults for the settings they share, the request timeout too', () => {
    const { port: _port, bindAddress: _bind, logLevel: _level, watch: _watch, perNodeMetrics: _perNode, shutdownDrainSeconds: _drain, ...gateOnly } = AGGREGATOR_DEFAULTS;
    expect(gateSettings.defaults).toMatchObject(gateOnly);
    expect(gateSettings.defaults.requestTimeoutSeconds).toBe(30);
  });
});
