/** Polls `probe` until it returns a value other than undefined, or fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
}

/** The HTTP status of a rejected client-node call, or undefined. */
export function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Runs `call` and returns the HTTP status it failed with (0 when it succeeded). */
export async function statusOfCall(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
    return 0;
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined) throw error;
    return status;
  }
}
