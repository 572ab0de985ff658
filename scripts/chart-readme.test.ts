import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CHART_README, CHART_VALUES, VALUES_REGION, valueRows, valuesMarkdown } from './chart-readme.ts';
import { replaceRegion } from './settings.ts';

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

describe("the chart README's values table", () => {
  it("matches values.yaml's comments", () => {
    const readme = read(CHART_README);
    expect(readme, `${CHART_README} is out of date: run \`npm run generate:chart-readme\` and commit the result`).toBe(
      replaceRegion(readme, VALUES_REGION, valuesMarkdown(read(CHART_VALUES))),
    );
  });

  it('has a row for every top-level group and none for a key values.yaml lacks', () => {
    const values = parse(read(CHART_VALUES)) as Record<string, unknown>;
    const keys = valueRows(read(CHART_VALUES)).map((row) => row.key);
    expect(new Set(keys.map((key) => key.split('.')[0]))).toEqual(new Set(Object.keys(values)));
    for (const key of ['global.imageRegistry', 'rbac.create', 'agent.serviceAccount.create', 'aggregator.image.registry', 'aggregator.topologySpreadConstraints', 'aggregator.httpRoute.parentRefs']) {
      expect(keys).toContain(key);
    }
    expect(keys).not.toContain('monitoring.prometheusRule.staleReportSeconds');
  });
});

describe('valueRows', () => {
  const text = [
    '# A section note, not a description.',
    'plain: 1',
    '# -- Documented, over',
    '# two lines.',
    'documented: "x"',
    '# -- Separated by a blank line: documents nothing.',
    '',
    'loose: true',
    'group:',
    '  # -- A documented map is one row with its whole default.',
    '  whole:',
    '    a: 1',
    '    b: [x]',
    '  nested:',
    '    # -- A | pipe.',
    '    leaf: 0.5',
    '  list:',
    '    - name: item',
    '      notAKey: 1',
    '  text: |',
    '    inside: a block scalar',
    '  empty: {}',
  ].join('\n');

  it('documents a key with the # -- block right above it, and every undocumented leaf', () => {
    expect(valueRows(text)).toEqual([
      { key: 'plain', type: 'int', default: '1', description: '' },
      { key: 'documented', type: 'string', default: '"x"', description: 'Documented, over two lines.' },
      { key: 'loose', type: 'bool', default: 'true', description: '' },
      { key: 'group.whole', type: 'object', default: '{"a":1,"b":["x"]}', description: 'A documented map is one row with its whole default.' },
      { key: 'group.nested.leaf', type: 'float', default: '0.5', description: 'A | pipe.' },
      { key: 'group.list', type: 'list', default: '[{"name":"item","notAKey":1}]', description: '' },
      { key: 'group.text', type: 'string', default: '"inside: a block scalar\\n"', description: '' },
      { key: 'group.empty', type: 'object', default: '{}', description: '' },
    ]);
  });

  it('escapes pipes in the Markdown cells', () => {
    expect(valuesMarkdown(text)).toContain('| `group.nested.leaf` | float | `0.5` | A \\| pipe. |');
  });
});

describe('links that survive packaging', () => {
  // A packaged chart carries no repository around it: a relative link in its README or metadata breaks.
  it('the chart README links only to absolute https URLs or its own headings', () => {
    const links = [...read(CHART_README).matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(link, link).toMatch(/^(https:\/\/|#)/);
  });

  it("Chart.yaml's icon, home, sources and links are absolute https URLs", () => {
    const chart = parse(read('charts/virtgate/Chart.yaml')) as { icon: string; home: string; sources: string[]; annotations: Record<string, string> };
    const links = parse(chart.annotations['artifacthub.io/links'] ?? '[]') as Array<{ url: string }>;
    const urls = [chart.icon, chart.home, ...chart.sources, ...links.map((link) => link.url)];
    expect(urls.length).toBeGreaterThan(4);
    for (const url of urls) expect(url, url).toMatch(/^https:\/\/github\.com\/virtgate\/virtgate|^https:\/\/raw\.githubusercontent\.com\/virtgate\/virtgate\//);
  });

  it('the icon the URL serves is in the repository at that path', () => {
    const chart = parse(read('charts/virtgate/Chart.yaml')) as { icon: string };
    const inRepository = chart.icon.replace('https://raw.githubusercontent.com/virtgate/virtgate/main/', '');
    expect(read(inRepository)).toContain('<svg');
  });
});
