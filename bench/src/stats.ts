/** Small statistics for benchmark samples (milliseconds unless said). */

/**
 * The p-th percentile (nearest rank) of samples.
 * @param samples numbers in any order (not changed)
 * @param p 0 to 100
 * @returns NaN for no samples
 */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** Wall-clock now in epoch milliseconds with sub-millisecond precision (comparable across processes). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Bytes → MiB, one decimal. */
export const mib = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Runs `task` over `items` with at most `concurrency` at a time.
 * @returns the results in the order of `items`
 */
export async function inParallel<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}
