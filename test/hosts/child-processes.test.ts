/**
 * `virtgate check --no-vhv --json` starts no child process where /dev/kvm does not open: no
 * tiny-guest runner, no helper command for the inventory. Counted by a recorder preloaded into
 * the CLI (test/lab/support/spawn-recorder.ts), for the sources and for the built bin (the
 * bundle users run), on fixture hosts and on this machine's own root with /dev/kvm made not to
 * open in a private mount namespace. A control run with virt-host-validate on shows the recorder
 * sees the starts the same code makes.
 */
import { execFile } from 'node:child_process';
import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, type BuiltHost } from '../lab/hosts/build-host.ts';
import { unservedMiscMinor } from '../lab/hosts/misc-devices.ts';
import { CLI_MAIN, REPO_ROOT, tempDir } from '../lab/hosts/paths.ts';

const BUILT_BIN = path.join(REPO_ROOT, 'dist/cli/main.js');
const RECORDER = path.join(REPO_ROOT, 'test/lab/support/spawn-recorder.ts');

interface Spawn {
  kind: 'async' | 'sync';
  file: string;
}

interface RecordedRun {
  code: number;
  report: { checks: Array<{ id: string; status: string; followsFrom?: string }>; facts: { kvmRun: Record<string, unknown> }; inventory: { collected: boolean; cpu?: { threads: number } } };
  spawns: Spawn[];
}

let base = '';
let remove = async () => {};
let runs = 0;
const hosts = new Map<string, BuiltHost>();

beforeAll(async () => {
  await access(BUILT_BIN).catch(() => {
    throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  ({ dir: base, remove } = await tempDir('child-processes'));
  // kvm-enodev: a 10:x node no driver serves (open gives ENODEV); no-vmx: no /dev/kvm at all.
  for (const profile of ['kvm-enodev', 'no-vmx'] as const) hosts.set(profile, await buildHost(path.join(base, profile), profile));
}, 60_000);
afterAll(() => remove());

/** Runs `command` (which starts the CLI) with the recorder preloaded into every Node.js it starts, and reads what it recorded. */
async function recorded(command: string[], args: string[]): Promise<RecordedRun> {
  const log = path.join(base, `spawns-${++runs}.jsonl`);
  const result = await execa(command[0] as string, [...command.slice(1), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_OPTIONS: `--import ${RECORDER}`, VIRTGATE_LAB_SPAWN_LOG: log },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    stdin: 'ignore',
  });
  expect(result.stderr, `${args.join(' ')}: stderr`).toBe('');
  const text = await readFile(log, 'utf8').catch(() => '');
  await rm(log, { force: true });
  const spawns = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Spawn);
  return { code: result.exitCode ?? -1, report: JSON.parse(result.stdout) as RecordedRun['report'], spawns };
}

const status = (run: RecordedRun, id: string) => run.report.checks.find((check) => check.id === id);

const CLIS = [
  ['the sources (node cli/main.ts)', [process.execPath, CLI_MAIN]],
  ['the built bin (dist/cli/main.js, the bundle)', [process.execPath, BUILT_BIN]],
] as const;

describe.each(CLIS)('virtgate check --no-vhv --json from %s', (_name, cli) => {
  it.each(['kvm-enodev', 'no-vmx'])('starts no child process on the fixture host %s, whose /dev/kvm does not open', async (profile) => {
    const host = hosts.get(profile);
    if (!host) throw new Error(`${profile} was not built`);
    const run = await recorded([...cli], ['check', '--no-vhv', '--json', ...host.cliArgs]);
    expect(run.code).toBe(1);
    expect(status(run, 'dev.kvm')?.status).toBe('fail');
    expect(run.spawns).toEqual([]);
  });

  it('starts no child process on this machine\'s own root with /dev/kvm made not to open, and still reads the inventory', async () => {
    // A private mount namespace: /dev/kvm, where this machine has one, is covered by a node no
    // driver serves (ENODEV), for this one command only.
    const driverless = path.join(base, 'driverless-kvm');
    await rm(driverless, { force: true });
    await promisify(execFile)('mknod', ['-m', '0666', driverless, 'c', '10', String(unservedMiscMinor())]);
    const cover = `if [ -e /dev/kvm ]; then mount --bind ${driverless} /dev/kvm; fi && exec "$@"`;
    const run = await recorded(['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', cover, 'sh', ...cli], ['check', '--no-vhv', '--json']);
    expect(status(run, 'dev.kvm')?.status).not.toBe('pass');
    expect(status(run, 'kvm.run')).toMatchObject({ status: 'fail', followsFrom: 'dev.kvm' });
    expect(run.report.facts.kvmRun).toMatchObject({ state: 'ran', outcome: 'failed', failedStep: 'open' });
    const threads = (await readFile('/proc/cpuinfo', 'utf8')).split('\n').filter((line) => /^processor\s*:/.test(line)).length;
    expect(run.report.inventory).toMatchObject({ collected: true, cpu: { threads } });
    expect(run.spawns).toEqual([]);
  });

  it('is seen starting a process when it does start one: virt-host-validate on, as /bin/true', async () => {
    const host = hosts.get('no-vmx');
    if (!host) throw new Error('no-vmx was not built');
    const run = await recorded([...cli], ['check', '--json', '--vhv-command', '/bin/true', ...host.cliArgs]);
    expect(run.spawns).toEqual([expect.objectContaining({ kind: 'async', file: '/bin/true' })]);
  });
});
