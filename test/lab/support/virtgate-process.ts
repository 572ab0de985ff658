import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';
import { waitFor } from './wait.ts';

export interface VirtgateProcess {
  child: ChildProcess;
  /** Where it serves HTTP, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Runs a long-running `virtgate <command>` (agent, aggregator) as a real process on a free
 * loopback port, and waits until its "started" log line says where it listens.
 */
export async function startVirtgateProcess(command: 'agent' | 'aggregator', args: string[], env: Record<string, string> = {}): Promise<VirtgateProcess> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'cli/main.ts'), command, '--port', '0', '--bind-address', '127.0.0.1', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        stderr += `${line}\n`;
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = await Promise.race([
    waitFor(`the ${command} to listen`, async () => logs.find((line) => line.msg === `virtgate ${command} started`), 30_000),
    exited.then((code) => {
      throw new Error(`${command} exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  return {
    child,
    url: String(started.address),
    logs,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    exited,
  };
}

/** The value of one series in Prometheus text format, e.g. `virtgate_gate_result{status="pass"}`. */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.slice(name.length, line.lastIndexOf(' '));
    if (Object.entries(labels).every(([key, value]) => labelPart.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
