/**
 * The lab's one way to run virtgate's long-running programs (`virtgate agent`, `virtgate
 * aggregator`) as real processes: `node cli/main.ts <command>` on a free loopback port.
 *
 * - `startVirtgateProcess` pipes the output into the test (its JSON log lines, its stderr) and
 *   waits for the "started" line that says where it listens; tests use it.
 * - `startManagedVirtgate` runs it in its own process group with a log and a pid file, so the
 *   control plane's watchdog can reap it even if the runner is killed; the demo uses it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';
import { freePort } from '../controlplane/ports.ts';
import { ManagedProcess } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';
import { metricSeries, seriesValue } from './metrics-text.ts';

const CLI = path.join(PACKAGE_ROOT, 'cli/main.ts');

export type VirtgateCommand = 'agent' | 'aggregator';

export interface VirtgateProcess {
  child: ChildProcess;
  /** Where it serves HTTP, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** What it wrote that is not a JSON log line (stderr, and stdout lines that do not parse). */
  stderr: () => string;
  /** Everything it wrote, stdout and stderr, as text. */
  output: () => string;
  get(pathname: string): Promise<Response>;
  /** Its /metrics page as text. */
  metrics(): Promise<string>;
  /** The value of one series of its /metrics, e.g. ('virtgate_publish_failures_total'). */
  metric(name: string, labels?: Record<string, string>): Promise<number | undefined>;
  /** Every series of one metric of its /metrics. */
  series(name: string): Promise<Array<{ labels: string; value: number }>>;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

export type AgentProcess = VirtgateProcess;
export type AggregatorProcess = VirtgateProcess;

/** Runs `virtgate <command>` and waits until its "started" log line says where it listens. */
export async function startVirtgateProcess(command: VirtgateCommand, args: string[], env: Record<string, string> = {}): Promise<VirtgateProcess> {
  const child = spawn(process.execPath, [CLI, command, '--port', '0', '--bind-address', '127.0.0.1', ...args], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  let output = '';
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
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
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = await Promise.race([
    waitFor(`the ${command} to listen`, async () => logs.find((line) => line.msg === `virtgate ${command} started`), 30_000),
    exited.then((code) => {
      throw new Error(`${command} exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  const url = String(started.address);
  const metrics = async () => (await fetch(`${url}/metrics`)).text();
  return {
    child,
    url,
    port: Number(new URL(url).port),
    logs,
    stderr: () => stderr,
    output: () => output,
    get: (pathname) => fetch(`${url}${pathname}`),
    metrics,
    metric: async (name, labels = {}) => seriesValue(await metrics(), name, labels),
    series: async (name) => metricSeries(await metrics(), name),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    exited,
  };
}

/** `virtgate agent` as the DaemonSet runs it. */
export function startAgentProcess(args: string[], env: Record<string, string> = {}): Promise<AgentProcess> {
  return startVirtgateProcess('agent', args, env);
}

/** `virtgate aggregator` as the Deployment runs it. */
export function startAggregatorProcess(args: string[], env: Record<string, string> = {}): Promise<AggregatorProcess> {
  return startVirtgateProcess('aggregator', args, env);
}

export interface ManagedVirtgate {
  name: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface ManagedOptions {
  /** Names the log and pid files: `<dir>/logs/<name>.log`, `<dir>/pids/<name>.pid`. */
  name: string;
  dir: string;
  /** The `virtgate` arguments, given the port to serve on. */
  args: (port: number) => string[];
  /** Answers 200 once the process is up, e.g. `/healthz`. */
  readyPath: string;
  signal: AbortSignal;
  timeoutMs?: number;
}

/** Runs `virtgate` in its own process group with a pid file, and waits until `readyPath` answers 200. */
export async function startManagedVirtgate(options: ManagedOptions): Promise<ManagedVirtgate> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new ManagedProcess(options.name, options.dir, process.execPath, () => [CLI, ...options.args(port)]);
  await child.start();
  const served: ManagedVirtgate = { name: options.name, url, logFile: child.logFile, stop: () => child.stop() };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  try {
    for (;;) {
      options.signal.throwIfAborted();
      if (!child.running) throw new Error(`${options.name} exited during start-up:\n${await tail(child.logFile)}`);
      const status = await fetch(`${url}${options.readyPath}`).then((response) => response.status, () => 0);
      if (status === 200) return served;
      if (Date.now() > deadline) throw new Error(`${options.name} did not answer ${options.readyPath} with 200 in time (last: ${status || 'no answer'}); see ${child.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await child.stop();
    throw error;
  }
}

async function tail(file: string, lines = 10): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
