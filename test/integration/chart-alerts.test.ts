import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { findManifest, renderChart } from '../chart/helm.ts';
import { useControlPlane } from '../controlplane/client.ts';

const run = promisify(execFile);
const cp = useControlPlane();
const PROMTOOL = '/usr/bin/promtool';
const PROMTEST = path.join(PACKAGE_ROOT, 'test/chart/alerts.promtest.yaml');
const METRICS_DOC = path.join(PACKAGE_ROOT, 'docs/metrics.md');

interface RuleGroup {
  name: string;
  rules: Array<{ alert?: string; record?: string; expr: string }>;
}

async function promtool(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(PROMTOOL, args, { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT') throw new Error(`${PROMTOOL} is missing: apt-get install prometheus (.ci/run does this)`);
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function renderedRuleGroups(): Promise<RuleGroup[]> {
  const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true']);
  return findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups;
}

/** Metric names an expression reads (a histogram's series map to the histogram). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\bvirtgate_[a-z_]+/g)].map((match) => match[0].replace(/_(bucket|sum|count)$/, ''));
}

describe('the PrometheusRule', () => {
  it('is off by default', async () => {
    const objects = await renderChart(cp.binDir);
    expect(objects.some((object) => object.kind === 'PrometheusRule')).toBe(false);
  });

  it('passes promtool check rules, and promtool test rules proves each alert fires and stays quiet', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'virtgate-alerts-'));
    const groups = await renderedRuleGroups();
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
    const check = await promtool(['check', 'rules', 'rules.yaml'], dir);
    expect(check.output).toContain('SUCCESS: 7 rules found');
    expect(check.code).toBe(0);

    await copyFile(PROMTEST, path.join(dir, 'alerts.promtest.yaml'));
    const test = await promtool(['test', 'rules', 'alerts.promtest.yaml'], dir);
    expect(test.output).toContain('SUCCESS');
    expect(test.code).toBe(0);

    // Every alert the chart ships has a case that fires and a case that stays quiet.
    const cases = (parse(await readFile(PROMTEST, 'utf8')) as {
      tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
    }).tests.flatMap((test) => test.alert_rule_test);
    const alerts = groups.flatMap((group) => group.rules.map((rule) => rule.alert ?? ''));
    expect(alerts).toEqual([
      'VirtgateGateFailing',
      'VirtgateTooFewReadyNodes',
      'VirtgateNodeNotReady',
      'VirtgateReportStale',
      'VirtgateKubernetesEndOfLifeApproaching',
      'VirtgateKubernetesPastEndOfLife',
      'VirtgateMetricsAbsent',
    ]);
    for (const alert of alerts) {
      expect(cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0), `${alert} fires somewhere`).toBe(true);
      expect(cases.some((c) => c.alertname === alert && c.exp_alerts.length === 0), `${alert} stays quiet somewhere`).toBe(true);
    }
  });

  it('a broken expectation makes promtool test rules fail (the test above can fail)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'virtgate-alerts-'));
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups: await renderedRuleGroups() }));
    const broken = (await readFile(PROMTEST, 'utf8')).replace('end of life in 45 days', 'end of life in 46 days');
    await writeFile(path.join(dir, 'alerts.promtest.yaml'), broken);
    const test = await promtool(['test', 'rules', 'alerts.promtest.yaml'], dir);
    expect(test.code).not.toBe(0);
    expect(test.output).toContain('VirtgateKubernetesEndOfLifeApproaching');
  });

  it('takes its thresholds from values', async () => {
    const objects = await renderChart(cp.binDir, [
      '--set', 'monitoring.prometheusRule.enabled=true',
      '--set', 'monitoring.prometheusRule.eolWarningDays=30',
      '--set', 'monitoring.prometheusRule.staleReportSeconds=600',
      '--set', 'aggregator.minReady=4',
      '--set', 'monitoring.prometheusRule.for.gateFailing=5m',
    ]);
    const rules = findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups[0]?.rules ?? [];
    const byName = (name: string) => rules.find((rule) => rule.alert === name) as { expr: string; for: string };
    expect(byName('VirtgateKubernetesEndOfLifeApproaching').expr).toContain('virtgate_kubernetes_eol_days < 30');
    expect(byName('VirtgateReportStale').expr).toBe('virtgate_report_age_seconds > 600');
    expect(byName('VirtgateTooFewReadyNodes').expr).toContain('< 4');
    expect(byName('VirtgateGateFailing').for).toBe('5m');
  });
});

describe('the metric contract (docs/metrics.md)', () => {
  it('names every metric the alerts and the dashboard read; the dashboard queries parse', async () => {
    const doc = await readFile(METRICS_DOC, 'utf8');
    const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', '--set', 'monitoring.grafanaDashboard.enabled=true']);
    const alertExprs = findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups.flatMap((g) => g.rules.map((r) => r.expr));
    const dashboard = JSON.parse(findManifest<V1ConfigMap>(objects, 'ConfigMap', 'virtgate-dashboard').data?.['virtgate.json'] ?? '{}') as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const dashboardExprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    expect(dashboardExprs.length).toBeGreaterThan(8);

    const used = new Set([...alertExprs, ...dashboardExprs].flatMap(metricNames));
    expect(used.size).toBeGreaterThan(8);
    for (const name of used) expect(doc, `${name} is documented in docs/metrics.md`).toContain(`\`${name}`);

    // promtool parses each dashboard query as a recording rule.
    const dir = await mkdtemp(path.join(tmpdir(), 'virtgate-dashboard-'));
    const records = dashboardExprs.map((expr, index) => ({ record: `virtgate:dashboard:query_${index}`, expr }));
    await writeFile(path.join(dir, 'dashboard.yaml'), stringify({ groups: [{ name: 'dashboard', rules: records }] }));
    const check = await promtool(['check', 'rules', 'dashboard.yaml'], dir);
    expect(check.output).toContain(`SUCCESS: ${records.length} rules found`);
  });
});
