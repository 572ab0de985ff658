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

const MAX_UNPARSED_KEPT = 20;
const MAX_LINE_LENGTH = 1000;

const STATUS_PATTERN = new RegExp(`^(${VHV_STATUSES.join('|')})(?:\\s*\\((.*)\\))?\\s*$`);
const LABEL_PATTERN = /^\s*([A-Za-z][A-Za-z0-9_-]*):\s+(\S.*?)\s*$/;

/**
 * Parses one line in any libvirt format seen so far: 9.0 (`/dev/kvm`, `PASS`) and newer
 * (`'/dev/kvm'`, `PASS (VMX)`, `NOTE (...)`). The status is the word after the last ` : `.
 */
export function parseVhvLine(line: string): VhvLine | undefined {
  if (line.length > MAX_LINE_LENGTH) return undefined;
  const separator = line.lastIndexOf(' : ');
  if (separator < 0) return undefined;
  const status = STATUS_PATTERN.exec(line.slice(separator + 3).trim());
  const label = LABEL_PATTERN.exec(line.slice(0, separator));
  if (!status || !label || !label[1] || !label[2]) return undefined;
  const result: VhvLine = { driver: label[1], label: label[2], status: status[1] as VhvStatus };
  if (status[2]) result.detail = status[2].trim();
  return result;
}

export function parseVhvOutput(text: string): VhvParse {
  const lines: VhvLine[] = [];
  const unparsed: string[] = [];
  let unparsedCount = 0;
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const parsed = parseVhvLine(raw);
    if (parsed) {
      lines.push(parsed);
    } else {
      unparsedCount += 1;
      if (unparsed.length < MAX_UNPARSED_KEPT) unparsed.push(raw.slice(0, 200));
    }
  }
  return { lines, unparsed, unparsedCount };
}
