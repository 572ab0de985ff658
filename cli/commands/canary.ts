import { Command } from 'commander';
import { pino } from 'pino';
import { CanaryApi, KubeVirtMissingError } from '../../canary/canary-api.ts';
import { CanaryRefusedError, CanaryUnreachableError, type CanaryRun, type NodeResult, runCanary } from '../../canary/run.ts';
import { apiFailure } from '../../core/kube/api-error.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { API_GROUP, API_VERSION, nodeKeys } from '../../core/kube/names.ts';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { canarySettings } from '../settings/canary.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, ClusterUnreachableError, EXIT, UsageError } from '../usage-error.ts';

export function canaryCommand(): Command {
  return addSettings(new Command('canary'), canarySettings)
    .description('boot a tiny VM through KubeVirt on one ready node of each node class, and publish what it saw on the node\'s NodeValidation (status.vmBoot)')
    .addHelpText(
      'after',
      '\nOne run per invocation (the chart runs it from a CronJob). Every VMI of the run is deleted before it\n' +
        'exits, also on SIGTERM or SIGINT; VMIs an earlier run left are deleted first. Logs go to stderr.\n' +
        `${exitCodesHelp('canary')}\n${permissionsHelp('canary')}`,
    )
    .action(async (flags: Record<string, unknown>) => {
      process.exitCode = await runCanaryCommand(flags);
    });
}

async function runCanaryCommand(flags: Record<string, unknown>): Promise<number> {
  const settings = configOf(canarySettings, flags);
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: settings.context }), 'cannot load the kubeconfig');
  // stdout holds the result (a table or --json); the logs go to stderr.
  const log = pino({ level: 'info', base: { program: 'canary' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: true }));
  const api = new CanaryApi(kc, settings.requestTimeoutSeconds * 1000, settings.namespace);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'stopping: deleting the run\'s VMIs');
    stop.abort();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let run: CanaryRun;
  try {
    run = await runCanary(api, {
      namespace: settings.namespace,
      diskImage: settings.diskImage,
      diskPullPolicy: settings.diskPullPolicy,
      maxVmis: settings.maxVmis,
      bootTimeoutSeconds: settings.bootTimeoutSeconds,
      keys: nodeKeys(settings.prefix),
      dryRun: settings.dryRun,
      canaryVersion: VIRTGATE_VERSION,
      signal: stop.signal,
      log,
    });
  } catch (error) {
    if (error instanceof CanaryRefusedError) throw new UsageError(error.message);
    if (error instanceof KubeVirtMissingError || error instanceof CanaryUnreachableError) throw new ClusterUnreachableError(error.message);
    const failure = apiFailure(error);
    throw new ClusterUnreachableError(`cannot read the cluster: ${failure.status ? `HTTP ${failure.status}: ` : ''}${failure.message}`);
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }
  process.stdout.write(settings.json ? `${JSON.stringify({ apiVersion: `${API_GROUP}/${API_VERSION}`, kind: 'CanaryRun', ...run }, null, 2)}\n` : renderCanary(run, settings.dryRun));
  if (run.unpublished.length > 0) {
    throw new ClusterUnreachableError(`cannot publish the result on ${run.unpublished.map((each) => `${each.node} (${each.error})`).join(', ')}`);
  }
  if (run.interrupted || run.results.some((result) => result.status !== 'True')) return EXIT.notReady;
  return EXIT.ok;
}

function stepsText(result: NodeResult): string {
  const { scheduled, launcherRunning, vmiRunning, guestMarker } = result.seconds;
  const show = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1));
  return `${show(scheduled)} / ${show(launcherRunning)} / ${show(vmiRunning)} / ${show(guestMarker)}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd());
}

/** One row per picked node (its result), the reasons beneath, then the skipped nodes. */
export function renderCanary(run: CanaryRun, dryRun: boolean): string {
  const lines: string[] = [];
  if (dryRun || run.results.length === 0) {
    lines.push(...table([['NODE', 'CLASS'], ...run.picked.map((pick) => [pick.node, pick.nodeClass])]));
  } else {
    lines.push(
      ...table([
        ['NODE', 'CLASS', 'RESULT', 'SECONDS (scheduled / launcher / running / marker)'],
        ...run.results.map((result) => [result.node, result.nodeClass, result.reason, stepsText(result)]),
      ]),
    );
    for (const result of run.results.filter((each) => each.status !== 'True')) lines.push(`  ${result.node}: ${result.message}`);
  }
  for (const skipped of run.skipped) lines.push(`skipped ${skipped.node}: ${skipped.reason}`);
  const booted = run.results.filter((result) => result.status === 'True').length;
  const verb = dryRun ? 'would try' : 'tried';
  lines.push(
    `virtgate canary ${run.runId}${dryRun ? ' (dry run)' : ''}: ${verb} ${run.picked.length} node${run.picked.length === 1 ? '' : 's'}` +
      (dryRun ? '' : `, ${booted} booted`) +
      `, ${run.skipped.length} skipped${run.interrupted ? '; cut short by a signal' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
