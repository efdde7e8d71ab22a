/** Polling for asynchronous outcomes (Kafka → database → Redis → socket, child processes, mail). */

/**
 * Calls `probe` until it returns something other than undefined (or false).
 * @param what named in the error on timeout, e.g. `the user's record in Redis`
 * @param probe sync or async; undefined or false means "not yet"
 * @param options timeoutMs (default 20 000) and intervalMs between tries (default 100)
 * @returns the first value that was neither undefined nor false
 * @throws Error `timed out after <ms> ms waiting for <what>`
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One named step of a longer test (a story told in order, e.g. a browser
 * walk-through): runs `fn`; when it fails, the error names the step.
 * @throws whatever `fn` throws, its message prefixed with `step "<name>": `
 */
export async function step(name: string, fn: () => unknown): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof Error) error.message = `step "${name}": ${error.message}`;
    throw error;
  }
}
