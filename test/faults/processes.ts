/**
 * "Nothing crashed, nothing restarted": a process the test started is still the same process
 * (same PID, no exit code, no signal) and started exactly once.
 */
import type { ChildProcess } from 'node:child_process';

export interface Watched {
  label: string;
  child: ChildProcess;
  logs: ReadonlyArray<Record<string, unknown>>;
  startedMessage: string;
}

export function pidsOf(processes: readonly Watched[]): Array<number | undefined> {
  return processes.map((process) => process.child.pid);
}

/** One line per process that is no longer the one started: exited, killed, or started again. */
export function crashes(processes: readonly Watched[], pidsBefore: ReadonlyArray<number | undefined>): string[] {
  const problems: string[] = [];
  processes.forEach((process, index) => {
    const { child } = process;
    const starts = process.logs.filter((line) => line.msg === process.startedMessage).length;
    if (child.exitCode !== null || child.signalCode !== null) problems.push(`${process.label} exited (code ${child.exitCode}, signal ${child.signalCode})`);
    if (child.pid !== pidsBefore[index]) problems.push(`${process.label} has PID ${child.pid}, was ${pidsBefore[index]}`);
    if (starts !== 1) problems.push(`${process.label} started ${starts} times`);
  });
  return problems;
}
