import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One control-plane component: its own process group (so its children die with it), its
 * output in `<dir>/logs/<name>.log`, and its pid in `<dir>/pids/` where the watchdog finds it.
 */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;

  readonly name: string;
  private readonly dir: string;
  private readonly command: string;
  private readonly args: () => string[];

  constructor(name: string, dir: string, command: string, args: () => string[]) {
    this.name = name;
    this.dir = dir;
    this.command = command;
    this.args = args;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get logFile(): string {
    return path.join(this.dir, 'logs', `${this.name}.log`);
  }

  async start(): Promise<void> {
    if (this.running) return;
    await mkdir(path.join(this.dir, 'logs'), { recursive: true });
    await mkdir(path.join(this.dir, 'pids'), { recursive: true });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(this.command, this.args(), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    await writeFile(path.join(this.dir, 'pids', `${this.name}.pid`), String(child.pid));
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves once the process group leader has exited. */
  async stop(graceMs = 5000): Promise<void> {
    const child = this.child;
    if (!child?.pid || !this.running) return;
    const group = -child.pid;
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // already gone
      }
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
    await rm(path.join(this.dir, 'pids', `${this.name}.pid`), { force: true });
  }

  /** SIGKILL only, as a crash would: the process gets no signal it could handle first. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child?.pid || !this.running) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
    await rm(path.join(this.dir, 'pids', `${this.name}.pid`), { force: true });
  }
}

/**
 * A shell loop that outlives us by at most a second: when our process dies without cleaning
 * up (a crashed test runner, SIGKILL), it kills every recorded process group and removes the dir.
 */
export function startWatchdog(dir: string): ChildProcess {
  const script = `
    while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done
    for f in "${dir}"/pids/*.pid; do [ -f "$f" ] && kill -KILL -- -"$(cat "$f")" 2>/dev/null; done
    rm -rf "${dir}"`;
  const watchdog = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return watchdog;
}
