import { Command } from 'commander';
import { type AggregatorConfig, aggregatorSettings } from '../../aggregator/config.ts';
import { Aggregator } from '../../aggregator/service/aggregator.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import type { VersionData } from '../../aggregator/versions/schema.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { createLogger } from '../../core/log.ts';
import { stopOnSignal } from '../../core/shutdown.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, toUsageError } from '../usage-error.ts';

/** The Helm chart passes these flags; keep their names. */
export function aggregatorCommand(): Command {
  return addSettings(new Command('aggregator'), aggregatorSettings)
    .description('run as the Deployment: watch nodes, reports, KubeVirt and CDI; serve readiness and the gate as JSON, metrics and a page')
    .addHelpText('after', `\nRead-only. ${permissionsHelp('aggregator')}\n${exitCodesHelp('aggregator')}`)
    .action(async (flags: Record<string, unknown>) => {
      await runAggregator(flags);
    });
}

async function runAggregator(flags: Record<string, unknown>): Promise<void> {
  let config: AggregatorConfig;
  let data: VersionData;
  try {
    config = configOf(aggregatorSettings, flags);
    data = await loadVersionData(config.versionsFile);
  } catch (error) {
    throw toUsageError(error);
  }
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: config.kubeconfig }), 'cannot load the kubeconfig');
  const log = createLogger(config.logLevel, { component: 'aggregator' });
  const aggregator = new Aggregator({ kc, config, data, log });
  let address: string;
  try {
    address = await aggregator.listen();
  } catch (error) {
    await aggregator.stop().catch(() => undefined);
    throw toUsageError(error, `cannot serve HTTP on ${config.bindAddress}:${config.port}`);
  }
  aggregator.start();
  log.info({ address, versionsFile: config.versionsFile, dataUpdated: data.updated, staleAfterSeconds: config.staleAfterSeconds, minReady: config.minReady }, 'virtgate aggregator started');
  await stopOnSignal(log, async () => {
    const { leftOpen } = await aggregator.drain();
    log.info({ leftOpen }, 'connections drained');
    await aggregator.stop();
    log.info('virtgate aggregator stopped');
  });
}
