/** Bad input from the user: printed as one line on stderr, exit code 2, never a stack trace. */
export class UsageError extends Error {}

export const EXIT = {
  ok: 0,
  notReady: 1,
  usage: 2,
  /** `gate` and `tuple`: the worst check is warn or unknown. */
  warn: 3,
  /** The cluster could not be reached or read (network, TLS, auth, API errors): worth a retry. */
  cluster: 4,
} as const;

/** The cluster could not be reached or read: printed as one line on stderr, exit code 4. */
export class ClusterUnreachableError extends Error {}

/** A failure that is the user's to fix (a bad file, a bad setting), as one line after `context`. */
export function toUsageError(error: unknown, context = ''): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  return new UsageError(context ? `${context}: ${message}` : message);
}

/** Runs a setup step whose failure is the user's to fix as a UsageError. */
export async function asUsageError<T>(step: () => T | Promise<T>, context = ''): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw toUsageError(error, context);
  }
}
