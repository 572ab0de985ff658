/**
 * The real node's truth, read by test code that shares nothing with virtgate: it imports only
 * Node.js itself (test/lab/support/node-truth-imports.test.ts holds it to that). It opens the
 * devices directly, reads /proc/misc and the CPU flags, and asks Python's fcntl.ioctl whether
 * KVM makes a VM and a vCPU (the reading cli/commands/check.machine.test.ts uses for kvm.run).
 * What the node publishes (the agent pod's labels, the Node condition, the NodeValidation, or
 * `virtgate check --node`'s report) is then held to a small table of invariants a person would
 * check by hand, each written for a host with usable KVM and for one without.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** open(O_RDWR) of a device: 'ok', 'missing' or the errno code. */
type OpenOutcome = string;

export interface HostReading {
  arm64: boolean;
  /** x86 whose CPU flags show neither vmx nor svm. */
  x86WithoutHwVirt: boolean;
  kvm: OpenOutcome;
  /** Paravirtual KVM (kvm_pvm), which serves /dev/kvm without VT-x/AMD-V. */
  kvmPvm: boolean;
  tun: OpenOutcome;
  vhostNet: OpenOutcome;
  /** The misc drivers the kernel registered (/proc/misc: minor and name). */
  misc: string[];
  /** Python's reading of /dev/kvm: null where it made a VM and a vCPU, else the step that failed. */
  kvmRunStep: 'open' | 'create' | null;
  /** Usable KVM as a person reads it: the CPU can (VT-x/AMD-V, or arm64), /dev/kvm opens, not through kvm_pvm. */
  kvmUsable: boolean;
}

function opens(file: string): OpenOutcome {
  if (!existsSync(file)) return 'missing';
  try {
    closeSync(openSync(file, constants.O_RDWR | constants.O_NONBLOCK));
    return 'ok';
  } catch (error) {
    return error && typeof error === 'object' && 'code' in error ? String(error.code) : 'EUNKNOWN';
  }
}

const KVM_RUN_READING = `
import errno, fcntl, json, os
def out(**f): print(json.dumps(f)); raise SystemExit
try: fd = os.open('/dev/kvm', os.O_RDWR | os.O_CLOEXEC)
except OSError as e: out(step='open', errno=errno.errorcode[e.errno])
try: vm = fcntl.ioctl(fd, 0xAE01, 0); fcntl.ioctl(vm, 0xAE41, 0)
except OSError as e: out(step='create', errno=errno.errorcode[e.errno])
out(step=None)
`;

/** Reads this machine (the node's host: the pods see its devices through their host mounts). */
export function readHost(): HostReading {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const flags = cpuinfo.match(/^flags\s*:(.*)$/m)?.[1]?.trim().split(/\s+/) ?? [];
  const arm64 = flags.length === 0 && /^(Features|CPU implementer)\s*:/m.test(cpuinfo);
  const x86WithoutHwVirt = !arm64 && !flags.includes('vmx') && !flags.includes('svm');
  const kvm = opens('/dev/kvm');
  const kvmPvm = existsSync('/sys/module/kvm_pvm');
  const reading = JSON.parse(execFileSync('python3', ['-c', KVM_RUN_READING], { encoding: 'utf8' })) as { step: 'open' | 'create' | null };
  return {
    arm64,
    x86WithoutHwVirt,
    kvm,
    kvmPvm,
    tun: opens('/dev/net/tun'),
    vhostNet: opens('/dev/vhost-net'),
    misc: readFileSync('/proc/misc', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[1])
      .filter((name): name is string => Boolean(name)),
    kvmRunStep: reading.step,
    kvmUsable: !x86WithoutHwVirt && kvm === 'ok' && !kvmPvm,
  };
}

/**
 * The reading of another host on this machine: this file run as a program by `enter` (the command
 * prefix that runs inside a cluster node's namespaces, test/lab/cluster/layout.ts enterNode), so
 * it opens that node's /dev.
 */
export function readHostIn(enter: readonly string[]): HostReading {
  const [command = '', ...prefix] = enter;
  return JSON.parse(execFileSync(command, [...prefix, process.execPath, fileURLToPath(import.meta.url)], { encoding: 'utf8', timeout: 60_000 })) as HostReading;
}

// Run as a program (readHostIn): print the reading.
if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(JSON.stringify(readHost()));

interface PublishedReport {
  tier?: string;
  ready?: boolean;
  checks: Record<string, string>;
}

/**
 * What the node published, as plain data, by who published it. Both read the node under a host
 * root (/host): the agent (the DaemonSet), which also writes the labels and the condition, and
 * `virtgate check --node` (a pod), which prints a report only.
 */
export type Published =
  | (PublishedReport & { caller: 'agent'; labels: { ready?: string; tier?: string }; condition?: string })
  | (PublishedReport & { caller: 'check --node' });

/** The expectation on a host with usable KVM and on one without; the reading picks the branch. */
function byHost<T>(host: HostReading, expected: { withKvm: T; withoutKvm: T }): T {
  return host.kvmUsable ? expected.withKvm : expected.withoutKvm;
}

interface Invariant {
  name: string;
  /** Only these callers publish what the invariant judges; absent means every caller. */
  callers?: ReadonlyArray<Published['caller']>;
  /** Whether `published` agrees with `host`; a string says how it does not. */
  holds: (host: HostReading, published: Published) => true | string;
}

const statusIn = (published: Published, id: string, allowed: string[]): true | string => {
  const status = published.checks[id];
  return status !== undefined && allowed.includes(status) ? true : `${id} is ${status ?? 'absent'}, want ${allowed.join(' or ')}`;
};

/** The tier a person expects: hardware needs usable KVM and tun; tun alone is emulation. */
function expectedTier(host: HostReading): string {
  if (host.tun !== 'ok') return 'none';
  return byHost(host, { withKvm: 'hardware', withoutKvm: 'emulation' });
}

export const INVARIANTS: Invariant[] = [
  { name: 'the tier follows from KVM and tun', holds: (host, p) => (p.tier === expectedTier(host) ? true : `tier ${p.tier}, want ${expectedTier(host)}`) },
  {
    // The chart's default policy (agent.allowEmulation: false): ready exactly where KVM is usable
    // and tun opens, read from the host alone (a check that fails there is a finding to look at).
    name: 'ready exactly with usable KVM and tun',
    holds: (host, p) => {
      const want = host.kvmUsable && host.tun === 'ok';
      return p.ready === want ? true : `ready ${String(p.ready)}, want ${String(want)}`;
    },
  },
  {
    name: 'the ready label says the host\'s verdict',
    callers: ['agent'],
    holds: (host, p) => {
      const want = String(host.kvmUsable && host.tun === 'ok');
      return p.caller === 'agent' && p.labels.ready === want ? true : `label ready=${p.caller === 'agent' ? (p.labels.ready ?? 'absent') : 'n/a'}, want ${want}`;
    },
  },
  {
    name: 'the tier label says the host\'s tier',
    callers: ['agent'],
    holds: (host, p) => (p.caller === 'agent' && p.labels.tier === expectedTier(host) ? true : `label tier=${p.caller === 'agent' ? (p.labels.tier ?? 'absent') : 'n/a'}, want ${expectedTier(host)}`),
  },
  {
    name: 'the VirtualizationReady condition says the host\'s verdict',
    callers: ['agent'],
    holds: (host, p) => {
      const want = host.kvmUsable && host.tun === 'ok' ? 'True' : 'False';
      return p.caller === 'agent' && p.condition === want ? true : `condition ${p.caller === 'agent' ? (p.condition ?? 'absent') : 'n/a'}, want ${want}`;
    },
  },
  { name: 'cpu.virtualization: fails exactly on x86 without VT-x/AMD-V', holds: (host, p) => statusIn(p, 'cpu.virtualization', [host.x86WithoutHwVirt ? 'fail' : 'pass']) },
  {
    name: 'dev.kvm: passes where KVM is usable, warns where kvm_pvm serves it, fails where it does not open',
    holds: (host, p) =>
      statusIn(p, 'dev.kvm', byHost(host, { withKvm: ['pass'], withoutKvm: host.kvm === 'ok' ? [host.kvmPvm ? 'warn' : 'pass'] : ['fail'] })),
  },
  { name: 'dev.kvm: never passes without the kvm misc driver in /proc/misc', holds: (host, p) => (host.misc.includes('kvm') ? true : statusIn(p, 'dev.kvm', ['fail'])) },
  { name: 'dev.tun: passes exactly where /dev/net/tun opens', holds: (host, p) => statusIn(p, 'dev.tun', [host.tun === 'ok' ? 'pass' : 'fail']) },
  { name: 'dev.tun: never passes without the tun misc driver in /proc/misc', holds: (host, p) => (host.misc.includes('tun') ? true : statusIn(p, 'dev.tun', ['fail'])) },
  // vhost-net only speeds networking up: anything short of opening is a warning, never a failure.
  { name: 'dev.vhost-net: passes exactly where /dev/vhost-net opens, warns elsewhere', holds: (host, p) => statusIn(p, 'dev.vhost-net', [host.vhostNet === 'ok' ? 'pass' : 'warn']) },
  {
    // Both callers read the node under a host root, where kvm.run drives only the kernel's own
    // 10:232 node: without one it is skipped (under `/` it would fail at open).
    name: "kvm.run: passes exactly where Python's ioctls make a VM and a vCPU (skipped on arm64, and without a /dev/kvm node under the host root)",
    holds: (host, p) => statusIn(p, 'kvm.run', [host.arm64 || host.kvm === 'missing' ? 'skip' : host.kvmRunStep === null ? 'pass' : 'fail']),
  },
];

/** Every invariant `published` breaks on this host, as `name: how`. */
export function disagreements(host: HostReading, published: Published): string[] {
  return INVARIANTS.flatMap((invariant) => {
    if (invariant.callers && !invariant.callers.includes(published.caller)) return [];
    const verdict = invariant.holds(host, published);
    return verdict === true ? [] : [`${invariant.name}: ${verdict}`];
  });
}

/** The check statuses of a report's `checks` array. */
export const statusesOf = (checks: ReadonlyArray<{ id: string; status: string }> | undefined): Record<string, string> =>
  Object.fromEntries((checks ?? []).map((c) => [c.id, c.status]));
