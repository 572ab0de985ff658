import { Command, Option } from 'commander';
import { AGGREGATOR_DEFAULTS, type AggregatorConfig, parseAggregatorConfig } from '../../aggregator/config.ts';
import { Aggregator } from '../../aggregator/service/aggregator.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import type { VersionData } from '../../aggregator/versions/schema.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { createLogger } from '../../core/log.ts';
import { stopOnSignal } from '../../core/shutdown.ts';
import { durationSeconds, port, positiveNumber } from '../parse-options.ts';
import { asUsageError, toUsageError } from '../usage-error.ts';

interface AggregatorFlags {
  kubeconfig?: string;
  port: number;
  bindAddress: string;
  prefix: string;
  versions: string;
  staleAfter: number;
  minReady: number;
  eolWarnDays: number;
  dataMaxAgeDays: number;
  requestTimeout: number;
  calendarDate?: string;
  logLevel: string;
}

const D = AGGREGATOR_DEFAULTS;

/** The Helm chart passes these flags; keep their names. */
export function aggregatorCommand(): Command {
  return new Command('aggregator')
    .description('run as the Deployment: watch nodes, reports, KubeVirt and CDI; serve readiness and the gate as JSON, metrics and a page')
    .option('--kubeconfig <path>', 'kubeconfig (default: in-cluster ServiceAccount, then KUBECONFIG)')
    .addOption(new Option('--port <port>', 'HTTP port for the API, the page, /metrics, /healthz, /readyz').default(D.port).argParser(port))
    .option('--bind-address <address>', 'HTTP bind address', D.bindAddress)
    .addOption(new Option('--prefix <domain>', 'the label prefix the agents use').default(D.prefix).env('VIRTGATE_PREFIX'))
    .option('--versions <file>', 'version data file (support matrix, CDI pairing, EOL dates)', D.versionsFile)
    .addOption(new Option('--stale-after <duration>', 'a report whose heartbeat is older makes its node unknown').default(D.staleAfterSeconds, '30m').argParser(durationSeconds))
    .addOption(new Option('--min-ready <count>', 'nodes.min-ready fails below this many ready nodes').default(D.minReady).argParser(positiveNumber))
    .addOption(new Option('--eol-warn-days <days>', 'tuple.kubernetes-eol warns this many days before end of life').default(D.eolWarnDays).argParser(Number))
    .addOption(new Option('--data-max-age-days <days>', 'tuple.data-fresh warns when the version data is older').default(D.dataMaxAgeDays).argParser(Number))
    .addOption(new Option('--request-timeout <duration>', 'timeout of one API request').default(D.requestTimeoutSeconds, '30s').argParser(durationSeconds))
    .addOption(new Option('--calendar-date <YYYY-MM-DD>', 'judge the version calendar (support windows, end of life, data age) as of this UTC day instead of today; report ages still use the clock'))
    .addOption(new Option('--log-level <level>', 'fatal | error | warn | info | debug | trace').default(D.logLevel).env('VIRTGATE_LOG_LEVEL'))
    .addHelpText('after', '\nRead-only: needs get, list and watch on nodes, nodevalidations, kubevirts, cdis and customresourcedefinitions.\nExit codes: 0 after SIGTERM/SIGINT, 2 on a bad setting (one line on stderr).')
    .action(async (flags: AggregatorFlags) => {
      await runAggregator(flags);
    });
}

async function runAggregator(flags: AggregatorFlags): Promise<void> {
  let config: AggregatorConfig;
  let data: VersionData;
  try {
    config = parseAggregatorConfig({
      kubeconfig: flags.kubeconfig,
      port: flags.port,
      bindAddress: flags.bindAddress,
      prefix: flags.prefix,
      versionsFile: flags.versions,
      staleAfterSeconds: flags.staleAfter,
      minReady: flags.minReady,
      eolWarnDays: flags.eolWarnDays,
      dataMaxAgeDays: flags.dataMaxAgeDays,
      requestTimeoutSeconds: flags.requestTimeout,
      calendarDate: flags.calendarDate,
      logLevel: flags.logLevel,
    });
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
    await aggregator.stop();
    log.info('virtgate aggregator stopped');
  });
}
