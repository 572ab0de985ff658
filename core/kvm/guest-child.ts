/**
 * Runs a tiny guest through the KVM API, in a child process that run-guest.ts kills at its time
 * bound: a KVM_RUN that never returns cannot be interrupted from JavaScript. Prints one JSON
 * line per step as it completes (so a killed run still tells how far it got), then a summary.
 *
 * x86-64 only: real mode, code at guest-physical 0x1000, one 4 KiB page of memory.
 */
import { constants } from 'node:os';
import { GUEST_PORT, type GuestChildConfig, type GuestChildSummary, type GuestStep, type StepRecord } from './guest-steps.ts';

// <linux/kvm.h>: _IO(KVMIO, n) = 0xAE00 | n; _IOW/_IOR add the direction and the argument size.
const KVM_GET_API_VERSION = 0xae00;
const KVM_CREATE_VM = 0xae01;
const KVM_GET_VCPU_MMAP_SIZE = 0xae04;
const KVM_CREATE_VCPU = 0xae41;
const KVM_SET_USER_MEMORY_REGION = 0x4020ae46; // struct kvm_userspace_memory_region, 32 bytes
const KVM_RUN = 0xae80;
const KVM_SET_REGS = 0x4090ae82; // struct kvm_regs, 144 bytes
const KVM_GET_SREGS = 0x8138ae83; // struct kvm_sregs, 312 bytes
const KVM_SET_SREGS = 0x4138ae84;
const KVM_API_VERSION = 12;
const KVM_EXIT_IO = 2;
const KVM_EXIT_HLT = 5;
const KVM_EXIT_IO_OUT = 1;

const O_RDWR = 2;
const O_CLOEXEC = 0o2000000;
const PROT_READ_WRITE = 3;
const MAP_SHARED = 0x01;
const MAP_PRIVATE_ANONYMOUS = 0x22;
const MAP_FAILED = 0xffffffffffffffffn;
const GUEST_ADDRESS = 0x1000;
const GUEST_MEMORY = 0x1000;

const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, value]) => [value, name]));
const errnoName = (value: number): string => ERRNO_NAMES.get(value) ?? `errno ${value}`;

function emit(record: StepRecord | { summary: GuestChildSummary }): void {
  const line = 'summary' in record ? { summary: { ...record.summary, maxRssKiB: process.resourceUsage().maxRSS } } : record;
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

class StepFailed extends Error {}

function fail(step: GuestStep, record: Omit<StepRecord, 'step' | 'ok'>): never {
  emit({ step, ok: false, ...record });
  throw new StepFailed(step);
}

/** The koffi calls this child makes, typed here so nothing `any` escapes the FFI boundary. */
interface Libc {
  open(path: string, flags: number): number;
  ioctlValue(fd: number, request: number, argument: number): number;
  ioctlBuffer(fd: number, request: number, argument: Buffer): number;
  mmap(length: number, prot: number, flags: number, fd: number): { pointer: unknown; address: bigint };
  errno(): number;
  view(pointer: unknown, length: number): ArrayBuffer;
}

async function loadLibc(ffiModule: string): Promise<Libc> {
  const koffi = ((await import(ffiModule)) as { default: typeof import('koffi') }).default;
  const libc = koffi.load('libc.so.6');
  const open = libc.func('int open(const char *path, int flags)');
  const ioctlValue = libc.func('ioctl', 'int', ['int', 'unsigned long', 'unsigned long']);
  const ioctlBuffer = libc.func('ioctl', 'int', ['int', 'unsigned long', 'void *']);
  const mmap = libc.func('void *mmap(void *addr, size_t length, int prot, int flags, int fd, long offset)');
  return {
    open: (path, flags) => Number(open(path, flags)),
    ioctlValue: (fd, request, argument) => Number(ioctlValue(fd, request, argument)),
    ioctlBuffer: (fd, request, argument) => Number(ioctlBuffer(fd, request, argument)),
    mmap: (length, prot, flags, fd) => {
      const pointer: unknown = mmap(null, length, prot, flags, fd, 0);
      return { pointer, address: pointer === null ? MAP_FAILED : koffi.address(pointer) };
    },
    errno: () => koffi.errno(),
    view: (pointer, length) => koffi.view(pointer, length),
  };
}

function runGuest(config: GuestChildConfig, libc: Libc): GuestChildSummary {
  const check = (step: GuestStep, result: number): number => {
    if (result < 0) fail(step, { errno: errnoName(libc.errno()) });
    emit({ step, ok: true, value: result });
    return result;
  };
  const mapped = (step: GuestStep, length: number, prot: number, flags: number, fd: number) => {
    const region = libc.mmap(length, prot, flags, fd);
    if (region.address === MAP_FAILED) fail(step, { errno: errnoName(libc.errno()) });
    emit({ step, ok: true });
    return region;
  };

  const kvm = check('open', libc.open(config.devicePath, O_RDWR | O_CLOEXEC));
  const version = libc.ioctlValue(kvm, KVM_GET_API_VERSION, 0);
  if (version < 0) fail('KVM_GET_API_VERSION', { errno: errnoName(libc.errno()) });
  if (version !== KVM_API_VERSION) fail('KVM_GET_API_VERSION', { value: version, detail: `API version ${version}, expected ${KVM_API_VERSION}` });
  emit({ step: 'KVM_GET_API_VERSION', ok: true, value: version });
  const vm = check('KVM_CREATE_VM', libc.ioctlValue(kvm, KVM_CREATE_VM, 0));

  const memory = mapped('mmap-guest-memory', GUEST_MEMORY, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1);
  new Uint8Array(libc.view(memory.pointer, GUEST_MEMORY)).set(Buffer.from(config.codeHex, 'hex'));
  const region = Buffer.alloc(32); // slot, flags, guest_phys_addr, memory_size, userspace_addr
  region.writeBigUInt64LE(BigInt(GUEST_ADDRESS), 8);
  region.writeBigUInt64LE(BigInt(GUEST_MEMORY), 16);
  region.writeBigUInt64LE(memory.address, 24);
  check('KVM_SET_USER_MEMORY_REGION', libc.ioctlBuffer(vm, KVM_SET_USER_MEMORY_REGION, region));

  const runSize = check('KVM_GET_VCPU_MMAP_SIZE', libc.ioctlValue(kvm, KVM_GET_VCPU_MMAP_SIZE, 0));
  const vcpu = check('KVM_CREATE_VCPU', libc.ioctlValue(vm, KVM_CREATE_VCPU, 0));
  const run = new DataView(libc.view(mapped('mmap-kvm-run', runSize, PROT_READ_WRITE, MAP_SHARED, vcpu).pointer, runSize));

  // Real mode with CS at 0: the first kvm_segment of kvm_sregs is cs (base u64 at 0, selector u16 at 12).
  const sregs = Buffer.alloc(312);
  check('KVM_GET_SREGS', libc.ioctlBuffer(vcpu, KVM_GET_SREGS, sregs));
  sregs.writeBigUInt64LE(0n, 0);
  sregs.writeUInt16LE(0, 12);
  check('KVM_SET_SREGS', libc.ioctlBuffer(vcpu, KVM_SET_SREGS, sregs));
  const regs = Buffer.alloc(144); // rax … r15, then rip at 128 and rflags at 136
  regs.writeBigUInt64LE(BigInt(GUEST_ADDRESS), 128);
  regs.writeBigUInt64LE(2n, 136); // bit 1 of RFLAGS is reserved and always set
  check('KVM_SET_REGS', libc.ioctlBuffer(vcpu, KVM_SET_REGS, regs));

  // struct kvm_run: exit_reason u32 at 8; the io exit at 32: direction u8, size u8, port u16, count u32, data_offset u64.
  const runOnce = (step: GuestStep, expected: number): number => {
    if (libc.ioctlValue(vcpu, KVM_RUN, 0) < 0) fail(step, { errno: errnoName(libc.errno()) });
    const reason = run.getUint32(8, true);
    if (reason !== expected) fail(step, { value: reason, detail: `exit reason ${reason}, expected ${expected}` });
    return reason;
  };
  const ioReason = runOnce('KVM_RUN-io', KVM_EXIT_IO);
  const direction = run.getUint8(32);
  const size = run.getUint8(33);
  const port = run.getUint16(34, true);
  const ioByte = run.getUint8(Number(run.getBigUint64(40, true)));
  if (direction !== KVM_EXIT_IO_OUT || size !== 1 || port !== GUEST_PORT) {
    fail('KVM_RUN-io', { value: ioReason, detail: `I/O exit direction ${direction} size ${size} port 0x${port.toString(16)}, expected a 1-byte out to 0x${GUEST_PORT.toString(16)}` });
  }
  emit({ step: 'KVM_RUN-io', ok: true, value: ioByte });
  runOnce('KVM_RUN-hlt', KVM_EXIT_HLT);
  emit({ step: 'KVM_RUN-hlt', ok: true, value: KVM_EXIT_HLT });
  return { halted: true, ioByte, ioPort: port };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as GuestChildConfig;
  let libc: Libc;
  try {
    libc = await loadLibc(config.ffiModule);
  } catch (error) {
    emit({ step: 'load-ffi', ok: false, detail: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    emit({ summary: { halted: false } });
    return;
  }
  emit({ step: 'load-ffi', ok: true });
  try {
    emit({ summary: runGuest(config, libc) });
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    emit({ summary: { halted: false } });
  }
}

await main();
