/**
 * What each command's exit codes mean, written once: `--help` and the exit-code tables in the
 * docs (`npm run generate:docs`) are made from this, so they cannot disagree with each other.
 */
import { EXIT } from './usage-error.ts';

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface ExitMeaning {
  readonly code: ExitCode;
  readonly meaning: string;
}

const CLUSTER_UNREADABLE = 'the cluster could not be reached or read (retry)';
const SERVER_EXITS: readonly ExitMeaning[] = [
  { code: EXIT.ok, meaning: 'stopped by SIGTERM or SIGINT' },
  { code: EXIT.usage, meaning: 'a bad setting, kubeconfig or port' },
];

export const COMMAND_EXITS = {
  check: [
    { code: EXIT.ok, meaning: 'ready' },
    { code: EXIT.notReady, meaning: 'not ready (the report says why)' },
    { code: EXIT.usage, meaning: 'bad input (flags, files) or an internal error' },
    { code: EXIT.cluster, meaning: 'with --node: the cluster could not be reached or read, or the check pod did not finish within --timeout (retry)' },
  ],
  tuple: [
    { code: EXIT.ok, meaning: 'pass' },
    { code: EXIT.notReady, meaning: 'fail' },
    { code: EXIT.usage, meaning: 'bad input (version, date, version data)' },
    { code: EXIT.warn, meaning: 'warn or unknown' },
  ],
  gate: [
    { code: EXIT.ok, meaning: 'pass' },
    { code: EXIT.notReady, meaning: 'fail' },
    { code: EXIT.usage, meaning: 'bad input (flags, kubeconfig, --context, version data)' },
    { code: EXIT.warn, meaning: 'warn or unknown' },
    { code: EXIT.cluster, meaning: CLUSTER_UNREADABLE },
  ],
  prune: [
    { code: EXIT.ok, meaning: 'done, or nothing to do' },
    { code: EXIT.notReady, meaning: 'something could not be removed' },
    { code: EXIT.usage, meaning: 'bad input (flags, kubeconfig, --context)' },
    { code: EXIT.cluster, meaning: CLUSTER_UNREADABLE },
  ],
  canary: [
    { code: EXIT.ok, meaning: 'every picked node booted the VM, or there was no node to pick' },
    { code: EXIT.notReady, meaning: 'a picked node did not boot the VM (published), or SIGTERM/SIGINT cut the run short (nothing published for the VMs cut short)' },
    { code: EXIT.usage, meaning: "bad input (flags, kubeconfig, --context), or the API server refused the canary's VMI (RBAC or the chart's canary VMI policy; nothing published)" },
    { code: EXIT.cluster, meaning: 'the cluster or KubeVirt could not be reached or read; no result was published for the VMs concerned (retry)' },
  ],
  explain: [
    { code: EXIT.ok, meaning: 'the VM can run on at least one node' },
    { code: EXIT.notReady, meaning: 'no node can run it (the answer says why, per node group)' },
    { code: EXIT.usage, meaning: 'bad input (flags, file, kubeconfig, a VM that does not exist)' },
    { code: EXIT.cluster, meaning: CLUSTER_UNREADABLE },
  ],
  agent: SERVER_EXITS,
  aggregator: SERVER_EXITS,
} as const satisfies Record<string, readonly ExitMeaning[]>;

export type CommandName = keyof typeof COMMAND_EXITS;

export const COMMAND_NAMES = Object.keys(COMMAND_EXITS) as CommandName[];

/** The prefix of every error line any command prints on stderr. */
export const ERROR_PREFIX = 'virtgate: ';

/** The `--help` line: "Exit codes: 0 pass, 1 fail, …". */
export function exitCodesHelp(command: CommandName): string {
  return `Exit codes: ${COMMAND_EXITS[command].map(({ code, meaning }) => `${code} ${meaning}`).join(', ')}. Errors are one line on stderr starting "${ERROR_PREFIX.trim()}".`;
}
