import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { waitFor } from './wait.ts';

export interface AggregatorProcess {
  child: ChildProcess;
  url: string;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
  get(pathname: string): Promise<Response>;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Runs `virtgate aggregator` as a real process, as the Deployment would, and waits until it serves HTTP. */
export async function startAggregatorProcess(args: string[], env: Record<string, string> = {}): Promise<AggregatorProcess> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'cli/main.ts'), 'aggregator', '--port', '0', '--bind-address', '127.0.0.1', ...args], {
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
    waitFor('the aggregator to listen', async () => logs.find((line) => line.msg === 'virtgate aggregator started'), 30_000),
    exited.then((code) => {
      throw new Error(`aggregator exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  const url = String(started.address);
  return {
    child,
    url,
    logs,
    stderr: () => stderr,
    get: (pathname) => fetch(`${url}${pathname}`),
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

/** A loopback port nothing listens on (for an unreachable kubeconfig). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}
