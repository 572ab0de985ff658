/**
 * What a tiny-guest run reports, shared by the child that runs the guest (guest-child.ts) and
 * the parent that bounds it in time (run-guest.ts). Plain JSON: it crosses a process boundary.
 */

/** The KVM API calls, in the order the child makes them. */
export const GUEST_STEPS = [
  'load-ffi',
  'open',
  'KVM_GET_API_VERSION',
  'KVM_CREATE_VM',
  'mmap-guest-memory',
  'KVM_SET_USER_MEMORY_REGION',
  'KVM_GET_VCPU_MMAP_SIZE',
  'KVM_CREATE_VCPU',
  'mmap-kvm-run',
  'KVM_GET_SREGS',
  'KVM_SET_SREGS',
  'KVM_SET_REGS',
  'KVM_RUN-io',
  'KVM_RUN-hlt',
] as const;
export type GuestStep = (typeof GUEST_STEPS)[number];

/** One step as the child saw it: `ok` with the call's value, or failed with errno or a detail. */
export interface StepRecord {
  step: GuestStep;
  ok: boolean;
  /** The call's return value when it means something (API version, mmap size, exit reason). */
  value?: number;
  /** errno code name, e.g. EACCES, ENOTTY, ENOMEM. */
  errno?: string;
  detail?: string;
}

/** The child's last line on stdout. */
export interface GuestChildSummary {
  halted: boolean;
  /** The byte the guest wrote, and the port, when the I/O exit came. */
  ioByte?: number;
  ioPort?: number;
  /** The child's peak RSS, for the bench: what a run adds to the agent's container while it lasts. */
  maxRssKiB?: number;
}

/** The child's configuration, passed as one JSON argument. */
export interface GuestChildConfig {
  devicePath: string;
  /** The guest's code, hex; loaded at guest-physical 0x1000 and run in real mode. */
  codeHex: string;
  /** The FFI module to import: `koffi`, or a missing name in the test of that failure. */
  ffiModule: string;
}

/** The port and byte the default guest writes before `hlt`. */
export const GUEST_PORT = 0xe9;
export const GUEST_BYTE = 0x5a;
/** mov al, 0x5a; out 0xe9, al; hlt */
export const GUEST_CODE_HEX = `b0${GUEST_BYTE.toString(16)}e6${GUEST_PORT.toString(16)}f4`;
