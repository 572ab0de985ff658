import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { z } from 'zod';
import { durationSetting } from '../core/settings/duration.ts';
import { flagName, setting } from '../core/settings/table.ts';
import {
  allChartSettings,
  ARGS_TEMPLATE_FILE,
  argsTemplate,
  chartSchema,
  chartValueOf,
  replaceValuesRegion,
  SCHEMA_BASE_FILE,
  SCHEMA_FILE,
  VALUES_FILE,
  VALUES_REGIONS,
  valueSchema,
  valuesRegion,
} from './chart-settings.ts';
import { replaceRegion, SETTINGS_DOCS, settingsMarkdown } from './settings.ts';

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

describe('the settings tables in the docs', () => {
  it.each(SETTINGS_DOCS.map((doc) => [doc.file, doc] as const))('%s holds the table generated from the program\'s settings', (file, doc) => {
    const text = read(file);
    expect(text, `${file} is out of date: run \`npm run generate:settings\` and commit the result`).toBe(replaceRegion(text, doc.region, settingsMarkdown(doc.table)));
  });

  it('never shows a machine path as a default', () => {
    for (const doc of SETTINGS_DOCS) expect(settingsMarkdown(doc.table)).not.toContain(PACKAGE_ROOT);
  });

  it('replaces only the text between the markers', () => {
    expect(replaceRegion('a\n<!-- settings:x -->\nold\n<!-- /settings:x -->\nb', 'x', 'new')).toBe('a\n<!-- settings:x -->\nnew\n<!-- /settings:x -->\nb');
    expect(() => replaceRegion('no markers', 'x', 'new')).toThrow(/markers/);
  });
});

describe('the chart files generated from the settings tables', () => {
  const stale = (file: string) => `${file} is out of date: run \`npm run generate:settings\` and commit the result`;

  it.each(VALUES_REGIONS.map((region) => [region]))('values.yaml holds the generated %s region', (region) => {
    const text = read(VALUES_FILE);
    expect(text, stale(VALUES_FILE)).toBe(replaceValuesRegion(text, region, valuesRegion(region)));
  });

  it('values.schema.json is the base plus every setting value', () => {
    const base = JSON.parse(read(SCHEMA_BASE_FILE)) as Record<string, unknown>;
    expect(JSON.parse(read(SCHEMA_FILE)), stale(SCHEMA_FILE)).toEqual(chartSchema(base));
  });

  it('templates/_settings.tpl passes every setting value', () => {
    expect(read(ARGS_TEMPLATE_FILE), stale(ARGS_TEMPLATE_FILE)).toBe(argsTemplate());
  });

  it('keeps the base schema out of the packaged chart', () => {
    expect(read('charts/virtgate/.helmignore').split('\n')).toContain('values.schema.base.json');
  });

  it('values.yaml holds each setting value once, at its program default', () => {
    const values = parse(read(VALUES_FILE)) as Record<string, unknown>;
    const valueAt = (dotted: string) => dotted.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);
    // Hand-picked: the two the chart used to disagree on, and the shared prefix.
    expect(valueAt('agent.virtHostValidate.timeout')).toBe('30s');
    expect(valueAt('aggregator.staleAfter')).toBe('30m');
    expect(valueAt('prefix')).toBe('virtgate.io');
    for (const { value, setting } of allChartSettings()) expect(valueAt(value), value).toBe(setting.duration ? setting.defaultText : (setting.default ?? ''));
  });
});

describe('where a setting lives in the chart', () => {
  const duration = durationSetting({ flag: '--drain-wait <duration>', help: 'wait', default: '1m' });
  const flag = setting({ flag: '--loud', help: 'be loud', schema: z.boolean(), default: false });

  it('follows the table path in the program section, a duration without its Seconds suffix', () => {
    expect(chartValueOf('agent', ['drainWaitSeconds'], duration)).toBe('agent.drainWait');
    expect(chartValueOf('agent', ['watch', 'loud'], flag)).toBe('agent.watch.loud');
  });

  it('honours an explicit path, and leaves out what the chart fixes or tests only use', () => {
    expect(chartValueOf('agent', ['loud'], { ...flag, chart: 'prefix' })).toBe('prefix');
    expect(chartValueOf('agent', ['loud'], { ...flag, chart: false })).toBeUndefined();
    expect(chartValueOf('agent', ['loud'], { ...flag, hidden: true })).toBeUndefined();
  });

  it('maps the values the chart has always had to their flags', () => {
    const flags = Object.fromEntries(allChartSettings().map(({ value, setting: entry }) => [value, flagName(entry)]));
    expect(flags).toMatchObject({
      prefix: '--prefix',
      'agent.interval': '--interval',
      'agent.allowEmulation': '--allow-emulation',
      'agent.virtHostValidate.enabled': '--no-vhv',
      'agent.virtHostValidate.timeout': '--vhv-timeout',
      'agent.taint.maxShare': '--taint-max-share',
      'aggregator.staleAfter': '--stale-after',
      'aggregator.minReady': '--min-ready',
    });
    expect(Object.keys(flags)).not.toContain('agent.hostRoot');
    expect(Object.keys(flags)).not.toContain('agent.deviceNumbers');
  });

  it('gives a duration value text or seconds, within the setting bounds', () => {
    const schema = valueSchema(durationSetting({ flag: '--x <duration>', help: 'x', default: '1m', min: '10s', max: '1h' }));
    expect(schema.anyOf).toEqual([
      { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)?$' },
      { type: 'number', minimum: 10, maximum: 3600 },
    ]);
  });
});
