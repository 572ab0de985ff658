/**
 * What `virtgate check` needs to know of `--node`: its flags, their help, and whether it was
 * given. The work is in run.ts, loaded only then: it needs @kubernetes/client-node, which a local
 * check must not pay for.
 */
import type { Command } from 'commander';
import { permissionsHelp } from '../permissions.ts';
import { optionsOf } from '../settings/flags.ts';
import { CHECK_NODE_SETTINGS } from './settings.ts';

export function addCheckNodeOptions(command: Command): Command {
  for (const option of optionsOf(CHECK_NODE_SETTINGS)) command.addOption(option);
  return command.addHelpText(
    'after',
    `\nWith --node, the check runs in a pod on that node and the pod is deleted afterwards (docs/check.md). ${permissionsHelp('check')}`,
  );
}

export function isCheckOnNode(flags: Readonly<Record<string, unknown>>): boolean {
  return flags.node !== undefined;
}
