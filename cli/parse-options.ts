import { InvalidArgumentError } from 'commander';
import ms, { type StringValue } from 'ms';
import semver from 'semver';
import { type DeviceName, type DeviceSpec, parseDeviceOverrides } from '../core/checks/device-numbers.ts';

/** Commander argument parsers: each rejects bad values with a message that says what is expected. */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a positive number.');
  return number;
}

export function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError('expected a port, 0-65535.');
  return number;
}

/** A kernel or Kubernetes style major.minor such as `4.18`. */
export function majorMinor(value: string): string {
  if (!/^\d+\.\d+$/.test(value) || !semver.coerce(value)) throw new InvalidArgumentError('expected MAJOR.MINOR, for example 4.18.');
  return value;
}

export function deviceNumbers(value: string): Record<DeviceName, DeviceSpec> {
  try {
    return parseDeviceOverrides(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/** A duration in seconds: `300`, `300s`, `5m`, `1h` (the `ms` package's units). */
export function durationSeconds(value: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : ms(value as StringValue) / 1000;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a duration such as 30s, 5m or 1h.');
  return seconds;
}

/** A share between 0 and 1, as `0.5` or `50%`. */
export function share(value: string): number {
  const number = value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 1) throw new InvalidArgumentError('expected a share in (0, 1], e.g. 0.5 or 50%.');
  return number;
}
