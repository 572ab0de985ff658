import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CHART_VALUES, replaceRegion, SETTINGS_DOCS, settingAt, settingsMarkdown } from './settings.ts';

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

describe('the chart values that feed a setting', () => {
  const values = parse(read('charts/virtgate/values.yaml')) as Record<string, unknown>;
  const valueAt = (dotted: string) => dotted.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);

  it.each(CHART_VALUES.map((entry) => [entry.value, entry] as const))('%s defaults to the program\'s default', (_value, entry) => {
    const setting = settingAt(entry.table, entry.setting);
    // A duration is written in values.yaml as its text (`5m`) or, for a `...Seconds` value, as seconds.
    expect([setting.default, setting.defaultText]).toContainEqual(valueAt(entry.value));
  });
});
