/**
 * The name the help and usage lines give the program: how the user typed it. kubectl runs a
 * plugin as the executable `kubectl-<name>` on PATH (npm's and krew's `kubectl-virtgate` link), so
 * `kubectl virtgate --help` must say `kubectl virtgate`, not a command the user did not type.
 */
const KUBECTL_PLUGIN = /^kubectl-([A-Za-z0-9_-]+)$/;

/**
 * `virtgate`, or `kubectl <words>` when the script was run as a kubectl plugin. kubectl's own
 * mapping from file name to command: each dash separates a word, an underscore is a dash inside
 * one (`kubectl-virt_gate` is `kubectl virt-gate`).
 */
export function programName(scriptPath: string | undefined): string {
  const base = (scriptPath ?? '').split(/[\\/]/).pop() ?? '';
  const plugin = KUBECTL_PLUGIN.exec(base);
  if (!plugin?.[1]) return 'virtgate';
  return ['kubectl', ...plugin[1].split('-').map((word) => word.replaceAll('_', '-'))].join(' ');
}
