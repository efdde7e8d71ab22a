/** Polling helpers for asynchronous outcomes (Kafka → Redis → socket). */

/**
 * Calls `probe` until it returns a value other than undefined.
 * @param timeoutMs how long to keep trying, in milliseconds
 * @throws Error naming `what` on timeout
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
