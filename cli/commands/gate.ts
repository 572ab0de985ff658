import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { gateConfigOf } from '../../aggregator/config.ts';
import { evaluateGate } from '../../aggregator/gate/gate.ts';
import { modelOf } from '../../aggregator/model/cluster.ts';
import { renderChecklist } from '../render/gate-checklist.ts';
import { ClusterReadError, listClusterOnce } from '../../aggregator/snapshot/list-once.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import { VersionDataError } from '../../aggregator/versions/parse.ts';
import type { GateResult, GateResultDocument, GateStatus } from '../../aggregator/documents/gate.ts';
import { type GateErrorDocument, gateErrorReason } from '../../aggregator/documents/gate-error.ts';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { gateSettings } from '../settings/gate.ts';
import { paint } from '../render/colour.ts';
import { gateErrorJunit, gateJunit } from '../render/junit.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, ClusterUnreachableError, EXIT, UsageError } from '../usage-error.ts';

export function gateCommand(): Command {
  return addSettings(new Command('gate'), gateSettings)
    .description('evaluate the runtime validation gate against a cluster, once (no watch): for CI before a VM migration or an upgrade')
    .addHelpText(
      'after',
      `\n${exitCodesHelp('gate')}\n${permissionsHelp('gate')}\n` +
        'With --json, a cluster that cannot be read (exit 4) also prints a GateError document on stdout; with --junit, a report with that error.\n' +
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
  const now = settings.now ?? new Date();
  const parsed = await listClusterOnce(kc, { requestTimeoutMs: settings.requestTimeoutSeconds * 1000 }).catch(async (error: unknown) => {
    if (!(error instanceof ClusterReadError)) throw error;
    // Programs reading stdout or the report file learn why there is no gate; stderr keeps its one line.
    const failure = gateErrorDocument(error);
    if (settings.junit !== undefined) await writeJunit(settings.junit, gateErrorJunit(failure, now));
    if (settings.json) process.stdout.write(`${JSON.stringify(failure, null, 2)}\n`);
    throw new ClusterUnreachableError(error.message);
  });
  // The CLI reads the clock; the evaluation itself is pure.
  const report = evaluateGate(modelOf(parsed), data, gateConfigOf(settings), now);
  // The file first: when it cannot be written, the command fails before printing a result.
  if (settings.junit !== undefined) await writeJunit(settings.junit, gateJunit(report));
  if (settings.json) {
    const document: GateResultDocument = { ...typeMeta(DOCUMENT_KINDS.gate), ...report };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    process.stdout.write(renderGate(report));
  }
  return report.exitCode;
}

/** The GateError document; its message is the first line of the error, as main() prints it on stderr after `virtgate: `. */
function gateErrorDocument(error: ClusterReadError): GateErrorDocument {
  const message = error.message.split('\n').find((line) => line.trim() !== '')?.trim() ?? error.message;
  return {
    ...typeMeta(DOCUMENT_KINDS.gateError),
    error: { reason: gateErrorReason(error.status), httpStatus: error.status === 0 ? null : error.status, message },
    exitCode: EXIT.cluster,
  };
}

async function writeJunit(file: string, xml: string): Promise<void> {
  await writeFile(file, xml).catch((error: unknown) => {
    throw new UsageError(`--junit ${file}: cannot write the report: ${error instanceof Error ? error.message : String(error)}`);
  });
}

const STATUS_STYLE = { pass: 'green', unknown: 'magenta', warn: 'yellow', fail: 'red' } as const satisfies Record<GateStatus, string>;

function renderGate(report: GateResult): string {
  return renderChecklist(report, (status, text) => paint(STATUS_STYLE[status], text));
}
