/** Small statistics for benchmark samples (milliseconds unless said). */
import { monitorEventLoopDelay } from 'node:perf_hooks';

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

/**
 * An event loop's delay over a window (ms): how much later than due its
 * sampling timer ran (perf_hooks; the sampling interval itself taken off).
 */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/**
 * Starts measuring this process's event-loop delay (perf_hooks
 * monitorEventLoopDelay, sampled every `resolutionMs`, as prom-client's
 * `nodejs_eventloop_lag_*` of the apps with its default 10 ms).
 * @returns `take()`: the delay since the last take (or the start), then starts a new window
 */
export function watchLoopDelay(resolutionMs = 10): { take(): LoopDelay } {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    take() {
      const late = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
      const delay = {
        p50: late(histogram.percentile(50)),
        p99: late(histogram.percentile(99)),
        max: late(histogram.max),
      };
      histogram.reset();
      return delay;
    },
  };
}

/**
 * How much each counter grew per operation between two readings, rounded to
 * 0.01, largest first, keeping those that grew at least `atLeast` per operation.
 * @param operations how many operations ran between the readings
 */
export function perUpdate(
  before: Record<string, number>,
  after: Record<string, number>,
  operations: number,
  atLeast: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([name, value]) => {
        const grown = (value - (before[name] ?? 0)) / operations;
        return [name, Math.round(grown * 100) / 100] as const;
      })
      .filter(([, grown]) => grown >= atLeast)
      .sort((a, b) => b[1] - a[1]),
  );
}
