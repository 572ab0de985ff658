/**
 * Every chart value that feeds a program setting reaches the program: the real helm renders the
 * chart, and the programs' own flag parsing reads the rendered container arguments. The expected
 * configurations are written by hand, so a value that is dropped, renamed or passed to the wrong
 * flag fails here whatever the generator believes.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { V1DaemonSet, V1Deployment } from '@kubernetes/client-node';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { agentSettings } from '../../agent/config.ts';
import { aggregatorSettings } from '../../aggregator/config.ts';
import { addSettings, configOf } from '../../cli/settings/flags.ts';
import type { Settings, SettingsTable } from '../../core/settings/table.ts';
import { allChartSettings } from '../../scripts/chart-settings.ts';
import { findManifest, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { useTempDirs } from '../lab/support/temp-dirs.ts';

const cp = useControlPlane();
const tempDir = useTempDirs();

/** The configuration a program builds from these arguments, through its own commander flags. */
function configFrom<T extends SettingsTable>(settings: Settings<T>, args: readonly string[]) {
  const command = addSettings(new Command().exitOverride(), settings);
  command.parse([...args], { from: 'user' });
  return configOf(settings, command.opts());
}

async function renderedArgs(values: string[]): Promise<{ agent: string[]; aggregator: string[] }> {
  const objects = await renderChart(cp.binDir, values);
  const agent = findManifest<V1DaemonSet>(objects, 'DaemonSet').spec?.template.spec?.containers[0]?.args ?? [];
  const aggregator = findManifest<V1Deployment>(objects, 'Deployment').spec?.template.spec?.containers[0]?.args ?? [];
  expect(agent[0]).toBe('agent');
  expect(aggregator[0]).toBe('aggregator');
  // The node name comes from the downward API in a pod.
  return { agent: [...agent.slice(1), '--node-name=node-a'], aggregator: aggregator.slice(1) };
}

/** One value per chart setting, none of them its default. */
const CHANGED: Record<string, string | number | boolean> = {
  prefix: 'nodes.example.com',
  'agent.interval': '2m',
  'agent.jitter': 0.2,
  'agent.heartbeat': '20m',
  'agent.port': 9090,
  'agent.requestTimeout': '25s',
  'agent.publishFailureThreshold': '3m',
  'agent.allowEmulation': true,
  'agent.minKernel': '5.14',
  'agent.virtHostValidate.enabled': false,
  'agent.virtHostValidate.timeout': '45s',
  'agent.kvmRun': false,
  'agent.taint.policy': 'bootstrap',
  'agent.taint.poolSelector': 'pool=virt',
  'agent.taint.effect': 'NoExecute',
  'agent.taint.allowNoExecute': true,
  'agent.taint.maxShare': 0.25,
  'agent.taint.bootstrapKey': 'example.com/registering',
  'agent.watch.timeout': '4m',
  'agent.watch.staleAfter': '9m',
  'agent.watch.backoffBase': '2s',
  'agent.watch.backoffMax': '1m',
  'agent.shutdownGrace': '15s',
  'agent.logLevel': 'debug',
  'aggregator.port': 9191,
  'aggregator.staleAfter': '45m',
  'aggregator.minReady': 3,
  'aggregator.eolWarnDays': 30,
  'aggregator.dataMaxAgeDays': 90,
  'aggregator.requestTimeout': '40s',
  'aggregator.shutdownDrain': '4s',
  'aggregator.perNodeMetrics': false,
  'aggregator.watch.timeout': '3m',
  'aggregator.watch.staleAfter': '7m',
  'aggregator.watch.backoffBase': '250ms',
  'aggregator.watch.backoffMax': '20s',
  'aggregator.logLevel': 'warn',
};

describe('chart values that feed a program setting', () => {
  it('covers every one of them (a new setting adds its line to CHANGED)', () => {
    expect(Object.keys(CHANGED).sort()).toEqual(allChartSettings().map(({ value }) => value).sort());
  });

  it('with the defaults, the programs run as they do with no flags at all', async () => {
    const args = await renderedArgs([]);
    // The host root is the chart's own: it mounts the host there.
    expect(configFrom(agentSettings, args.agent)).toEqual(configFrom(agentSettings, ['--node-name=node-a', '--host-root=/host']));
    // --bind-address=0.0.0.0 is the chart's own; it is also the program's default.
    expect(configFrom(aggregatorSettings, args.aggregator)).toEqual(configFrom(aggregatorSettings, []));
  });

  it('each changed value arrives at its setting', async () => {
    const values = path.join(await tempDir('virtgate-chart-settings-'), 'values.yaml');
    const nested: Record<string, unknown> = {};
    for (const [dotted, value] of Object.entries(CHANGED)) {
      const keys = dotted.split('.');
      let node = nested;
      for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[keys.at(-1) as string] = value;
    }
    await writeFile(values, stringify(nested));
    const args = await renderedArgs(['-f', values]);
    const agent = configFrom(agentSettings, args.agent);
    expect(agent).toMatchObject({
      nodeName: 'node-a',
      prefix: 'nodes.example.com',
      intervalSeconds: 120,
      jitter: 0.2,
      heartbeatSeconds: 1200,
      port: 9090,
      requestTimeoutSeconds: 25,
      publishFailureThresholdSeconds: 180,
      policy: { allowEmulation: true, minKernel: '5.14' },
      vhv: { enabled: false, timeoutSeconds: 45 },
      kvmRun: false,
      taint: { policy: 'bootstrap', poolSelector: 'pool=virt', effect: 'NoExecute', allowNoExecute: true, maxShare: 0.25, bootstrapKey: 'example.com/registering' },
      watch: { timeoutSeconds: 240, staleAfterSeconds: 540, backoffBaseSeconds: 2, backoffMaxSeconds: 60 },
      shutdownGraceSeconds: 15,
      logLevel: 'debug',
    });
    expect(configFrom(aggregatorSettings, args.aggregator)).toMatchObject({
      prefix: 'nodes.example.com',
      port: 9191,
      staleAfterSeconds: 2700,
      minReady: 3,
      eolWarnDays: 30,
      dataMaxAgeDays: 90,
      requestTimeoutSeconds: 40,
      perNodeMetrics: false,
      watch: { timeoutSeconds: 180, staleAfterSeconds: 420, backoffBaseSeconds: 0.25, backoffMaxSeconds: 20 },
      logLevel: 'warn',
    });
  });
});
