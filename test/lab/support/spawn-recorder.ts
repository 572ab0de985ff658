/**
 * Preloaded into a process under test (`NODE_OPTIONS=--import <this file>`): records every child
 * process it starts, one JSON line per start, in the file `VIRTGATE_LAB_SPAWN_LOG` names. A test
 * then counts them. It hooks the two places every Node.js start goes through: a ChildProcess's
 * spawn (spawn, exec, execFile, fork, and so execa) and the synchronous spawn binding
 * (spawnSync, execSync, execFileSync). strace would see the same from outside, but it is not
 * among the packages the suite installs.
 */
import { appendFileSync } from 'node:fs';
import { ChildProcess } from 'node:child_process';

const log = process.env.VIRTGATE_LAB_SPAWN_LOG;
if (!log) throw new Error('spawn-recorder: set VIRTGATE_LAB_SPAWN_LOG to the file to record child processes in');
// The children of the process under test must not record into the same file.
delete process.env.VIRTGATE_LAB_SPAWN_LOG;
delete process.env.NODE_OPTIONS;

const record = (kind: 'async' | 'sync', options: { file?: unknown; args?: unknown }): void => {
  appendFileSync(log, `${JSON.stringify({ kind, file: options.file, args: options.args })}\n`);
};

interface SpawnOptions {
  file?: unknown;
  args?: unknown;
}

// An internal method, not in Node.js's types: every asynchronous start calls it on a new ChildProcess.
const prototype = ChildProcess.prototype as unknown as { spawn: (this: ChildProcess, options: SpawnOptions) => unknown };
const asyncSpawn = prototype.spawn;
prototype.spawn = function recordedSpawn(this: ChildProcess, options: SpawnOptions) {
  record('async', options);
  return asyncSpawn.call(this, options);
};

// The synchronous spawns call this binding directly, not ChildProcess.
const binding = (process as unknown as { binding(name: string): { spawn: (options: SpawnOptions) => unknown } }).binding('spawn_sync');
const syncSpawn = binding.spawn;
binding.spawn = function recordedSyncSpawn(options: SpawnOptions) {
  record('sync', options);
  return syncSpawn.call(this, options);
};
