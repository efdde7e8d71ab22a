/**
 * When a live socket (the product's or the staff console's) tries its handshake again after a
 * retryable refusal (docs/api.md "socket.io"): exponential back-off with jitter.
 */

/** Handshake retries after an `unavailable` refusal: the first wait and the longest (ms). */
export const LIVE_RETRY_DELAY_MS = { first: 1000, max: 30_000 } as const;

/**
 * The wait before the next handshake after `failures` retryable refusals in a
 * row (exponential, capped, with jitter so that the tabs of a whole fleet do
 * not come back in step after a shared fault).
 * @param failures refusals in a row so far, ≥ 1
 * @param random a number in [0, 1) (Math.random by default)
 * @returns ms, between half and all of min(max, first · 2^(failures − 1))
 */
export function liveRetryDelayMs(failures: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 16);
  const ceiling = Math.min(LIVE_RETRY_DELAY_MS.max, LIVE_RETRY_DELAY_MS.first * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
