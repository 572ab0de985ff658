/**
 * Every bad setting of every command (check, agent, aggregator, gate, tuple, prune) — flags,
 * environment variables, files — stops the real CLI with exactly one line on stderr that names
 * what is wrong, nothing on stdout, and exit code 2 (4 for a cluster that cannot be reached).
 * Never a stack trace, never a hang.
 */
import { chmod, copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_VERBS } from '../lab/controlplane/audit.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { REPO_ROOT } from '../lab/hosts/paths.ts';
import { closedPort } from '../lab/controlplane/ports.ts';
import { Fault } from './ledger.ts';
import { type CliRun, runCli } from '../lab/cli.ts';
import { cliEnv } from './child-env.ts';

const cp = useControlPlane();
/** The identity of the admin kubeconfig every refused command here was given (test/lab/controlplane/pki.ts). */
const ADMIN_USER = 'virtgate-test-admin';

interface Row {
  command: string;
  why: string;
  args: () => string[];
  env?: Record<string, string>;
  withoutDacCaps?: boolean;
  /** What the one line must name (the flag, the variable, the file). */
  names: RegExp;
  /** 2 (bad input) unless the row is a cluster that cannot be reached: 4, worth a retry. */
  exit?: number;
}

let dir = '';
let hostRoot = '';
let aFile = '';
let garbageYaml = '';
let invalidVersions = '';
let unreadable = '';
let unreachableKubeconfig = '';
let busyPort = 0;
let busy: net.Server;

const NODE = ['--node-name', 'fault-config'];
const agent = (...args: string[]) => () => ['agent', ...NODE, '--host-root', hostRoot, '--kubeconfig', cp.adminKubeconfig, '--port', '0', ...args];
const aggregator = (...args: string[]) => () => ['aggregator', '--kubeconfig', cp.adminKubeconfig, '--port', '0', ...args];
const gate = (...args: string[]) => () => ['gate', '--kubeconfig', cp.adminKubeconfig, ...args];
const tuple = (...args: string[]) => () => ['tuple', ...args];
const prune = (...args: string[]) => () => ['prune', '--kubeconfig', cp.adminKubeconfig, '--dry-run', ...args];
const check = (...args: string[]) => () => ['check', '--no-vhv', ...args];

const ROWS: Row[] = [
  { command: 'virtgate', why: 'an unknown command', args: () => ['frobnicate'], names: /frobnicate/ },
  // check
  { command: 'check', why: 'an unknown flag', args: check('--jsno'), names: /--jsno/ },
  { command: 'check', why: 'a host root that does not exist', args: check('--host-root', '/nonexistent/fault'), names: /--host-root/ },
  { command: 'check', why: 'a host root that is a file', args: () => ['check', '--no-vhv', '--host-root', aFile], names: /--host-root/ },
  { command: 'check', why: 'a bad --min-kernel', args: check('--min-kernel', '4'), names: /--min-kernel/ },
  { command: 'check', why: 'a zero --vhv-timeout', args: () => ['check', '--vhv-timeout', '0'], names: /--vhv-timeout/ },
  { command: 'check', why: 'a missing --vhv-output file', args: () => ['check', '--host-root', hostRoot, '--vhv-output', '/nonexistent/vhv.txt'], names: /--vhv-output/ },
  { command: 'check', why: '--vhv-output with --no-vhv', args: () => ['check', '--vhv-output', aFile, '--no-vhv'], names: /--vhv-output/ },
  // The device numbers come from the host's sysfs: there is no option to set them.
  { command: 'check', why: 'a --device-numbers option (there is none)', args: check('--device-numbers', 'kvm=10:232'), names: /--device-numbers/ },
  // agent
  { command: 'agent', why: 'NODE_NAME empty and no --node-name', args: () => ['agent', '--host-root', hostRoot, '--kubeconfig', cp.adminKubeconfig], env: { NODE_NAME: '' }, names: /NODE_NAME/ },
  { command: 'agent', why: 'a node name that is not a DNS name', args: agent('--node-name', 'Bad_Node'), names: /--node-name/ },
  { command: 'agent', why: 'a host root that does not exist', args: agent('--host-root', '/nonexistent/fault'), names: /host root/ },
  { command: 'agent', why: 'a prefix under kubernetes.io', args: agent('--prefix', 'virtgate.kubernetes.io'), names: /--prefix/ },
  { command: 'agent', why: 'a prefix from VIRTGATE_PREFIX that is not a DNS name', args: () => ['agent', ...NODE, '--host-root', hostRoot, '--kubeconfig', cp.adminKubeconfig], env: { VIRTGATE_PREFIX: 'Not A Prefix' }, names: /--prefix/ },
  { command: 'agent', why: 'a duration that is not one', args: agent('--interval', 'soon'), names: /--interval/ },
  { command: 'agent', why: 'an interval under 10 s', args: agent('--interval', '5s'), names: /--interval/ },
  { command: 'agent', why: 'a jitter above 0.5', args: agent('--jitter', '0.9'), names: /--jitter/ },
  { command: 'agent', why: 'a heartbeat shorter than the interval', args: agent('--interval', '10m', '--heartbeat', '5m'), names: /--heartbeat/ },
  { command: 'agent', why: 'a port above 65535', args: agent('--port', '70000'), names: /--port/ },
  { command: 'agent', why: 'an empty bind address', args: agent('--bind-address', ''), names: /--bind-address/ },
  { command: 'agent', why: 'an empty --vhv-command', args: agent('--vhv-command', ''), names: /--vhv-command/ },
  { command: 'agent', why: 'a pool selector that is not a selector', args: agent('--taint-policy', 'not-ready', '--taint-pool-selector', 'a b c'), names: /--taint-pool-selector/ },
  { command: 'agent', why: 'NoExecute without --allow-no-execute', args: agent('--taint-policy', 'not-ready', '--taint-effect', 'NoExecute'), names: /--taint-effect.*--allow-no-execute/ },
  { command: 'agent', why: 'the bootstrap policy without its key', args: agent('--taint-policy', 'bootstrap'), names: /--bootstrap-taint-key/ },
  { command: 'agent', why: 'VIRTGATE_LOG_LEVEL unknown', args: agent(), env: { VIRTGATE_LOG_LEVEL: 'loud' }, names: /--log-level/ },
  { command: 'agent', why: 'a kubeconfig that does not exist', args: agent('--kubeconfig', '/nonexistent/kubeconfig'), names: /kubeconfig/ },
  { command: 'agent', why: 'a kubeconfig that is not YAML', args: () => agent('--kubeconfig', garbageYaml)(), names: /kubeconfig/ },
  { command: 'agent', why: 'a port that is taken', args: () => agent('--port', String(busyPort), '--bind-address', '127.0.0.1')(), names: /cannot serve HTTP/ },
  // aggregator
  { command: 'aggregator', why: 'a bad port', args: aggregator('--port', 'eighty'), names: /--port/ },
  { command: 'aggregator', why: 'a prefix under kubevirt.io', args: aggregator('--prefix', 'x.kubevirt.io'), names: /--prefix/ },
  { command: 'aggregator', why: 'a --versions file that does not exist', args: aggregator('--versions', '/nonexistent/versions.yaml'), names: /versions/ },
  { command: 'aggregator', why: 'a --versions file that is invalid', args: () => aggregator('--versions', invalidVersions)(), names: /versions|invalid/i },
  { command: 'aggregator', why: 'a --versions file that cannot be read (EACCES)', args: () => aggregator('--versions', unreadable)(), withoutDacCaps: true, names: /version data file: permission denied/ },
  { command: 'aggregator', why: 'a stale-after under 60 s', args: aggregator('--stale-after', '30s'), names: /--stale-after/ },
  { command: 'aggregator', why: 'a fractional --min-ready', args: aggregator('--min-ready', '1.5'), names: /--min-ready/ },
  { command: 'aggregator', why: 'a kubeconfig that does not exist', args: aggregator('--kubeconfig', '/nonexistent/kubeconfig'), names: /kubeconfig/ },
  { command: 'aggregator', why: 'a port that is taken', args: () => aggregator('--port', String(busyPort), '--bind-address', '127.0.0.1')(), names: /cannot serve HTTP/ },
  // gate
  { command: 'gate', why: 'a --versions file that does not exist', args: gate('--versions', '/nonexistent/versions.yaml'), names: /versions/ },
  { command: 'gate', why: 'a stale-after that is not a duration', args: gate('--stale-after', 'a while'), names: /--stale-after/ },
  { command: 'gate', why: 'a bad prefix', args: gate('--prefix', 'UPPER.example.com'), names: /--prefix/ },
  { command: 'gate', why: 'a kubeconfig that does not exist', args: gate('--kubeconfig', '/nonexistent/kubeconfig'), names: /kubeconfig/ },
  { command: 'gate', why: 'a kubeconfig that is not YAML', args: () => gate('--kubeconfig', garbageYaml)(), names: /kubeconfig/ },
  { command: 'gate', why: 'an API server that does not answer', args: () => gate('--kubeconfig', unreachableKubeconfig, '--request-timeout', '2s')(), names: /API server/, exit: 4 },
  // tuple
  { command: 'tuple', why: 'no --kubevirt', args: tuple('--kubernetes', '1.35'), names: /--kubevirt/ },
  { command: 'tuple', why: 'a --kubevirt that is not a version', args: tuple('--kubevirt', 'latest', '--kubernetes', '1.35'), names: /--kubevirt/ },
  { command: 'tuple', why: 'a --kubernetes without a minor', args: tuple('--kubevirt', '1.7', '--kubernetes', '1'), names: /--kubernetes/ },
  { command: 'tuple', why: 'a --calendar-date that does not exist', args: tuple('--kubevirt', '1.7', '--kubernetes', '1.35', '--calendar-date', '2026-02-30'), names: /--calendar-date/ },
  { command: 'tuple', why: 'a --versions file that does not exist', args: tuple('--kubevirt', '1.7', '--kubernetes', '1.35', '--versions', '/nonexistent/versions.yaml'), names: /versions/ },
  // prune
  { command: 'prune', why: 'a prefix under k8s.io', args: prune('--prefix', 'virtgate.k8s.io'), names: /--prefix/ },
  { command: 'prune', why: 'a bad --request-timeout', args: prune('--request-timeout', 'never'), names: /--request-timeout/ },
  { command: 'prune', why: 'a kubeconfig that does not exist', args: prune('--kubeconfig', '/nonexistent/kubeconfig'), names: /kubeconfig/ },
  { command: 'prune', why: 'an API server that does not answer', args: () => prune('--kubeconfig', unreachableKubeconfig, '--request-timeout', '2s')(), names: /^virtgate: cannot list nodes: .*ECONNREFUSED/, exit: 4 },
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'fault-config-'));
  hostRoot = await mkdtemp(path.join(dir, 'host-'));
  aFile = path.join(dir, 'a-file.txt');
  await writeFile(aFile, 'not a directory\n');
  garbageYaml = path.join(dir, 'garbage.kubeconfig');
  await writeFile(garbageYaml, '{{{ this: is: not yaml ]]\n\u0000\u0001');
  invalidVersions = path.join(dir, 'versions.yaml');
  await writeFile(invalidVersions, 'updated: yesterday\nkubevirt: 42\n');
  unreadable = path.join(dir, 'unreadable.yaml');
  await copyFile(path.join(REPO_ROOT, 'data/versions.yaml'), unreadable);
  await chmod(unreadable, 0o000);
  unreachableKubeconfig = await writeKubeconfig(path.join(dir, 'unreachable.kubeconfig'), `https://127.0.0.1:${await closedPort()}`, cp.caFile, { token: 'x' });
  busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => busy?.close(() => resolve()));
});

function problems(row: Row, run: CliRun): string[] {
  const found: string[] = [];
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  if (run.timedOut) found.push('did not stop');
  if (run.code !== (row.exit ?? 2)) found.push(`exit ${run.code}`);
  if (lines.length !== 1) found.push(`${lines.length} lines on stderr: ${JSON.stringify(run.stderr.slice(0, 400))}`);
  if (run.stdout.trim() !== '') found.push(`stdout: ${JSON.stringify(run.stdout.slice(0, 200))}`);
  if (/\n\s+at |internal error/.test(run.stderr)) found.push('a stack trace or an internal error');
  // One prefix for every command's error line, commander's parse errors included.
  if (!(lines[0] ?? '').startsWith('virtgate: ')) found.push(`the line does not start with "virtgate: ": ${JSON.stringify(lines[0])}`);
  if (!row.names.test(lines[0] ?? '')) found.push(`the line does not name ${row.names}: ${JSON.stringify(lines[0])}`);
  return found;
}

describe('bad configuration: one line on stderr, exit 2, for every command', () => {
  for (const command of ['virtgate', 'check', 'agent', 'aggregator', 'gate', 'tuple', 'prune']) {
    const rows = ROWS.filter((row) => row.command === command);
    it(`${command}: ${rows.map((row) => row.why).join('; ')}`, async () => {
      const fault = new Fault('bad-config', `virtgate ${command}`);
      // The census: the refused processes hold the admin kubeconfig, so the audit log must show no
      // write by the admin in this window (files run one at a time and this test writes nothing).
      // It names no object to count: each write found is an object lost; the rows are inputs.
      fault.touchesNoObjects('a refused start-up never gets a client: the audit log must show no write by the admin identity it held (each one found counts as an object lost)');
      const mark = await cp.audit.mark();
      try {
        const failures: string[] = [];
        // Three processes at a time: the machine is shared.
        for (let index = 0; index < rows.length; index += 3) {
          const batch = rows.slice(index, index + 3);
          const runs = await Promise.all(batch.map((row) => runCli(row.args(), { ...cliEnv(), ...row.env }, { withoutDacCaps: row.withoutDacCaps ?? false, timeoutMs: 45_000, allowTimeout: true })));
          batch.forEach((row, at) => {
            fault.tried();
            const run = runs[at] as CliRun;
            for (const problem of problems(row, run)) failures.push(`${row.why}: ${problem}`);
          });
        }
        const writes = (await cp.audit.since(mark)).filter((event) => WRITE_VERBS.has(event.verb) && event.user.username === ADMIN_USER);
        fault.objects(0, writes.length);
        expect(writes.map((event) => `${event.verb} ${event.requestURI}`)).toEqual([]);
        expect(failures).toEqual([]);
        fault.handled();
      } finally {
        fault.finish();
      }
    });
  }
});
