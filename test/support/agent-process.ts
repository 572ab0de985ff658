import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { waitFor } from './wait.ts';

export interface AgentProcess {
  child: ChildProcess;
  port: number;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
  metrics(): Promise<string>;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Runs `virtgate agent` as a real process, as the DaemonSet would, and waits until it serves HTTP. */
export async function startAgentProcess(args: string[], env: Record<string, string> = {}): Promise<AgentProcess> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'cli/main.ts'), 'agent', '--port', '0', '--bind-address', '127.0.0.1', ...args], {
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
    waitFor('the agent to listen', async () => logs.find((line) => line.msg === 'virtgate agent started'), 30_000),
    exited.then((code) => {
      throw new Error(`agent exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  const port = Number(new URL(String(started.address)).port);
  return {
    child,
    port,
    logs,
    stderr: () => stderr,
    metrics: async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    exited,
  };
}

/** The value of one series in Prometheus text format, e.g. `virtgate_node_ready{node="a"}`. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
