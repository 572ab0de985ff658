import type { JsonObject } from '../../json.ts';
import type { CheckFamily, LabelValue, ProbeContext } from '../family.ts';
import { describeRead, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import type { CheckOutcomeOf } from '../outcome.ts';
import { type DeviceFacts, probeDevice } from './devices.ts';
import type { VhvFacts, VhvFamilyFacts } from './vhv.ts';
import { CONFIDENTIAL_KINDS, type ConfidentialKind, KIND_NAME, MAX_KIND_REASON } from '../host/confidential-kinds.ts';

/**
 * Confidential guests: AMD SEV, SEV-ES, SEV-SNP and Intel TDX. Informational: only VMs that ask
 * for them (KubeVirt's WorkloadEncryptionSEV / WorkloadEncryptionTDX) need them, so this check
 * passes or skips and never costs the tier or readiness. It says, per kind, what stops it.
 */
const IDS = ['confidential'] as const;
type ConfidentialCheckId = (typeof IDS)[number];

export { CONFIDENTIAL_KINDS, type ConfidentialKind };

/** A kernel module parameter as sysfs shows it (trimmed), `null` when the file is absent. */
export type ModuleParameter = string | null;

/** A misc-cgroup resource at the root (SEV ASIDs, TDX KeyIDs): how many exist and how many are in use (null when the kernel does not say). */
export interface MiscPool {
  capacity: number;
  current: number | null;
}

export interface ConfidentialFacts {
  /** From the first `flags` line of proc/cpuinfo: `x86_64` only when there is one. */
  arch: 'x86_64' | 'other';
  flags: { sev: boolean; sevEs: boolean; sevSnp: boolean; tdxHostPlatform: boolean };
  /** sys/module/kvm_amd/parameters/{sev,sev_es,sev_snp} and sys/module/kvm_intel/parameters/tdx. */
  parameters: { sev: ModuleParameter; sevEs: ModuleParameter; sevSnp: ModuleParameter; tdx: ModuleParameter };
  /** dev/sev, opened read-write when it is the misc device proc/misc names `sev` (QEMU needs it read-write). */
  sevDevice: DeviceFacts;
  /** The minor proc/misc gives `sev`, null when no driver (ccp) serves it. */
  sevMiscMinor: number | null;
  /** sys/fs/cgroup/misc.capacity and misc.current at the root, keys `sev` and `sev_es` (SEV-SNP guests use SEV-ES ASIDs). */
  asids: { sev: MiscPool | null; sevEs: MiscPool | null };
  /** The same files, key `tdx`: the TDX private KeyIDs KVM gave the misc cgroup (one per TDX guest; 6.16 and later). */
  tdxKeyIds: MiscPool | null;
  /** Files that exist but could not be read, with their errno: the reading is then incomplete. */
  unreadable: string[];
}

export interface ConfidentialFamilyFacts {
  confidential: Observation<ConfidentialFacts>;
}

const MISC_MAJOR = 10;
const PARAMETER_FILES = {
  sev: 'sys/module/kvm_amd/parameters/sev',
  sevEs: 'sys/module/kvm_amd/parameters/sev_es',
  sevSnp: 'sys/module/kvm_amd/parameters/sev_snp',
  tdx: 'sys/module/kvm_intel/parameters/tdx',
} as const;

/** The first processor's flags: every processor of an x86 host shows the same confidential-computing flags. */
export function firstFlags(cpuinfo: string): Set<string> | null {
  const line = /^flags\s*:(.*)$/m.exec(cpuinfo)?.[1];
  return line === undefined ? null : new Set(line.trim().split(/\s+/));
}

/** `key value` lines (misc.capacity, misc.current, proc/misc inverted) → a map. */
export function parseFlatKeyed(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\S+)\s+(\d{1,15})\s*$/.exec(line);
    if (match?.[1] && match[2]) values.set(match[1], Number(match[2]));
  }
  return values;
}

/** proc/misc lists `<minor> <name>` per registered misc driver. */
export function miscMinor(procMisc: string, name: string): number | null {
  for (const line of procMisc.split('\n')) {
    const match = /^\s*(\d{1,7})\s+(\S+)\s*$/.exec(line);
    if (match?.[2] === name) return Number(match[1]);
  }
  return null;
}

async function probeConfidential({ hostRoot }: ProbeContext): Promise<ConfidentialFamilyFacts> {
  // The first processor's flags sit in the first few KiB; 256 KiB bounds the read on a 512-CPU host.
  const cpuinfo = await readHostFile(hostRoot, 'proc/cpuinfo', 256 * 1024);
  if (cpuinfo.state !== 'ok') return { confidential: { state: 'unknown', reason: describeRead('proc/cpuinfo', cpuinfo) } };
  const flags = firstFlags(cpuinfo.text);
  const unreadable: string[] = [];
  const text = async (relative: string, maxBytes = 4096): Promise<string | null> => {
    const read = await readHostFile(hostRoot, relative, maxBytes);
    if (read.state === 'ok') return read.text;
    if (read.state === 'unreadable') unreadable.push(`${relative} (${read.code})`);
    return null;
  };
  const parameter = async (relative: string): Promise<ModuleParameter> => (await text(relative))?.trim() ?? null;
  const [sev, sevEs, sevSnp, tdx, procMisc, capacity, current] = await Promise.all([
    parameter(PARAMETER_FILES.sev),
    parameter(PARAMETER_FILES.sevEs),
    parameter(PARAMETER_FILES.sevSnp),
    parameter(PARAMETER_FILES.tdx),
    text('proc/misc', 64 * 1024),
    text('sys/fs/cgroup/misc.capacity'),
    text('sys/fs/cgroup/misc.current'),
  ]);
  const sevMiscMinor = procMisc === null ? null : miscMinor(procMisc, 'sev');
  // Opened only when it is the misc device the kernel registered as `sev` (the minor is dynamic):
  // another device may act on open. A minor of -1 never matches, so the node is only stat'ed.
  const sevDevice = await probeDevice(hostRoot, { path: 'dev/sev', sysfs: 'sys/class/misc/sev/dev', major: MISC_MAJOR, minor: sevMiscMinor ?? -1 });
  const capacities = capacity === null ? new Map<string, number>() : parseFlatKeyed(capacity);
  const usage = current === null ? new Map<string, number>() : parseFlatKeyed(current);
  const pool = (key: string): MiscPool | null => {
    const total = capacities.get(key);
    return total === undefined ? null : { capacity: total, current: usage.get(key) ?? null };
  };
  return {
    confidential: {
      state: 'ok',
      value: {
        arch: flags ? 'x86_64' : 'other',
        flags: {
          sev: flags?.has('sev') ?? false,
          sevEs: flags?.has('sev_es') ?? false,
          sevSnp: flags?.has('sev_snp') ?? false,
          tdxHostPlatform: flags?.has('tdx_host_platform') ?? false,
        },
        parameters: { sev, sevEs, sevSnp, tdx },
        sevDevice,
        sevMiscMinor,
        asids: { sev: pool('sev'), sevEs: pool('sev_es') },
        tdxKeyIds: pool('tdx'),
        unreadable,
      },
    },
  };
}

/** Whether one kind of confidential guest can start here, and if not, the first thing that stops it. */
export type KindReading =
  | { kind: ConfidentialKind; available: true; asidsFree?: number; keyIdsFree?: number }
  | { kind: ConfidentialKind; available: false; reason: string; remedy: string };

/** sysfs shows a bool parameter as Y/N; older kernels' int parameters as 1/0. */
const isOn = (value: ModuleParameter): boolean => value === 'Y' || value === 'y' || value === '1';

const NAME = KIND_NAME;

/** What stops SEV itself (every AMD kind needs it): the CPU flag, kvm_amd.sev, /dev/sev. */
function sevBase(facts: ConfidentialFacts): { reason: string; remedy: string } | null {
  if (!facts.flags.sev) {
    return {
      reason: 'the CPU shows no sev flag (an AMD EPYC with SEV enabled in the firmware shows it)',
      remedy: 'On an AMD EPYC host, enable SME and SEV in the firmware setup (SMEE, SEV ASID count) and boot a kernel built with CONFIG_KVM_AMD_SEV.',
    };
  }
  const { sev } = facts.parameters;
  if (sev === null) return { reason: 'kvm_amd has no sev parameter: kvm_amd is not in use or this kernel lacks SEV support', remedy: 'Load kvm_amd (modprobe kvm_amd) on a kernel built with CONFIG_KVM_AMD_SEV.' };
  if (!isOn(sev)) return { reason: `kvm_amd.sev=${sev}`, remedy: 'Enable it on the kernel command line (kvm_amd.sev=1); KVM also turns it off when the SEV firmware (PSP) did not initialise.' };
  const device = facts.sevDevice;
  if (device.state === 'missing') return { reason: 'no /dev/sev: the ccp driver did not register the SEV firmware device', remedy: 'Load the ccp module (modprobe ccp) and update the SEV firmware if the kernel log names it too old.' };
  // An uninspectable /dev/sev makes the whole check an error (evaluateConfidential), never a reason.
  if (device.state === 'unknown') return { reason: '/dev/sev was not inspected', remedy: 'Run virtgate as root in a privileged container with /dev mounted.' };
  if (facts.sevMiscMinor === null) return { reason: '/dev/sev exists but proc/misc lists no sev driver', remedy: 'Load the ccp module (modprobe ccp); a stale /dev/sev node is not the SEV device.' };
  if (device.kind !== 'char' || device.major !== MISC_MAJOR || device.minor !== facts.sevMiscMinor) {
    return { reason: `/dev/sev is not the misc device ${MISC_MAJOR}:${facts.sevMiscMinor} the kernel registered`, remedy: `Recreate it (mknod /dev/sev c ${MISC_MAJOR} ${facts.sevMiscMinor}) or let devtmpfs create it.` };
  }
  if (device.open !== 'ok') return { reason: `/dev/sev does not open read-write (${device.open}), which QEMU needs`, remedy: 'Give QEMU read-write access to /dev/sev (KubeVirt\'s virt-handler makes it world read-write); check the device cgroup.' };
  return null;
}

/** What is left of a misc-cgroup pool, or undefined when the kernel does not count it. */
function freeInPool(pool: MiscPool | null): number | undefined {
  if (!pool || pool.current === null) return pool ? pool.capacity : undefined;
  return Math.max(0, pool.capacity - pool.current);
}

/**
 * What stops a kind whose guests each take one unit of a misc-cgroup pool (SEV ASIDs, TDX KeyIDs):
 * none given, or all in use. The kernel refuses a guest once misc.current reaches misc.capacity.
 */
function poolExhausted(pool: MiscPool, unit: { one: string; many: string }, noneRemedy: string): { reason: string; remedy: string } | null {
  if (pool.capacity === 0) return { reason: `the misc cgroup gives 0 ${unit.many}`, remedy: noneRemedy };
  if (freeInPool(pool) === 0) return { reason: `all ${pool.capacity} ${unit.many} are in use (misc.current)`, remedy: `Each running guest of this kind holds one ${unit.one}: stop one, or place the VM on another node.` };
  return null;
}

function asidReading(kind: ConfidentialKind, pool: MiscPool | null, key: string): KindReading {
  const free = freeInPool(pool);
  const stop = pool && poolExhausted(pool, { one: 'ASID', many: `${key} ASIDs` }, 'Raise the SEV ASID count in the firmware setup (SEV-ES ASIDs are those below the "minimum SEV non-ES ASID").');
  if (stop) return { kind, available: false, ...stop };
  return free === undefined ? { kind, available: true } : { kind, available: true, asidsFree: free };
}

/** Per kind, whether it can start and why not: pure, from the facts alone. */
export function readKinds(facts: ConfidentialFacts): KindReading[] {
  const base = sevBase(facts);
  const amd = (kind: 'sev-es' | 'sev-snp', flag: boolean, flagName: string, parameter: ModuleParameter, parameterName: string): KindReading => {
    if (base) return { kind, available: false, ...base };
    if (!flag) return { kind, available: false, reason: `the CPU shows no ${flagName} flag`, remedy: `${NAME[kind]} needs an EPYC generation that has it (SEV-ES: Rome; SEV-SNP: Milan) with it enabled in the firmware.` };
    if (parameter === null) return { kind, available: false, reason: `kvm_amd has no ${parameterName} parameter: this kernel predates ${NAME[kind]} host support`, remedy: `Boot a kernel with ${NAME[kind]} host support (SEV-ES: 5.11; SEV-SNP: 6.11).` };
    if (!isOn(parameter)) return { kind, available: false, reason: `kvm_amd.${parameterName}=${parameter}`, remedy: `Enable it on the kernel command line (kvm_amd.${parameterName}=1).` };
    return asidReading(kind, facts.asids.sevEs, 'SEV-ES');
  };
  const sev: KindReading = base ? { kind: 'sev', available: false, ...base } : asidReading('sev', facts.asids.sev, 'SEV');
  const sevEs = amd('sev-es', facts.flags.sevEs, 'sev_es', facts.parameters.sevEs, 'sev_es');
  // KVM offers SEV-SNP only with SEV-ES (svm/sev.c), so a missing SEV-ES is SNP's reason too.
  const sevSnp = sevEs.available || base ? amd('sev-snp', facts.flags.sevSnp, 'sev_snp', facts.parameters.sevSnp, 'sev_snp') : { ...sevEs, kind: 'sev-snp' as const, reason: `SEV-SNP needs SEV-ES: ${sevEs.reason}` };
  return [sev, sevEs, sevSnp, readTdx(facts)];
}

/**
 * TDX, from what the kernel exposes without dmesg (Documentation/arch/x86/tdx.rst names only the
 * kernel log for "TDX-Module initialized"): the `tdx_host_platform` CPU flag
 * (X86_FEATURE_TDX_HOST_PLATFORM, set when the firmware reserved TDX private KeyIDs), and
 * kvm_intel's read-only `tdx` parameter. KVM initialises the TDX module when kvm_intel loads with
 * tdx=1 and clears the parameter when the platform or the module cannot be brought up
 * (arch/x86/kvm/vmx/tdx.c, tdx_bringup), so `tdx=Y` after kvm_intel loaded means the module initialised.
 *
 * Then the KeyIDs, as KubeVirt v1.9.0 needs them: virt-handler offers `devices.kubevirt.io/tdx`
 * (which every TDX VMI's launcher pod requests) only when the root misc.capacity has a `tdx` key
 * above 0 (pkg/virt-handler/device-manager/device_controller.go, updateTdxDevice, through
 * pkg/virt-handler/cgroup/cgroup.go GetMiscCapacity("tdx")). It offers the whole capacity, never
 * reading misc.current, so when every KeyID is taken the pod schedules and KVM refuses the guest
 * (each TD is charged one `tdx` unit): no KeyID left is a reason too, as for SEV's ASIDs.
 */
function readTdx(facts: ConfidentialFacts): KindReading {
  const kind = 'tdx';
  if (!facts.flags.tdxHostPlatform) {
    return {
      kind,
      available: false,
      reason: 'the CPU shows no tdx_host_platform flag (the firmware reserved no TDX private KeyIDs, or the kernel lacks CONFIG_INTEL_TDX_HOST)',
      remedy: 'On a Xeon with TDX (Sapphire Rapids or later), enable TME-MT and TDX in the firmware setup, load the TDX module (SEAM loader), and boot a kernel with CONFIG_INTEL_TDX_HOST (6.16 or later).',
    };
  }
  const { tdx } = facts.parameters;
  if (tdx === null) return { kind, available: false, reason: 'kvm_intel has no tdx parameter: kvm_intel is not in use or predates TDX host support (6.16)', remedy: 'Load kvm_intel on a kernel with TDX host support (6.16 or later).' };
  if (!isOn(tdx)) {
    return {
      kind,
      available: false,
      reason: `kvm_intel.tdx=${tdx}: either not asked for, or KVM turned it off because the TDX module did not initialise`,
      remedy: 'Enable it on the kernel command line (kvm_intel.tdx=1, with nohibernate); if it stays N, the kernel log says why the TDX module did not initialise.',
    };
  }
  const pool = facts.tdxKeyIds;
  if (!pool) {
    return {
      kind,
      available: false,
      reason: 'the misc cgroup shows no tdx capacity (no tdx key in sys/fs/cgroup/misc.capacity), so KubeVirt offers no devices.kubevirt.io/tdx and a TDX VM stays Pending',
      remedy: 'KVM gives its TDX KeyIDs to the misc cgroup from kernel 6.16: boot such a kernel with CONFIG_CGROUP_MISC and cgroup v2 mounted at /sys/fs/cgroup.',
    };
  }
  const stop = poolExhausted(pool, { one: 'KeyID', many: 'TDX KeyIDs' }, 'Reserve TDX private KeyIDs in the firmware setup (the TME-MT/TDX key split).');
  if (stop) return { kind, available: false, ...stop };
  return { kind, available: true, keyIdsFree: freeInPool(pool) ?? pool.capacity };
}

export type ConfidentialSummary = Record<ConfidentialKind, { available: boolean; reason?: string; asidsFree?: number }>;

/**
 * What the report, the labels and the gate carry: per kind, available or the reason not. Null when
 * the check could not tell (cpuinfo or a file unreadable) or the host is not x86, so nothing
 * downstream writes a guess.
 */
export function confidentialSummary(confidential: Observation<ConfidentialFacts>): ConfidentialSummary | null {
  if (confidential.state !== 'ok' || confidential.value.arch !== 'x86_64') return null;
  if (confidential.value.unreadable.length > 0 || confidential.value.sevDevice.state === 'unknown') return null;
  const entries = readKinds(confidential.value).map((reading) => [
    reading.kind,
    reading.available
      ? { available: true, ...(reading.asidsFree === undefined ? {} : { asidsFree: reading.asidsFree }) }
      : { available: false, reason: reading.reason.slice(0, MAX_KIND_REASON) },
  ]);
  return Object.fromEntries(entries) as ConfidentialSummary;
}

/** The strongest kind first: SEV-SNP ⊃ SEV-ES ⊃ SEV on AMD; TDX on Intel. */
const STRENGTH: readonly ConfidentialKind[] = ['sev-snp', 'tdx', 'sev-es', 'sev'];

/** virt-host-validate's secure-guest line, when the tool ran and printed one. */
function secureGuestLine(vhv: VhvFacts | undefined): { status: string; detail: string } | null {
  if (!vhv || vhv.state !== 'ran') return null;
  const line = vhv.lines.find((candidate) => /secure guest/i.test(candidate.label));
  return line ? { status: line.status, detail: line.detail ?? '' } : null;
}

/**
 * Where virt-host-validate's secure-guest line and virtgate's reading disagree, which one virtgate
 * believes and why. libvirt (9.0) looks only at the `sev` CPU flag, kvm_amd.sev and whether
 * /dev/sev exists: it never opens /dev/sev, reads sev_es/sev_snp or the ASIDs left, and knows no TDX.
 */
export function vhvDisagreement(vhv: VhvFacts | undefined, kinds: readonly KindReading[]): string | null {
  const line = secureGuestLine(vhv);
  if (!line) return null;
  const available = kinds.filter((reading) => reading.available);
  const sev = kinds.find((reading) => reading.kind === 'sev');
  if (line.status === 'PASS' && sev && !sev.available) {
    return `virt-host-validate passes secure guests, but virtgate believes its own reading (${sev.reason}): libvirt only checks that /dev/sev exists and kvm_amd.sev is on, it never opens /dev/sev or counts ASIDs`;
  }
  if ((line.status === 'WARN' || line.status === 'FAIL') && available.length > 0) {
    const names = available.map((reading) => NAME[reading.kind]).join(', ');
    const why = available.some((reading) => reading.kind === 'tdx') ? 'libvirt 9.0 does not look at TDX at all' : 'virtgate read kvm_amd.sev and opened /dev/sev itself';
    return `virt-host-validate warns "${line.detail || 'secure guests'}", but virtgate believes ${names} can start (${why})`;
  }
  return null;
}

export function evaluateConfidential(confidential: Observation<ConfidentialFacts>, vhv?: VhvFacts): CheckOutcomeOf<ConfidentialCheckId> {
  const id = 'confidential';
  if (confidential.state === 'unknown') return { id, status: 'skip', message: `confidential guests not looked at: ${confidential.reason}` };
  const facts = confidential.value;
  if (facts.arch !== 'x86_64') return { id, status: 'skip', message: 'not an x86 host: AMD SEV and Intel TDX are x86 features (ordinary VMs do not need them)' };
  const kinds = readKinds(facts);
  const available = STRENGTH.map((kind) => kinds.find((reading) => reading.kind === kind)).filter((reading): reading is KindReading & { available: true } => reading?.available === true);
  const absent = kinds.filter((reading): reading is KindReading & { available: false } => !reading.available);
  const observed = {
    available: available.map((reading) => reading.kind),
    kinds: Object.fromEntries(
      kinds.map((reading): [string, JsonObject] => [
        reading.kind,
        reading.available
          ? { available: true, ...(reading.asidsFree === undefined ? {} : { asidsFree: reading.asidsFree }), ...(reading.keyIdsFree === undefined ? {} : { keyIdsFree: reading.keyIdsFree }) }
          : { available: false, reason: reading.reason },
      ]),
    ),
  };
  const disagreement = vhvDisagreement(vhv, kinds);
  const suffix = disagreement ? `; ${disagreement}` : '';
  const unread = [...facts.unreadable, ...(facts.sevDevice.state === 'unknown' ? [`dev/sev (${facts.sevDevice.reason})`] : [])];
  if (unread.length > 0) {
    // What could not be read may be the very fact that decides a kind: the probe cannot tell.
    return { id, status: 'error', message: `could not read ${unread.join(', ')}; confidential guests undecided`, observed: { ...observed, unreadable: unread } };
  }
  // The vendor's kinds only: an AMD host is not told about TDX, nor an Intel host about SEV.
  // A CPU with neither flag gets no remedy: what it would take (another CPU, or firmware on metal) is not this host's to fix.
  const vendorAbsent = absent.filter((reading) => (facts.flags.tdxHostPlatform ? reading.kind === 'tdx' : facts.flags.sev ? reading.kind !== 'tdx' : false));
  const why = vendorAbsent.map((reading) => `${NAME[reading.kind]}: ${reading.reason}`).join('; ');
  const hint = vendorAbsent.length > 0 ? `Only for confidential VMs: ${[...new Set(vendorAbsent.map((reading) => reading.remedy))].join(' ')}` : undefined;
  if (available.length === 0) {
    const neither = !facts.flags.sev && !facts.flags.tdxHostPlatform;
    const message = neither
      ? `no confidential guests: the CPU shows neither sev nor tdx_host_platform (ordinary VMs do not need them)${suffix}`
      : `no confidential guests (ordinary VMs do not need them): ${why}${suffix}`;
    return { id, status: 'pass', message, ...(hint ? { hint } : {}), observed };
  }
  const asids = available.flatMap((reading) => [
    ...(reading.asidsFree === undefined ? [] : [`${NAME[reading.kind]} ${reading.asidsFree} ASIDs free`]),
    ...(reading.keyIdsFree === undefined ? [] : [`${NAME[reading.kind]} ${reading.keyIdsFree} KeyIDs free`]),
  ]);
  const others = vendorAbsent.length > 0 ? `; not ${why}` : '';
  const message = `confidential guests: ${available.map((reading) => NAME[reading.kind]).join(', ')}${asids.length > 0 ? ` (${asids.join(', ')})` : ''}${others}${suffix}`;
  return { id, status: 'pass', message, ...(hint ? { hint } : {}), observed };
}

/**
 * Per kind: `true` where a guest of it can start, `false` where the CPU has the vendor's feature
 * (sev, tdx_host_platform) but the kind cannot start (a parameter off, no ASIDs left), no label on
 * CPUs without the feature at all; the current values stay when the check could not tell.
 */
function confidentialLabelValues(confidential: Observation<ConfidentialFacts>): Record<ConfidentialKind, LabelValue> {
  const summary = confidentialSummary(confidential);
  const flags = confidential.state === 'ok' ? confidential.value.flags : undefined;
  const valueOf = (kind: ConfidentialKind): LabelValue => {
    if (!summary) return undefined;
    if (summary[kind].available) return 'true';
    return (kind === 'tdx' ? flags?.tdxHostPlatform : flags?.sev) ? 'false' : null;
  };
  return Object.fromEntries(CONFIDENTIAL_KINDS.map((kind) => [kind, valueOf(kind)])) as Record<ConfidentialKind, LabelValue>;
}

export const confidentialFamily = {
  ids: IDS,
  probe: probeConfidential,
  evaluate: (facts: ConfidentialFamilyFacts & Partial<VhvFamilyFacts>) => [evaluateConfidential(facts.confidential, facts.vhv)],
  labels: {
    // Named as KubeVirt's own (kubevirt.io/sev-snp), so a VM's nodeSelector names the kind it needs.
    declared: CONFIDENTIAL_KINDS.map((kind) => ({
      name: kind,
      values: '`true`, `false`, or none',
      meaning: `a ${KIND_NAME[kind]} guest can start here (\`false\`: the CPU has ${kind === 'tdx' ? 'TDX' : 'SEV'} but this kind cannot start; none: the CPU lacks it)`,
    })),
    values: (facts: ConfidentialFamilyFacts) => confidentialLabelValues(facts.confidential),
  },
  report: {
    fields: ['confidential'],
    build: (facts: ConfidentialFamilyFacts) => {
      const confidential = confidentialSummary(facts.confidential);
      return confidential ? { confidential } : {};
    },
  },
  // The example host is an Intel host without TDX.
  example: {
    confidential: {
      state: 'ok',
      value: {
        arch: 'x86_64',
        flags: { sev: false, sevEs: false, sevSnp: false, tdxHostPlatform: false },
        parameters: { sev: null, sevEs: null, sevSnp: null, tdx: null },
        sevDevice: { path: 'dev/sev', state: 'missing' },
        sevMiscMinor: null,
        asids: { sev: null, sevEs: null },
        tdxKeyIds: null,
        unreadable: [],
      },
    },
  } satisfies ConfidentialFamilyFacts,
} satisfies CheckFamily;
