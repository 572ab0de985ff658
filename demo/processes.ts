/**
 * The demo's virtgate processes (agents, aggregator): `node cli/main.ts <command>` on a free
 * loopback port, each in its own process group with its log and pid file in the control plane's
 * directory. The control plane's watchdog reads those pid files, so even a demo killed with
 * SIGKILL leaves none of them running.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { freePort } from '../test/lab/controlplane/ports.ts';
import { ManagedProcess } from '../test/lab/controlplane/process.ts';

const CLI = path.join(PACKAGE_ROOT, 'cli/main.ts');

export interface ServedProcess {
  name: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface ServeOptions {
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

export async function startServed(options: ServeOptions): Promise<ServedProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new ManagedProcess(options.name, options.dir, process.execPath, () => [CLI, ...options.args(port)]);
  await child.start();
  const served: ServedProcess = { name: options.name, url, logFile: child.logFile, stop: () => child.stop() };
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
