import { execFile } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { CHART_DIR, findManifest, helm, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const tempDir = useTempDirs();

const run = promisify(execFile);
const cp = useControlPlane();
const PROMTOOL = '/usr/bin/promtool';
const PROMTEST = path.join(PACKAGE_ROOT, 'test/lab/chart/alerts.promtest.yaml');
const METRICS_DOC = path.join(PACKAGE_ROOT, 'docs/metrics.md');
const RUNBOOK = path.join(PACKAGE_ROOT, 'docs/runbook.md');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleGroup {
  name: string;
  rules: Rule[];
}

async function rulesWith(args: string[]): Promise<Rule[]> {
  const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', ...args]);
  return findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups.flatMap((group) => group.rules);
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

/** The rules alerts.promtest.yaml runs against: the defaults, without runbook_url (checked on its own below). */
async function renderedRuleGroups(): Promise<RuleGroup[]> {
  const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', '--set', 'monitoring.prometheusRule.runbookUrl=']);
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
    const dir = await tempDir('virtgate-alerts-');
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
    const dir = await tempDir('virtgate-alerts-');
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups: await renderedRuleGroups() }));
    const broken = (await readFile(PROMTEST, 'utf8')).replace('end of life in 45 days', 'end of life in 46 days');
    await writeFile(path.join(dir, 'alerts.promtest.yaml'), broken);
    const test = await promtool(['test', 'rules', 'alerts.promtest.yaml'], dir);
    expect(test.code).not.toBe(0);
    expect(test.output).toContain('VirtgateKubernetesEndOfLifeApproaching');
  });

  it('the two-replica cases catch a rule that adds the replicas up (the old sum(...))', async () => {
    const dir = await tempDir('virtgate-alerts-');
    const groups = await renderedRuleGroups();
    const tooFew = groups[0]?.rules.find((rule) => rule.alert === 'VirtgateTooFewReadyNodes');
    if (!tooFew) throw new Error('no VirtgateTooFewReadyNodes rule');
    // The old rule, keeping the labels the new one keeps, so only the replica arithmetic differs.
    tooFew.expr = 'sum by (namespace, job) (virtgate_cluster_nodes{state=~"ready|emulation"}) < 2';
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
    await copyFile(PROMTEST, path.join(dir, 'alerts.promtest.yaml'));
    const test = await promtool(['test', 'rules', 'alerts.promtest.yaml'], dir);
    expect(test.code).not.toBe(0);
    // Exactly one expectation fails: two replicas seeing 1 ready node each, which the sum takes for 2.
    expect(test.output.match(/alertname: /g)).toHaveLength(1);
    expect(test.output).toContain('alertname: VirtgateTooFewReadyNodes, time: 20m');
    expect(test.output).toMatch(/summary="Only 1 nodes can run KubeVirt VMs\."\}\s*\],\s*got:\[\]/);
  });

  it('takes its thresholds from values', async () => {
    const objects = await renderChart(cp.binDir, [
      '--set', 'monitoring.prometheusRule.enabled=true',
      '--set', 'monitoring.prometheusRule.eolWarningDays=30',
      '--set', 'aggregator.staleAfter=10m',
      '--set', 'aggregator.minReady=4',
      '--set', 'monitoring.prometheusRule.for.gateFailing=5m',
    ]);
    const rules = findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups[0]?.rules ?? [];
    const byName = (name: string) => rules.find((rule) => rule.alert === name) as { expr: string; for: string };
    expect(byName('VirtgateKubernetesEndOfLifeApproaching').expr).toContain('ceil((max by (namespace, job) (virtgate_kubernetes_eol_timestamp_seconds) - time()) / 86400) < 30');
    expect(byName('VirtgateReportStale').expr).toBe('time() - max by (namespace, job, node) (virtgate_node_report_timestamp_seconds) > 600');
    expect(byName('VirtgateTooFewReadyNodes').expr).toContain('< 4');
    expect(byName('VirtgateGateFailing').for).toBe('5m');
  });

  it("VirtgateReportStale's threshold is aggregator.staleAfter, in seconds, whatever its unit", async () => {
    const threshold = async (staleAfter: string) =>
      (await rulesWith(['--set-string', `aggregator.staleAfter=${staleAfter}`])).find((rule) => rule.alert === 'VirtgateReportStale')?.expr.split(' > ')[1];
    const cases: Array<[string, string]> = [['30m', '1800'], ['45m', '2700'], ['1.5h', '5400'], ['2d', '172800'], ['90', '90'], ['90s', '90'], ['2500ms', '2.5']];
    for (const [staleAfter, seconds] of cases) expect(await threshold(staleAfter), staleAfter).toBe(seconds);
    // The default: the aggregator's own 30m.
    expect((await rulesWith([])).find((rule) => rule.alert === 'VirtgateReportStale')?.expr).toBe(
      'time() - max by (namespace, job, node) (virtgate_node_report_timestamp_seconds) > 1800',
    );
  });

  it('with aggregator.staleAfter raised, promtool sees VirtgateReportStale fire later (the default rules fire earlier on the same series)', async () => {
    // A heartbeat that stopped 1700 s before 0m: older than 45m (2700 s) from 16m40s, so with the
    // 15m `for` the alert fires from 31m40s; with the default 30m it fires from 17m.
    const promtest = stringify({
      rule_files: ['rules.yaml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [{ series: 'virtgate_node_report_timestamp_seconds{job="virtgate", node="w1"}', values: '-1700x50' }],
          alert_rule_test: [
            { eval_time: '30m', alertname: 'VirtgateReportStale', exp_alerts: [] },
            {
              eval_time: '35m',
              alertname: 'VirtgateReportStale',
              exp_alerts: [
                {
                  exp_labels: { severity: 'warning', job: 'virtgate', node: 'w1' },
                  exp_annotations: {
                    summary: "virtgate's report of node w1 is stale.",
                    description: 'The agent on w1 has not refreshed its NodeValidation for 1h 3m 20s: is its pod running?',
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    const runWith = async (args: string[]) => {
      const dir = await tempDir('virtgate-alerts-');
      const groups = findManifest<{ spec: { groups: RuleGroup[] } }>(
        await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', '--set', 'monitoring.prometheusRule.runbookUrl=', ...args]),
        'PrometheusRule',
      ).spec.groups;
      await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
      await writeFile(path.join(dir, 'stale.promtest.yaml'), promtest);
      return promtool(['test', 'rules', 'stale.promtest.yaml'], dir);
    };
    const raised = await runWith(['--set', 'aggregator.staleAfter=45m']);
    expect(raised.output).toContain('SUCCESS');
    expect(raised.code).toBe(0);
    const defaults = await runWith([]);
    expect(defaults.code).not.toBe(0);
    expect(defaults.output).toContain('alertname: VirtgateReportStale, time: 30m');
  });

  it('refuses the old monitoring.prometheusRule.staleReportSeconds, naming it', async () => {
    const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--set', 'monitoring.prometheusRule.staleReportSeconds=600']);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain("additional properties 'staleReportSeconds' not allowed");
  });
});

describe('the PrometheusRule extension points', () => {
  it('links every alert to its own section of docs/runbook.md, which says what it means, how to check and how to fix', async () => {
    const rules = await rulesWith([]);
    const runbook = await readFile(RUNBOOK, 'utf8');
    // GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped.
    const anchors = new Set([...runbook.matchAll(/^## (.+)$/gm)].map((match) => (match[1] ?? '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    expect(rules.length).toBe(7);
    for (const rule of rules) {
      const url = rule.annotations?.runbook_url ?? '';
      expect(url, rule.alert).toBe(`https://github.com/virtgate/virtgate/blob/main/docs/runbook.md#${(rule.alert ?? '').toLowerCase()}`);
      const anchor = url.split('#')[1] ?? '';
      expect(anchors.has(anchor), `docs/runbook.md has a section for ${rule.alert}`).toBe(true);
      const section = runbook.split(/^## /m).find((part) => part.startsWith(`${rule.alert}\n`)) ?? '';
      for (const heading of ['What it means', 'How to check', 'How to fix']) expect(section, `${rule.alert}: ${heading}`).toContain(`**${heading}**`);
    }
    const own = await rulesWith(['--set', 'monitoring.prometheusRule.runbookUrl=https://wiki.example.com/virtgate']);
    expect(own[0]?.annotations?.runbook_url).toBe('https://wiki.example.com/virtgate#virtgategatefailing');
    const none = await rulesWith(['--set', 'monitoring.prometheusRule.runbookUrl=']);
    expect(none.some((rule) => rule.annotations?.runbook_url !== undefined)).toBe(false);
  });

  it('leaves out the alerts disabled by name and puts additionalRuleLabels on every alert (which may override severity)', async () => {
    const rules = await rulesWith([
      '--set', 'monitoring.prometheusRule.disabled.VirtgateKubernetesEndOfLifeApproaching=true',
      '--set', 'monitoring.prometheusRule.disabled.VirtgateMetricsAbsent=true',
      '--set', 'monitoring.prometheusRule.disabled.VirtgateGateFailing=false',
      '--set', 'monitoring.prometheusRule.additionalRuleLabels.team=virt',
      '--set', 'monitoring.prometheusRule.additionalRuleLabels.severity=page',
    ]);
    expect(rules.map((rule) => rule.alert)).toEqual([
      'VirtgateGateFailing',
      'VirtgateTooFewReadyNodes',
      'VirtgateNodeNotReady',
      'VirtgateReportStale',
      'VirtgateKubernetesPastEndOfLife',
    ]);
    for (const rule of rules) expect(rule.labels, rule.alert).toEqual({ team: 'virt', severity: 'page' });
    const defaults = await rulesWith(['--set', 'monitoring.prometheusRule.additionalRuleLabels.team=virt']);
    expect(defaults.find((rule) => rule.alert === 'VirtgateNodeNotReady')?.labels).toEqual({ team: 'virt', severity: 'warning' });
  });

  it('the schema refuses a misspelt alert name, a non-boolean and a label name Prometheus refuses', async () => {
    const cases: Array<[string, string]> = [
      ['monitoring.prometheusRule.disabled.VirtgateGateFailling=true', "at '/monitoring/prometheusRule/disabled': additional properties 'VirtgateGateFailling' not allowed"],
      ['monitoring.prometheusRule.disabled.VirtgateGateFailing=yes', "at '/monitoring/prometheusRule/disabled/VirtgateGateFailing'"],
      ['monitoring.prometheusRule.additionalRuleLabels.bad-name=x', "invalid propertyName 'bad-name'"],
      ['monitoring.prometheusRule.runbookUrl=docs/runbook.md', "at '/monitoring/prometheusRule/runbookUrl'"],
    ];
    for (const [set, message] of cases) {
      const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--set', 'monitoring.prometheusRule.enabled=true', '--set', set]);
      expect(outcome.code, set).not.toBe(0);
      expect(outcome.stderr, set).toContain(message);
    }
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

    // Every aggregator replica exports the whole cluster's figures: no query adds them up.
    const aggregatorGauges = /virtgate_(cluster_|gate_|node_report_timestamp|node_migration|migration_stranded|kubernetes_eol)/;
    for (const expr of [...alertExprs, ...dashboardExprs].filter((e) => aggregatorGauges.test(e))) {
      expect(expr, 'an aggregator gauge summed across replicas').not.toMatch(/(^|[^a-z_])sum(\s*\(|\s+by\s*\()/);
    }

    const used = new Set([...alertExprs, ...dashboardExprs].flatMap(metricNames));
    expect(used.size).toBeGreaterThan(8);
    for (const name of used) expect(doc, `${name} is documented in docs/metrics.md`).toContain(`\`${name}`);
    // Ages are computed from timestamps in the queries; no query reads a metric the aggregator or agent no longer exports.
    const removed = /virtgate_(report_age_seconds|kubernetes_eol_days|aggregator_recompute_seconds|api_writes_total|api_write_failures_total)\b/;
    for (const expr of [...alertExprs, ...dashboardExprs]) expect(expr).not.toMatch(removed);

    // promtool parses each dashboard query as a recording rule.
    const dir = await tempDir('virtgate-dashboard-');
    const records = dashboardExprs.map((expr, index) => ({ record: `virtgate:dashboard:query_${index}`, expr }));
    await writeFile(path.join(dir, 'dashboard.yaml'), stringify({ groups: [{ name: 'dashboard', rules: records }] }));
    const check = await promtool(['check', 'rules', 'dashboard.yaml'], dir);
    expect(check.output).toContain(`SUCCESS: ${records.length} rules found`);
  });
});

describe('VirtgateCanaryNotBooting (only with canary.enabled)', () => {
  const CANARY_PROMTEST = path.join(PACKAGE_ROOT, 'test/lab/chart/canary-alert.promtest.yaml');
  const canaryRule = async (args: string[] = []) => (await rulesWith(['--set', 'canary.enabled=true', ...args])).find((rule) => rule.alert === 'VirtgateCanaryNotBooting');

  it('is rendered with the canary only, after the other alerts, and can be disabled by name', async () => {
    expect((await rulesWith([])).map((rule) => rule.alert)).not.toContain('VirtgateCanaryNotBooting');
    const rules = await rulesWith(['--set', 'canary.enabled=true']);
    expect(rules.map((rule) => rule.alert).at(-1)).toBe('VirtgateCanaryNotBooting');
    expect(rules).toHaveLength(8);
    const disabled = await rulesWith(['--set', 'canary.enabled=true', '--set', 'monitoring.prometheusRule.disabled.VirtgateCanaryNotBooting=true']);
    expect(disabled.map((rule) => rule.alert)).not.toContain('VirtgateCanaryNotBooting');
  });

  it('fires at canary.alertAfterRuns failed runs of a class, not one run earlier, and resolves after a boot (promtool)', async () => {
    const dir = await tempDir('virtgate-canary-alert-');
    const objects = await renderChart(cp.binDir, ['--set', 'monitoring.prometheusRule.enabled=true', '--set', 'monitoring.prometheusRule.runbookUrl=', '--set', 'canary.enabled=true']);
    const groups = findManifest<{ spec: { groups: RuleGroup[] } }>(objects, 'PrometheusRule').spec.groups;
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
    const check = await promtool(['check', 'rules', 'rules.yaml'], dir);
    expect(check.output).toContain('SUCCESS: 8 rules found');
    await copyFile(CANARY_PROMTEST, path.join(dir, 'canary-alert.promtest.yaml'));
    const test = await promtool(['test', 'rules', 'canary-alert.promtest.yaml'], dir);
    expect(test.output).toContain('SUCCESS');
    expect(test.code).toBe(0);

    // The same series against a threshold one run lower: the 45m case (two failed runs) now fires,
    // so the file above does tell N from N-1.
    const rule = groups[0]?.rules.find((candidate) => candidate.alert === 'VirtgateCanaryNotBooting');
    if (!rule) throw new Error('no VirtgateCanaryNotBooting rule');
    rule.expr = rule.expr.replace(/>= 3$/, '>= 2');
    await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
    const lower = await promtool(['test', 'rules', 'canary-alert.promtest.yaml'], dir);
    expect(lower.code).not.toBe(0);
    expect(lower.output).toContain('alertname: VirtgateCanaryNotBooting, time: 45m');
  });

  it('takes its threshold from canary.alertAfterRuns; reads a metric docs/metrics.md names; links its runbook section', async () => {
    expect((await canaryRule())?.expr).toBe('min by (namespace, job, class) (virtgate_canary_failed_runs) >= 3');
    expect((await canaryRule(['--set', 'canary.alertAfterRuns=5']))?.expr).toBe('min by (namespace, job, class) (virtgate_canary_failed_runs) >= 5');
    const rule = await canaryRule();
    expect(rule?.labels).toEqual({ severity: 'critical' });
    expect(rule?.annotations?.runbook_url).toBe('https://github.com/virtgate/virtgate/blob/main/docs/runbook.md#virtgatecanarynotbooting');
    const doc = await readFile(METRICS_DOC, 'utf8');
    for (const name of metricNames(rule?.expr ?? '')) expect(doc, `${name} is documented in docs/metrics.md`).toContain(`\`${name}`);
    expect(doc).toContain('`VirtgateCanaryNotBooting`');
    const section = (await readFile(RUNBOOK, 'utf8')).split(/^## /m).find((part) => part.startsWith('VirtgateCanaryNotBooting\n')) ?? '';
    for (const heading of ['What it means', 'How to check', 'How to fix']) expect(section, heading).toContain(`**${heading}**`);
  });
});
