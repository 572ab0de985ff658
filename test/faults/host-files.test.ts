/**
 * Host files that cannot be trusted, through the real `virtgate check`: files under /proc and
 * /sys that are directories, FIFOs, unreadable (EACCES, for real: the process runs without root's
 * DAC capabilities), truncated, or huge. Each time the affected check is `error` (the probe could
 * not tell), never `fail`; nothing else turns to `fail`; the command finishes (a FIFO never blocks
 * it) with exit 0 or 1, not 2; and a huge file is read only up to its bound, so memory stays
 * small.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../core/checks/outcome.ts';
import { buildHost, type HostProfile } from '../lab/hosts/build-host.ts';
import { cutAfter, directory, emptied, fifo, huge, type Mutation, noAccess, symlinkLoop } from './host-mutations.ts';
import { Fault } from './ledger.ts';
import { runCli } from '../lab/cli.ts';
import { cliEnv } from './child-env.ts';

interface CheckJson {
  tier: string;
  ready: boolean;
  conclusive: boolean;
  checks: Array<{ id: string; status: CheckStatus; message: string }>;
}

interface Row {
  name: string;
  profile?: HostProfile;
  mutate: Mutation;
  withoutDacCaps?: boolean;
  /** check id → the status it must have and, optionally, what its message must say. */
  expect: Record<string, { status: CheckStatus; message?: RegExp }>;
}

const GiB = 1024 ** 3;
// The check's peak memory with a 1 GiB file must stay far below the file's size.
const MAX_RSS_MIB = 250;

const ROWS: Row[] = [
  { name: 'proc/cpuinfo is a directory', mutate: directory('proc/cpuinfo'), expect: { 'cpu.virtualization': { status: 'error', message: /EISDIR/ }, 'kvm.nested': { status: 'error' } } },
  { name: 'proc/cpuinfo is a FIFO', mutate: fifo('proc/cpuinfo'), expect: { 'cpu.virtualization': { status: 'error', message: /ENOTREG/ } } },
  { name: 'proc/cpuinfo is unreadable (EACCES)', mutate: noAccess('proc/cpuinfo'), withoutDacCaps: true, expect: { 'cpu.virtualization': { status: 'error', message: /EACCES/ } } },
  { name: 'proc/cpuinfo is cut inside the flags line', mutate: cutAfter('proc/cpuinfo', 'flags\t\t: ', 60), expect: { 'cpu.virtualization': { status: 'error', message: /truncated/ } } },
  { name: 'proc/cpuinfo is 1 GiB', mutate: huge('proc/cpuinfo', GiB), expect: { 'cpu.virtualization': { status: 'error' } } },
  { name: 'proc/modules is 1 GiB', mutate: huge('proc/modules', GiB), expect: { 'kernel.modules': { status: 'pass' } } },
  { name: 'proc/sys/kernel/osrelease is empty', mutate: emptied('proc/sys/kernel/osrelease'), expect: { 'kernel.version': { status: 'error' } } },
  { name: 'proc/sys/kernel/osrelease is a FIFO', mutate: fifo('proc/sys/kernel/osrelease'), expect: { 'kernel.version': { status: 'error', message: /ENOTREG/ } } },
  { name: 'etc/os-release is 1 GiB after its ID line', mutate: huge('etc/os-release', GiB, 'ID="rhel"\nPRETTY_NAME="Red Hat Enterprise Linux 9.2"\n'), expect: { 'os.userland': { status: 'pass' } } },
  { name: 'sys/fs/cgroup/cgroup.controllers is a directory', mutate: directory('sys/fs/cgroup/cgroup.controllers'), expect: { cgroup: { status: 'error', message: /EISDIR/ } } },
  { name: 'sys/fs/cgroup/cgroup.controllers is unreadable (EACCES)', mutate: noAccess('sys/fs/cgroup/cgroup.controllers'), withoutDacCaps: true, expect: { cgroup: { status: 'error', message: /EACCES/ } } },
  { name: 'sys/kernel/iommu_groups is unreadable (EACCES)', mutate: noAccess('sys/kernel/iommu_groups'), withoutDacCaps: true, expect: { iommu: { status: 'error', message: /EACCES/ } } },
  { name: 'sys/bus/pci/devices is unreadable (EACCES)', profile: 'gpu-shared-group', mutate: noAccess('sys/bus/pci/devices'), withoutDacCaps: true, expect: { passthrough: { status: 'error', message: /EACCES/ } } },
  // The walk reads without waiting: a FIFO leaves the function's ids unknown, its driver and group still count.
  { name: "a PCI function's uevent is a FIFO", profile: 'gpu-shared-group', mutate: fifo('sys/bus/pci/devices/0000:01:00.0/uevent'), expect: { passthrough: { status: 'warn', message: /group-not-viable/ } } },
  { name: 'sys/module/kvm_intel/parameters/nested is a FIFO', mutate: fifo('sys/module/kvm_intel/parameters/nested'), expect: {} },
  { name: 'dev/kvm is a symlink loop (stat fails with ELOOP)', mutate: symlinkLoop('dev/kvm'), expect: { 'dev.kvm': { status: 'error', message: /ELOOP/ } } },
];

const baselines = new Map<HostProfile, CheckJson>();

async function checkHost(profile: HostProfile, mutate?: Mutation, withoutDacCaps = false) {
  const host = await buildHost(await mkdtemp(path.join(os.tmpdir(), 'fault-hostfile-')), profile);
  await mutate?.(host.root);
  const run = await runCli(['check', '--json', '--no-vhv', ...host.cliArgs], cliEnv(), { withoutDacCaps, measureRss: true, timeoutMs: 60_000 });
  return { run, json: run.stdout ? (JSON.parse(run.stdout) as CheckJson) : undefined };
}

beforeAll(async () => {
  for (const profile of new Set(ROWS.map((row) => row.profile ?? 'intel-metal'))) {
    const { json } = await checkHost(profile);
    if (!json) throw new Error(`no baseline for ${profile}`);
    baselines.set(profile, json);
  }
});

describe('host files that cannot be trusted (virtgate check)', () => {
  // Three at a time: the machine is shared.
  const batches = Array.from({ length: Math.ceil(ROWS.length / 3) }, (_, index) => ROWS.slice(index * 3, index * 3 + 3));
  it.each(batches.map((batch) => [batch.map((row) => row.name).join('; '), batch] as const))('%s', async (_names, batch) => {
    await Promise.all(
      batch.map(async (row) => {
        const fault = new Fault('host-file', row.name);
        fault.touchesNoObjects('virtgate check on a fixture host, no cluster; the agent under broken host files is probe-error and kvm-vanish');
        fault.tried();
        try {
          const profile = row.profile ?? 'intel-metal';
          const { run, json } = await checkHost(profile, row.mutate, row.withoutDacCaps);
          expect(run.code, `${row.name}: ${run.stderr}`).toBeLessThan(2);
          expect(json, row.name).toBeDefined();
          const report = json as CheckJson;
          const status = (id: string) => report.checks.find((check) => check.id === id);
          for (const [id, want] of Object.entries(row.expect)) {
            expect(status(id)?.status, `${row.name}: ${id} (${status(id)?.message})`).toBe(want.status);
            if (want.message) expect(status(id)?.message, `${row.name}: ${id}`).toMatch(want.message);
          }
          // An unreadable file never makes anything fail that did not fail on the intact host.
          const baseline = baselines.get(profile) as CheckJson;
          const newFailures = report.checks.filter((check) => check.status === 'fail' && baseline.checks.find((b) => b.id === check.id)?.status !== 'fail');
          expect(newFailures, row.name).toEqual([]);
          // A tier check that could not tell makes the verdict inconclusive, never a finding.
          const tierError = report.checks.some((check) => ['cpu.virtualization', 'dev.kvm', 'dev.tun'].includes(check.id) && check.status === 'error');
          expect(report.conclusive, row.name).toBe(!tierError);
          expect(run.maxRssMiB, `${row.name}: peak memory`).toBeLessThan(MAX_RSS_MIB);
          fault.handled();
        } finally {
          fault.finish();
        }
      }),
    );
  });
});
