/** `virtgate agent` as a real process, the way the DaemonSet runs it, on a fixture host root. */
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI_MAIN, REPO_ROOT } from '../hosts/paths.ts';
import { waitFor } from '../support/wait.ts';

export interface RunningAgent {
  port: number;
  output: () => string;
  /** The value of one series of its /metrics, e.g. ('virtgate_publish_failures_total'). */
  metric(name: string, labels?: Record<string, string>): Promise<number | undefined>;
  /** Every series of one metric of its /metrics: the label part (`{a="b",...}`) and the value. */
  series(name: string): Promise<Array<{ labels: string; value: number }>>;
  stop(): Promise<void>;
}

export async function startAgent(args: string[], env: Record<string, string> = {}): Promise<RunningAgent> {
  const child: ChildProcess = spawn(process.execPath, [CLI_MAIN, 'agent', '--port', '0', '--bind-address', '127.0.0.1', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = await Promise.race([
    waitFor('the agent to listen', async () => {
      for (const line of output.split('\n')) {
        if (!line.includes('virtgate agent started')) continue;
        return String((JSON.parse(line) as { address?: unknown }).address);
      }
      return undefined;
    }),
    exited.then(() => {
      throw new Error(`the agent exited before listening:\n${output}`);
    }),
  ]);
  const port = Number(new URL(address).port);
  return {
    port,
    output: () => output,
    async metric(name, labels = {}) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      for (const line of text.split('\n')) {
        if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
        if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
      }
      return undefined;
    },
    async series(name) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
        .map((line) => ({ labels: line.slice(name.length, line.lastIndexOf(' ')), value: Number(line.slice(line.lastIndexOf(' ') + 1)) }));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The installed DaemonSet's own arguments, with what only a real pod has swapped for this test:
 * the host root (a fixture tree instead of the /host mounts) and the port (any free one).
 */
export function agentArgsFromDaemonSet(daemonSetArgs: string[] | undefined, hostArgs: string[]): string[] {
  const [command, ...rest] = daemonSetArgs ?? [];
  if (command !== 'agent') throw new Error(`the DaemonSet does not run "virtgate agent": ${JSON.stringify(daemonSetArgs)}`);
  return [...rest.filter((arg) => !arg.startsWith('--host-root=') && !arg.startsWith('--port=')), ...hostArgs];
}
