import { Command, InvalidArgumentError, Option } from 'commander';
import { AGGREGATOR_DEFAULTS, gateConfigOf, type GateSettings, parseGateSettings } from '../../aggregator/config.ts';
import { evaluateGate } from '../../aggregator/gate/gate.ts';
import type { GateReport, GateStatus } from '../../aggregator/gate/types.ts';
import { modelOf } from '../../aggregator/model/cluster.ts';
import { renderChecklist } from '../../aggregator/report/checklist.ts';
import { ClusterReadError, listClusterOnce } from '../../aggregator/snapshot/list-once.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import { VersionDataError } from '../../aggregator/versions/parse.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { durationSeconds, positiveNumber } from '../parse-options.ts';
import { paint } from '../render/colour.ts';
import { asUsageError, ClusterUnreachableError, toUsageError, UsageError } from '../usage-error.ts';

interface GateFlags {
  kubeconfig?: string;
  context?: string;
  json: boolean;
  versions: string;
  prefix: string;
  staleAfter: number;
  minReady: number;
  eolWarnDays: number;
  dataMaxAgeDays: number;
  requestTimeout: number;
  calendarDate?: string;
  now?: Date;
}

const D = AGGREGATOR_DEFAULTS;

/** An ISO 8601 instant, for evaluating as of another time (tests). */
function instant(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) throw new InvalidArgumentError('expected an ISO 8601 time such as 2026-12-02T12:00:00Z.');
  return date;
}

export function gateCommand(): Command {
  return new Command('gate')
    .description('evaluate the runtime validation gate against a cluster, once (no watch): for CI before a VM migration or an upgrade')
    .option('--kubeconfig <path>', 'kubeconfig file (default: KUBECONFIG, then ~/.kube/config, then the in-cluster ServiceAccount, as kubectl)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option('--json', 'print the gate report as JSON', false)
    .option('--versions <file>', 'version data file (support matrix, CDI pairing, EOL dates)', D.versionsFile)
    .addOption(new Option('--prefix <domain>', 'the label prefix the agents use').default(D.prefix).env('VIRTGATE_PREFIX'))
    .addOption(new Option('--stale-after <duration>', 'a report whose heartbeat is older makes its node unknown').default(D.staleAfterSeconds, '30m').argParser(durationSeconds))
    .addOption(new Option('--min-ready <count>', 'nodes.min-ready fails below this many ready nodes').default(D.minReady).argParser(positiveNumber))
    .addOption(new Option('--eol-warn-days <days>', 'tuple.kubernetes-eol warns this many days before end of life').default(D.eolWarnDays).argParser(Number))
    .addOption(new Option('--data-max-age-days <days>', 'tuple.data-fresh warns when the version data is older').default(D.dataMaxAgeDays).argParser(Number))
    .addOption(new Option('--request-timeout <duration>', 'timeout of one API request').default(15, '15s').argParser(durationSeconds))
    .addOption(new Option('--calendar-date <YYYY-MM-DD>', 'judge the version calendar (support windows, end of life, data age) as of this UTC day instead of today; report ages still use the clock'))
    .addOption(new Option('--now <time>', 'testing only: evaluate as of this time').argParser(instant).hideHelp())
    .addHelpText(
      'after',
      '\nExit codes: 0 pass, 1 fail, 3 warn or unknown, 2 bad input (flags, kubeconfig, version data), 4 the cluster could not be reached or read (retry).\n' +
        'Example: virtgate gate --kubeconfig ~/.kube/prod --json | jq \'.checks[] | select(.status != "pass")\'',
    )
    .action(async (flags: GateFlags) => {
      process.exitCode = await runGate(flags);
    });
}

async function runGate(flags: GateFlags): Promise<number> {
  let settings: GateSettings;
  try {
    settings = parseGateSettings({
      kubeconfig: flags.kubeconfig,
      prefix: flags.prefix,
      versionsFile: flags.versions,
      staleAfterSeconds: flags.staleAfter,
      minReady: flags.minReady,
      eolWarnDays: flags.eolWarnDays,
      dataMaxAgeDays: flags.dataMaxAgeDays,
      requestTimeoutSeconds: flags.requestTimeout,
      calendarDate: flags.calendarDate,
    });
  } catch (error) {
    throw toUsageError(error);
  }
  const data = await loadVersionData(settings.versionsFile).catch((error: unknown) => {
    throw error instanceof VersionDataError ? new UsageError(error.message) : error;
  });
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: flags.context }), 'cannot load the kubeconfig');
  const parsed = await listClusterOnce(kc, { requestTimeoutMs: settings.requestTimeoutSeconds * 1000 }).catch((error: unknown) => {
    throw error instanceof ClusterReadError ? new ClusterUnreachableError(error.message) : error;
  });
  // The CLI reads the clock; the evaluation itself is pure.
  const report = evaluateGate(modelOf(parsed), data, gateConfigOf(settings), flags.now ?? new Date());
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderGate(report));
  return report.exitCode;
}

const STATUS_STYLE = { pass: 'green', unknown: 'magenta', warn: 'yellow', fail: 'red' } as const satisfies Record<GateStatus, string>;

function renderGate(report: GateReport): string {
  return renderChecklist(report, (status, text) => paint(STATUS_STYLE[status], text));
}
