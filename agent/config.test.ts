import { describe, expect, it } from 'vitest';
import { AGENT_DEFAULTS, parseAgentConfig } from './config.ts';

const valid = { ...AGENT_DEFAULTS, nodeName: 'node-a', vhv: { ...AGENT_DEFAULTS.vhv }, taint: { ...AGENT_DEFAULTS.taint } };

describe('agent configuration', () => {
  it('accepts the defaults with a node name', () => {
    expect(parseAgentConfig(valid).nodeName).toBe('node-a');
  });
  it('has the watch timings and the shutdown grace of the chart\'s pod', () => {
    expect(parseAgentConfig(valid)).toMatchObject({
      watch: { timeoutSeconds: 300, staleAfterSeconds: 360, backoffBaseSeconds: 1, backoffMaxSeconds: 30 },
      shutdownGraceSeconds: 20,
    });
  });
  it('runs kvm.run unless --no-kvm-run turns it off', () => {
    expect(parseAgentConfig(valid).kvmRun).toBe(true);
    expect(parseAgentConfig({ ...valid, kvmRun: false }).kvmRun).toBe(false);
  });
  it.each([
    [{ nodeName: '' }, /^--node-name \/ NODE_NAME: /],
    [{ nodeName: 'Node_A' }, /^--node-name/],
    [{ prefix: 'kubevirt.io' }, /^--prefix: /],
    [{ prefix: 'node.kubernetes.io' }, /^--prefix: /],
    [{ intervalSeconds: 1 }, /^--interval: must be at least 10 s/],
    [{ heartbeatSeconds: 30 }, /^--heartbeat: /],
    [{ intervalSeconds: 900, heartbeatSeconds: 600 }, /^--heartbeat: must not be shorter than the probe interval/],
    [{ taint: { ...valid.taint, effect: 'NoExecute' } }, /^--taint-effect: NoExecute evicts running pods/],
    [{ taint: { ...valid.taint, policy: 'bootstrap' } }, /^--bootstrap-taint-key: /],
    [{ taint: { ...valid.taint, policy: 'sometimes' } }, /^--taint-policy: /],
    [{ taint: { ...valid.taint, poolSelector: 'a=(b' } }, /^--taint-pool-selector: is not a label selector/],
    [{ logLevel: 'loud' }, /^--log-level: /],
    [{ shutdownGraceSeconds: 26 }, /^--shutdown-grace: must be at most 25 s/],
    [{ shutdownGraceSeconds: 0.5 }, /^--shutdown-grace: must be at least 1 s/],
    [{ watch: { ...valid.watch, timeoutSeconds: 600 } }, /^--watch-stale-after: must be longer than --watch-timeout/],
    [{ watch: { ...valid.watch, backoffMaxSeconds: 0.5 } }, /^--watch-backoff-max: /],
  ])('rejects %o with one line naming the flag', (change, message) => {
    expect(() => parseAgentConfig({ ...valid, ...change })).toThrow(message);
    try {
      parseAgentConfig({ ...valid, ...change });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('\n');
    }
  });
  it('accepts equality and set-based pool selectors', () => {
    for (const selector of ['pool=vm', 'pool==vm,zone!=a', 'env in (prod, staging)', '!legacy', 'node-role.kubernetes.io/worker']) {
      expect(parseAgentConfig({ ...valid, taint: { ...valid.taint, poolSelector: selector } }).taint.poolSelector).toBe(selector);
    }
  });
});
