/** Waits until a list of problems is empty; on timeout the error lists the last ones seen. */
export async function settle(what: string, problems: () => Promise<string[]>, timeoutMs = 120_000, intervalMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string[] = ['not checked yet'];
  while (Date.now() < deadline) {
    try {
      last = await problems();
      if (last.length === 0) return;
    } catch (error) {
      last = [`check failed: ${error instanceof Error ? error.message : String(error)}`];
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; still: ${last.slice(0, 8).join('; ')}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
