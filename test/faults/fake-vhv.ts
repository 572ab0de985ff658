/**
 * A fake virt-host-validate: the real tool cannot hang, print garbage or flood on demand. A bash
 * script whose behaviour is read from a `mode` file beside it at each run, so a running agent can
 * be switched between behaviours. `pass` and `fail` replay real libvirt 9.0 recordings.
 */
import { chmod, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { vhvFixture } from '../lab/hosts/paths.ts';

export type VhvMode = 'pass' | 'fail' | 'hang' | 'garbage' | 'binary' | 'flood' | 'exit1';

export interface FakeVhv {
  command: string;
  dir: string;
  setMode(mode: VhvMode): Promise<void>;
  /** Takes the tool away (the agent then finds it missing), or puts it back. */
  remove(): Promise<void>;
  restore(): Promise<void>;
  /** PIDs a hanging run wrote: the script and its background child. */
  hangPids(): Promise<number[]>;
}

export async function fakeVhv(initial: VhvMode): Promise<FakeVhv> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fault-vhv-'));
  const command = path.join(dir, 'virt-host-validate');
  const ok = await vhvFixture('libvirt-9.0-kvm-ok.txt');
  const failing = await vhvFixture('libvirt-9.0-kvm-module-missing.txt');
  const script = `#!/bin/bash
# Fake virt-host-validate for the fault suite (see test/faults/fake-vhv.ts).
here="$(dirname "$0")"
case "$(cat "$here/mode")" in
  pass) cat '${ok}' ;;
  fail) cat '${failing}'; exit 1 ;;
  # Hangs, and leaves a child holding stdout: only killing the process group ends it.
  hang) echo $$ > "$here/script.pid"; sleep 600 & echo $! > "$here/child.pid"; wait ;;
  garbage) for i in $(seq 1 200); do echo "lorem ipsum dolor $i : sit amet"; done ;;
  binary) head -c 300000 /dev/urandom ;;
  # Well-formed result lines, just under the 1 MiB output limit.
  flood) yes '  QEMU: Checking for secure guest support                                    : WARN (Unknown if this platform has Secure Guest support)' | head -c 1000000 ;;
  exit1) echo 'something went wrong'; exit 1 ;;
esac
`;
  await writeFile(command, script);
  await chmod(command, 0o755);
  const setMode = (mode: VhvMode) => writeFile(path.join(dir, 'mode'), `${mode}\n`);
  await setMode(initial);
  return {
    command,
    dir,
    setMode,
    remove: () => rename(command, `${command}.away`),
    restore: () => rename(`${command}.away`, command),
    hangPids: async () => {
      const pids = await Promise.all(['script.pid', 'child.pid'].map((file) => readFile(path.join(dir, file), 'utf8').catch(() => '')));
      return pids.map((text) => Number(text.trim())).filter((pid) => pid > 0);
    },
  };
}

/** Whether a process still runs (a zombie left for a PID 1 that does not reap counts as gone). */
export async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The state follows the command name in brackets: "1234 (sleep) Z ...".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return stat !== '' && state !== 'Z' && state !== 'X';
}
