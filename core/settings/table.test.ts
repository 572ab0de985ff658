import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSettings, pick, setting, settingsOf, SettingsError } from './table.ts';

const TABLE = {
  nodeName: setting({ flag: '--node-name <name>', help: 'the node', schema: z.string().min(1), env: 'NODE_NAME' }),
  interval: setting({ flag: '--interval <seconds>', help: 'how often', schema: z.number().min(10), parse: Number, default: 300, env: 'INTERVAL' }),
  taint: {
    effect: setting({ flag: '--taint-effect <effect>', help: 'effect', schema: z.enum(['NoSchedule', 'NoExecute']), default: 'NoSchedule' }),
    key: setting({ flag: '--taint-key <key>', help: 'key', schema: z.string().optional() }),
  },
};

describe('a settings table', () => {
  const settings = defineSettings(TABLE, (config, ctx) => {
    if (config.taint.effect === 'NoExecute' && !config.taint.key) ctx.addIssue({ code: 'custom', path: ['taint', 'key'], message: 'needs a key' });
  });

  it('derives nested defaults, leaving out settings without one', () => {
    expect(settings.defaults).toEqual({ interval: 300, taint: { effect: 'NoSchedule' } });
  });

  it('lists every setting with its path in the configuration', () => {
    expect(settingsOf(TABLE).map(({ path }) => path.join('.'))).toEqual(['nodeName', 'interval', 'taint.effect', 'taint.key']);
  });

  it('validates into the nested configuration', () => {
    expect(settings.parse({ nodeName: 'a', ...settings.defaults })).toEqual({ nodeName: 'a', interval: 300, taint: { effect: 'NoSchedule' } });
  });

  it.each([
    [{ interval: 300, taint: { effect: 'NoSchedule' } }, /^--node-name \/ NODE_NAME: /],
    [{ nodeName: 'a', interval: 5, taint: { effect: 'NoSchedule' } }, /^--interval: /],
    [{ nodeName: 'a', interval: 300, taint: { effect: 'Sometimes' } }, /^--taint-effect: /],
    [{ nodeName: 'a', interval: 300, taint: { effect: 'NoExecute' } }, /^--taint-key: needs a key$/],
  ])('names the first bad setting as the user spells it, in one line: %j', (input, message) => {
    expect(() => settings.parse(input)).toThrow(SettingsError);
    expect(() => settings.parse(input)).toThrow(message);
  });

  it('picks entries into another program\'s table in the order asked', () => {
    expect(Object.keys(pick(TABLE, ['taint', 'interval']))).toEqual(['taint', 'interval']);
  });
});
