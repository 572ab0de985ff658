import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { AGENT_SETTINGS, agentSettings } from '../../agent/config.ts';
import { addSettings, configOf, inputOf } from './flags.ts';
import { UsageError } from '../usage-error.ts';

function parsed(argv: string[], env: Record<string, string> = {}): Record<string, unknown> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const command = addSettings(new Command('agent'), agentSettings).exitOverride();
    command.parse(argv, { from: 'user' });
    return command.opts();
  } finally {
    process.env = saved;
  }
}

describe('settings as flags', () => {
  it('puts each flag where the table says, nested, and fills the defaults', () => {
    const config = configOf(agentSettings, parsed(['--node-name', 'n1', '--taint-max-share', '25%', '--no-vhv', '--interval', '10m', '--heartbeat', '1h']));
    expect(config).toMatchObject({ nodeName: 'n1', intervalSeconds: 600, heartbeatSeconds: 3600, taint: { maxShare: 0.25, policy: 'off' }, vhv: { enabled: false } });
    expect(config.requestTimeoutSeconds).toBe(15);
  });

  it('reads environment variables through the same parser and validation', () => {
    expect(configOf(agentSettings, parsed([], { NODE_NAME: 'from-env', VIRTGATE_PREFIX: 'example.com' }))).toMatchObject({ nodeName: 'from-env', prefix: 'example.com' });
    expect(() => configOf(agentSettings, parsed(['--node-name', 'n1'], { VIRTGATE_LOG_LEVEL: 'loud' }))).toThrow(/^--log-level: /);
  });

  it('turns a bad setting into a usage error naming the flag', () => {
    expect(() => configOf(agentSettings, parsed(['--node-name', 'n1', '--jitter', '0.9']))).toThrow(UsageError);
    expect(() => configOf(agentSettings, parsed(['--node-name', 'n1', '--jitter', '0.9']))).toThrow(/^--jitter: /);
  });

  it('leaves out settings not given, so optional ones stay absent', () => {
    expect(inputOf(AGENT_SETTINGS, { nodeName: 'n1' })).toEqual({ nodeName: 'n1', policy: {}, vhv: {}, taint: {}, watch: {} });
  });
});
