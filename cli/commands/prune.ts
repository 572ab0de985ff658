import { Command } from 'commander';
import { PruneApi } from '../../prune/prune-api.ts';
import { prune, type NodeOutcome, type PruneResult } from '../../prune/prune.ts';
import { apiFailure } from '../../core/kube/api-error.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { nodeKeys } from '../../core/kube/names.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { pruneSettings } from '../settings/prune.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, ClusterUnreachableError, EXIT } from '../usage-error.ts';

export function pruneCommand(): Command {
  return addSettings(new Command('prune'), pruneSettings)
    .description('remove everything virtgate put on nodes: its labels, taints, annotation and condition, and every NodeValidation')
    .addHelpText(
      'after',
      '\nOnly keys the ownership annotation (<prefix>/owned) records as virtgate\'s are removed; a foreign\n' +
        'label or taint is never touched. Safe to run again.\n' +
        `${exitCodesHelp('prune')}\n${permissionsHelp('prune')}`,
    )
    .action(async (flags: Record<string, unknown>) => {
      process.exitCode = await runPrune(flags);
    });
}

async function runPrune(flags: Record<string, unknown>): Promise<number> {
  const settings = configOf(pruneSettings, flags);
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: settings.context }), 'cannot load the kubeconfig');
  const api = new PruneApi(kc, settings.requestTimeoutSeconds * 1000, settings.dryRun);
  let result: PruneResult;
  try {
    result = await prune(api, nodeKeys(settings.prefix), { dryRun: settings.dryRun });
  } catch (error) {
    const failure = apiFailure(error);
    throw new ClusterUnreachableError(`cannot list nodes: ${failure.status ? `HTTP ${failure.status}: ` : ''}${failure.message}`);
  }
  process.stdout.write(renderPrune(result));
  const failures = result.nodes.filter((node) => node.result === 'failed').length + result.nodeValidations.failed.length;
  return failures > 0 ? EXIT.notReady : EXIT.ok;
}

function nodeLine(outcome: NodeOutcome, dryRun: boolean): string {
  const { plan } = outcome;
  const parts = [
    plan.labels.length > 0 ? `labels ${plan.labels.join(', ')}` : '',
    plan.taints.length > 0 ? `taints ${plan.taints.join(', ')}` : '',
    plan.annotation ? 'the ownership annotation' : '',
    plan.condition ? 'condition VirtualizationReady' : '',
  ].filter(Boolean);
  const leftAlone = plan.leftAlone.map((item) => `${item.kind} ${item.key} (${item.why})`);
  const suffix = leftAlone.length > 0 ? `; left alone: ${leftAlone.join(', ')}` : '';
  switch (outcome.result) {
    case 'clean':
      return `node ${outcome.node}: nothing to remove${suffix}`;
    case 'gone':
      return `node ${outcome.node}: deleted meanwhile`;
    case 'pruned':
      return `node ${outcome.node}: ${dryRun ? 'would remove' : 'removed'} ${parts.join('; ')}${suffix}`;
    case 'failed':
      return `node ${outcome.node}: FAILED to remove ${parts.join('; ')}: ${outcome.error}${suffix}`;
  }
}

/** One line per node and NodeValidation, then a summary line. */
export function renderPrune(result: PruneResult): string {
  const lines = result.nodes.map((outcome) => nodeLine(outcome, result.dryRun));
  const verb = result.dryRun ? 'would delete' : 'deleted';
  for (const name of result.nodeValidations.deleted) lines.push(`nodevalidation ${name}: ${verb}`);
  for (const { name, error } of result.nodeValidations.failed) lines.push(`nodevalidation ${name}: FAILED to delete: ${error}`);
  const count = (kind: NodeOutcome['result']) => result.nodes.filter((node) => node.result === kind).length;
  lines.push(
    `virtgate prune${result.dryRun ? ' (dry run)' : ''}: ${count('pruned')} of ${result.nodes.length} nodes ${result.dryRun ? 'to clean' : 'cleaned'}, ` +
      `${count('failed')} failed; ${result.nodeValidations.deleted.length} NodeValidations ${result.dryRun ? 'to delete' : 'deleted'}, ` +
      `${result.nodeValidations.failed.length} failed`,
  );
  return `${lines.join('\n')}\n`;
}
