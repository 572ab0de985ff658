export const VHV_STATUSES = ['PASS', 'WARN', 'FAIL', 'NOTE'] as const;
export type VhvStatus = (typeof VHV_STATUSES)[number];

/** One result line of `virt-host-validate`, e.g. `QEMU: Checking if device /dev/kvm exists : PASS`. */
export interface VhvLine {
  driver: string;
  label: string;
  status: VhvStatus;
  /** The text in brackets after the status: a reason on WARN/FAIL, a detail such as `VMX` on PASS. */
  detail?: string;
}

export interface VhvParse {
  lines: VhvLine[];
  /** Non-empty lines that were not results (capped), kept for support cases. */
  unparsed: string[];
  unparsedCount: number;
}

/** What running (or reading a recording of) virt-host-validate gave. Plain data. */
export type VhvFacts =
  | { state: 'disabled' }
  | { state: 'missing'; command: string }
  | { state: 'timeout'; command: string; seconds: number }
  | { state: 'failed'; command: string; detail: string }
  | ({ state: 'ran'; source: 'tool' | 'recording'; exitCode: number | null } & VhvParse);
