import { access } from '../../core/fs-promised.ts';
import './zod-one-shot.ts';
import { Command } from 'commander';
import { evaluate } from '../../core/checks/evaluate.ts';
import { assertHostRoot, HostRootError, probeHost } from '../../core/checks/probe-host.ts';
import type { HostFacts } from '../../core/checks/registry.ts';
import type { Verdict } from '../../core/checks/verdict.ts';
import { readVhvRecording, runVirtHostValidate, type VhvFacts } from '../../core/checks/families/vhv.ts';
import { inventoryFor } from '../../core/inventory/collect.ts';
import type { Inventory } from '../../core/inventory/schema.ts';
import { DOCUMENT_KINDS, type TypeMeta, typeMeta } from '../../core/documents.ts';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { renderCheckTable } from '../render/check-table.ts';
import { type CheckSettings, checkSettings } from '../settings/check.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { writeStdout } from '../stdout.ts';
import { addCheckNodeOptions, isCheckOnNode } from '../check-node/hook.ts';
import { EXIT, toUsageError, UsageError } from '../usage-error.ts';

/** The `--json` document (`kind: CheckOutcome`). Its schema is documented in the README and docs/check.md. */
export interface CheckReport extends TypeMeta<typeof DOCUMENT_KINDS.check>, Verdict {
  virtgateVersion: string;
  hostRoot: string;
  policy: { allowEmulation: boolean; minKernel: string };
  facts: HostFacts;
  /** The running machine's hardware, from /proc and /sys; `collected: false` under another --host-root. Never part of the verdict. */
  inventory: Inventory;
}

export function checkCommand(): Command {
  return addCheckNodeOptions(addSettings(new Command('check'), checkSettings))
    .description('validate this machine (or a host root) for KubeVirt VMs, like virt-host-validate but stricter')
    .addHelpText(
      'after',
      `\n${exitCodesHelp('check')}\n` +
        'Example: virtgate check --json | jq \'.checks[] | select(.status != "pass")\'',
    )
    .action(async (flags: Record<string, unknown>) => {
      process.exitCode = await runCheck(flags);
    });
}

async function runCheck(flags: Record<string, unknown>): Promise<number> {
  if (isCheckOnNode(flags)) return (await import('../check-node/run.ts')).runCheckOnNode(flags);
  let settings: CheckSettings;
  try {
    settings = configOf(checkSettings, flags);
    await assertHostRoot(settings.hostRoot);
  } catch (error) {
    if (error instanceof HostRootError) throw new UsageError(`${error.message}; pass an existing directory to --host-root`);
    throw toUsageError(error);
  }
  const { vhv, policy } = settings;
  if (vhv.output !== undefined) {
    await access(vhv.output).catch(() => {
      throw new UsageError(`--vhv-output ${vhv.output}: file not found or not readable`);
    });
  }
  const [facts, vhvFacts] = await Promise.all([probeHost(settings.hostRoot, { enabled: settings.kvmRun }), virtHostValidate(vhv)]);
  const verdict = evaluate(facts, vhvFacts, policy);
  if (settings.json) {
    const inventory = await inventoryFor(settings.hostRoot);
    const report: CheckReport = { ...typeMeta(DOCUMENT_KINDS.check), ...verdict, virtgateVersion: VIRTGATE_VERSION, hostRoot: settings.hostRoot, policy, facts, inventory };
    writeStdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    // Wrapped to the terminal's width; piped output keeps one line per row for grep and diff.
    const width = process.stdout.isTTY ? process.stdout.columns : undefined;
    writeStdout(renderCheckTable(verdict, settings.hostRoot, { width }));
  }
  return verdict.ready ? EXIT.ok : EXIT.notReady;
}

function virtHostValidate(vhv: CheckSettings['vhv']): Promise<VhvFacts> {
  if (vhv.output !== undefined) return readVhvRecording(vhv.output);
  if (!vhv.enabled) return Promise.resolve({ state: 'disabled' });
  return runVirtHostValidate({ command: vhv.command, timeoutSeconds: vhv.timeoutSeconds });
}
