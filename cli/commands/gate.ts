import { Command } from 'commander';
import { gateConfigOf } from '../../aggregator/config.ts';
import { evaluateGate } from '../../aggregator/gate/gate.ts';
import { modelOf } from '../../aggregator/model/cluster.ts';
import { renderChecklist } from '../../aggregator/report/checklist.ts';
import { ClusterReadError, listClusterOnce } from '../../aggregator/snapshot/list-once.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import { VersionDataError } from '../../aggregator/versions/parse.ts';
import type { GateResult, GateResultDocument, GateStatus } from '../../aggregator/documents/gate.ts';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { gateSettings } from '../settings/gate.ts';
import { paint } from '../render/colour.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, ClusterUnreachableError, UsageError } from '../usage-error.ts';

export function gateCommand(): Command {
  return addSettings(new Command('gate'), gateSettings)
    .description('evaluate the runtime validation gate against a cluster, once (no watch): for CI before a VM migration or an upgrade')
    .addHelpText(
      'after',
      `\n${exitCodesHelp('gate')}\n${permissionsHelp('gate')}\n` +
        'Example: virtgate gate --kubeconfig ~/.kube/prod --json | jq \'.checks[] | select(.status != "pass")\'',
    )
    .action(async (flags: Record<string, unknown>) => {
      process.exitCode = await runGate(flags);
    });
}

async function runGate(flags: Record<string, unknown>): Promise<number> {
  const settings = configOf(gateSettings, flags);
  const data = await loadVersionData(settings.versionsFile).catch((error: unknown) => {
    throw error instanceof VersionDataError ? new UsageError(error.message) : error;
  });
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: settings.context }), 'cannot load the kubeconfig');
  const parsed = await listClusterOnce(kc, { requestTimeoutMs: settings.requestTimeoutSeconds * 1000 }).catch((error: unknown) => {
    throw error instanceof ClusterReadError ? new ClusterUnreachableError(error.message) : error;
  });
  // The CLI reads the clock; the evaluation itself is pure.
  const report = evaluateGate(modelOf(parsed), data, gateConfigOf(settings), settings.now ?? new Date());
  if (settings.json) {
    const document: GateResultDocument = { ...typeMeta(DOCUMENT_KINDS.gate), ...report };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    process.stdout.write(renderGate(report));
  }
  return report.exitCode;
}

const STATUS_STYLE = { pass: 'green', unknown: 'magenta', warn: 'yellow', fail: 'red' } as const satisfies Record<GateStatus, string>;

function renderGate(report: GateResult): string {
  return renderChecklist(report, (status, text) => paint(STATUS_STYLE[status], text));
}
