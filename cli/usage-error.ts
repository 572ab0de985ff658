/** Bad input from the user: printed as one line on stderr, exit code 2, never a stack trace. */
export class UsageError extends Error {}

export const EXIT = {
  ok: 0,
  notReady: 1,
  usage: 2,
} as const;
